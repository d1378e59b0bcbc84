import type { AuditFilter } from './api';

/** The Activity screen's filters as its URL holds them (typed search params; text as typed). */
export interface ActivityState {
  readonly viewId?: number;
  readonly username?: string;
  readonly action?: string;
  /** A day (`2026-11-28`, the date field's value) or anything typed into the URL (the API judges it). */
  readonly from?: string;
  readonly to?: string;
  readonly offset?: number;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A day of the date field as the instant the API takes: its first (`start`) or last (`end`) millisecond
 * in the reader's time zone, so "from 28 November" means the reader's 28 November. Anything else is sent
 * as typed: a date-time passes, and text that is no date gets the API's INVALID, shown on the screen.
 */
export function dayBound(text: string, edge: 'start' | 'end'): string {
  const match = DAY.exec(text);
  if (match === null) return text;
  const [year, month, day] = match.slice(1).map(Number) as [number, number, number];
  const date =
    edge === 'start' ? new Date(year, month - 1, day) : new Date(year, month - 1, day, 23, 59, 59, 999);
  // A day that does not exist (2026-02-30) rolls over in Date: sent as typed, the API refuses it.
  if (date.getFullYear() !== year || date.getMonth() !== month - 1 || date.getDate() !== day) return text;
  return date.toISOString();
}

/** The GET /audit filter of the screen's state. */
export function filterOf(state: ActivityState): AuditFilter {
  return {
    ...(state.viewId === undefined ? {} : { repositoryViewId: state.viewId }),
    ...(state.username === undefined ? {} : { username: state.username }),
    ...(state.action === undefined ? {} : { action: state.action }),
    ...(state.from === undefined ? {} : { from: dayBound(state.from, 'start') }),
    ...(state.to === undefined ? {} : { to: dayBound(state.to, 'end') }),
  };
}
