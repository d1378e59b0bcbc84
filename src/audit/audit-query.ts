import { ValidationCollector } from '../shared/validation.js';
import { ValidationFailedError } from '../shared/errors.js';
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from './audit.api.js';
import { AUDIT_ACTIONS, isAuditAction, type AuditAction } from './audit-event.js';

/** GET /audit's query string as it arrives: text, each parameter at most once. */
export interface AuditQueryText {
  readonly repositoryViewId?: string;
  readonly contextUri?: string;
  readonly username?: string;
  readonly action?: string;
  readonly from?: string;
  readonly to?: string;
  readonly offset?: string;
  readonly limit?: string;
}

/** The query once checked (`from`/`to`: inclusive epoch milliseconds). */
export interface CheckedAuditQuery {
  readonly repositoryViewId?: number;
  readonly contextUri?: string;
  readonly username?: string;
  readonly action?: AuditAction;
  readonly from?: number;
  readonly to?: number;
  readonly offset: number;
  readonly limit: number;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/u;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2})?$/u;
const DAY_MS = 86_400_000;

/**
 * Checks every parameter and reports every problem together (DECISIONS.md §3): a bad number, an unknown
 * action, a date that is not ISO 8601 or not a real day, `to` before `from` — each an INVALID naming its
 * parameter, never a 400. An empty value counts as absent (as for every query parameter).
 */
export function checkAuditQuery(query: AuditQueryText): CheckedAuditQuery {
  const collector = new ValidationCollector();
  const problems: string[] = [];
  const refuse = (parameter: string, message: string) => {
    collector.add(parameter, 'type', message);
    problems.push(message);
  };
  const given = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

  const viewText = given(query.repositoryViewId);
  const repositoryViewId = viewText === undefined ? undefined : integerOf(viewText, 1);
  if (repositoryViewId === null)
    refuse('repositoryViewId', 'The query parameter repositoryViewId must be a positive integer');
  const offsetText = given(query.offset);
  const offset = offsetText === undefined ? 0 : integerOf(offsetText, 0);
  if (offset === null)
    refuse('offset', `The query parameter offset must be an integer from 0 to ${Number.MAX_SAFE_INTEGER}`);
  const limitText = given(query.limit);
  const limit = limitText === undefined ? DEFAULT_AUDIT_LIMIT : integerOf(limitText, 1, MAX_AUDIT_LIMIT);
  if (limit === null)
    refuse('limit', `The query parameter limit must be an integer from 1 to ${MAX_AUDIT_LIMIT}`);

  const actionText = given(query.action);
  if (actionText !== undefined && !isAuditAction(actionText))
    refuse(
      'action',
      `Unknown action ${actionText}: the query parameter action must be one of ${AUDIT_ACTIONS.join(', ')}`,
    );
  const action = actionText !== undefined && isAuditAction(actionText) ? actionText : undefined;

  const fromText = given(query.from);
  const from = fromText === undefined ? undefined : instantOf(fromText, 'start');
  if (from === null) refuse('from', dateMessage('from'));
  const toText = given(query.to);
  const to = toText === undefined ? undefined : instantOf(toText, 'end');
  if (to === null) refuse('to', dateMessage('to'));
  if (typeof from === 'number' && typeof to === 'number' && to < from)
    refuse('to', 'The query parameter to must not be before from');

  if (
    !collector.isValid ||
    repositoryViewId === null ||
    offset === null ||
    limit === null ||
    from === null ||
    to === null
  )
    throw new ValidationFailedError(collector.results(), problems.length === 1 ? problems[0] : undefined);
  const contextUri = given(query.contextUri);
  const username = given(query.username);
  return {
    ...(repositoryViewId === undefined ? {} : { repositoryViewId }),
    ...(contextUri === undefined ? {} : { contextUri }),
    ...(username === undefined ? {} : { username }),
    ...(action === undefined ? {} : { action }),
    ...(from === undefined ? {} : { from }),
    ...(to === undefined ? {} : { to }),
    offset,
    limit,
  };
}

function dateMessage(parameter: string): string {
  return (
    `The query parameter ${parameter} must be an ISO 8601 date (2026-11-28) or date-time ` +
    '(2026-11-28T07:00:00Z)'
  );
}

/** Decimal digits only (no sign, exponent or spaces), within the bounds; null otherwise. */
function integerOf(text: string, min: number, max = Number.MAX_SAFE_INTEGER): number | null {
  if (!/^\d{1,16}$/u.test(text)) return null;
  const value = Number(text);
  return Number.isSafeInteger(value) && value >= min && value <= max ? value : null;
}

/**
 * Epoch milliseconds of an ISO 8601 date or date-time; null when it is neither, or names no real moment
 * (2026-02-30, 25:00). A date alone is its first millisecond (`start`) or its last (`end`), in UTC; a
 * date-time without a zone is UTC too (the ledger's times are).
 */
export function instantOf(text: string, edge: 'start' | 'end'): number | null {
  const date = DATE.exec(text);
  if (date !== null) {
    const start = utc(Number(date[1]), Number(date[2]), Number(date[3]), 0, 0, 0, 0);
    if (start === null) return null;
    return edge === 'start' ? start : start + DAY_MS - 1;
  }
  const time = DATE_TIME.exec(text);
  if (time === null) return null;
  const [, year, month, day, hour, minute, second, fraction, zone] = time;
  const ms = fraction === undefined ? 0 : Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = utc(
    Number(year),
    Number(month),
    Number(day),
    Number(hour),
    Number(minute),
    Number(second ?? '0'),
    ms,
  );
  if (local === null) return null;
  if (zone === undefined || zone === 'Z') return local;
  const sign = zone.startsWith('-') ? -1 : 1;
  const hours = Number(zone.slice(1, 3));
  const minutes = Number(zone.slice(4, 6));
  if (hours > 23 || minutes > 59) return null;
  return local - sign * (hours * 60 + minutes) * 60_000;
}

/** The UTC instant of these fields, or null when they name no real moment (Date.UTC would roll over). */
function utc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
): number | null {
  const value = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  const back = new Date(value);
  const real =
    back.getUTCFullYear() === year &&
    back.getUTCMonth() === month - 1 &&
    back.getUTCDate() === day &&
    back.getUTCHours() === hour &&
    back.getUTCMinutes() === minute &&
    back.getUTCSeconds() === second;
  return real ? value : null;
}
