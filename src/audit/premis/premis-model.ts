import type { AuditEvent, AuditOutcome } from '../audit-event.js';
import { EVENT_TYPES, type LocTerm } from './premis-vocabulary.js';

/** The service as PREMIS names it: the software agent that carried out every event. */
export interface ServiceAgent {
  readonly name: string;
  readonly version: string;
}

/** What the ledger knows of a binary: from its newest upload, else its newest fixity check. */
export interface FileCharacteristics {
  /** The digest as the repository gave it (`urn:sha-512:<hex>`), if any. */
  readonly digest?: string;
  readonly size?: number;
  readonly mimeType?: string;
  readonly filename?: string;
}

export interface PremisObject {
  readonly uri: string;
  /** The views its events were written through (none for writes made straight to /rest). */
  readonly viewIds: readonly number[];
  /** Set for a binary (an upload or a fixity check names it): a PREMIS file, else an intellectual entity. */
  readonly file?: FileCharacteristics;
}

export interface PremisEvent {
  readonly id: number;
  readonly time: string;
  readonly type: LocTerm;
  readonly outcome: AuditOutcome;
  /** A short human account of what happened (counts, names; never the triples, never a credential). */
  readonly detail: string;
  /** For a fixity check: its status, digest and size. */
  readonly outcomeDetail?: string;
  readonly objectUri: string;
  /** Whether the event brought the object into being (PROV: generated rather than used). */
  readonly creates: boolean;
  /** The signed-in person (or /rest's Basic user), when there was one. */
  readonly username: string | null;
}

/** One PREMIS document: objects, then events (oldest first), then agents — the schema's order. */
export interface PremisDocument {
  readonly objects: readonly PremisObject[];
  readonly events: readonly PremisEvent[];
  /** Every person named by an event, in order of first appearance. */
  readonly persons: readonly string[];
  readonly service: ServiceAgent;
}

/**
 * Builds the document from ledger events in any order: only events on a resource (a contextUri and an
 * action with a PREMIS event type) are kept; configuration changes, sign-ins and transactions are not
 * preservation events of an object.
 */
export function premisDocument(ledger: readonly AuditEvent[], service: ServiceAgent): PremisDocument {
  const chronological = [...ledger].sort((a, b) => a.id - b.id);
  const objects = new Map<string, { viewIds: Set<number>; file?: FileCharacteristics }>();
  const persons = new Set<string>();
  const events: PremisEvent[] = [];
  for (const event of chronological) {
    const type = EVENT_TYPES[event.action];
    if (type === undefined || event.contextUri === null) continue;
    const object = objects.get(event.contextUri) ?? { viewIds: new Set<number>() };
    objects.set(event.contextUri, object);
    if (event.repositoryViewId !== null) object.viewIds.add(event.repositoryViewId);
    if (event.action === 'binary.upload') object.file = fileOf(event);
    else if (event.action === 'fixity.check') object.file ??= fileOf(event);
    if (event.username !== null) persons.add(event.username);
    events.push({
      id: event.id,
      time: event.time,
      type,
      outcome: event.outcome,
      detail: describe(event),
      ...(event.action === 'fixity.check' ? { outcomeDetail: fixityOutcome(event) } : {}),
      objectUri: event.contextUri,
      creates: event.action === 'resource.create',
      username: event.username,
    });
  }
  return {
    objects: [...objects].map(([uri, { viewIds, file }]) => ({
      uri,
      viewIds: [...viewIds].sort((a, b) => a - b),
      ...(file === undefined ? {} : { file }),
    })),
    events,
    persons: [...persons],
    service,
  };
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function lines(value: unknown): number {
  return Array.isArray(value) ? value.length : 0;
}

function fileOf(event: AuditEvent): FileCharacteristics {
  const { digest, size, mimeType, filename } = event.detail;
  return {
    ...(text(digest) === undefined ? {} : { digest: text(digest) }),
    ...(count(size) === undefined ? {} : { size: count(size) }),
    ...(text(mimeType) === undefined ? {} : { mimeType: text(mimeType) }),
    ...(text(filename) === undefined ? {} : { filename: text(filename) }),
  };
}

const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

/** The triples' counts, never the triples themselves (they are in GET /audit). */
function changes(event: AuditEvent): string {
  const removed = lines(event.detail.removed);
  const added = lines(event.detail.added);
  return `${plural(removed, 'triple', 'triples')} removed, ${added} added`;
}

/** What each resource action did, in a few words (metadata changes otherwise). */
const DESCRIPTIONS: Partial<Record<AuditEvent['action'], (event: AuditEvent) => string>> = {
  'resource.create': ({ detail }) => `Created with ${plural(lines(detail.added), 'triple', 'triples')}`,
  'binary.upload': (event) => {
    const file = fileOf(event);
    const size = file.size === undefined ? '' : `, ${plural(file.size, 'byte', 'bytes')}`;
    return `Binary ${file.filename ?? '(no filename)'} stored (${file.mimeType ?? 'unknown type'}${size})`;
  },
  'resource.delete': ({ detail }) =>
    Array.isArray(detail.removed)
      ? `Deleted (${plural(lines(detail.removed), 'triple', 'triples')} removed)`
      : 'Deleted',
  'version.create': ({ detail }) =>
    `Version ${text(detail.label) ?? '(no label)'} created: ${text(detail.version) ?? 'unknown memento'}`,
  'version.delete': ({ detail }) =>
    `Version ${text(detail.label) ?? '(no label)'} deleted: ${text(detail.version) ?? 'unknown memento'}`,
  'version.restore': (event) => `Version restored: ${changes(event)}`,
  'fixity.check': (event) => `Fixity checked: ${text(event.detail.status) ?? event.outcome}`,
  'metadata.revert': (event) => `Change reverted: ${changes(event)}`,
  'job.undo': (event) => `Job undone: ${changes(event)}`,
};

/** Reads only the detail fields of resource events' documented shapes, so nothing else can leak. */
function describe(event: AuditEvent): string {
  const how = [
    event.jobId === null ? undefined : `by curation job ${event.jobId}`,
    event.repositoryViewId === null
      ? 'straight through /rest'
      : `through repository view ${event.repositoryViewId}`,
  ].filter((part) => part !== undefined);
  const what = (DESCRIPTIONS[event.action] ?? ((e: AuditEvent) => `Metadata changed: ${changes(e)}`))(event);
  return `${what} (${how.join(', ')})`;
}

function fixityOutcome(event: AuditEvent): string {
  const { status, digest, size } = event.detail;
  return [
    `status ${text(status) ?? event.outcome}`,
    ...(text(digest) === undefined ? [] : [`digest ${text(digest)}`]),
    ...(count(size) === undefined ? [] : [`size ${count(size)}`]),
  ].join('; ');
}
