import type { AuditActor } from '../../audit/audit-actor.js';
import type { AuditAction, AuditDetail, AuditEntry, AuditOutcome } from '../../audit/audit-event.js';
import { INTERNAL_PREFIX, type IriMapper } from '../rdf/terms.js';
import type { BinaryInfo, ResourceRecord } from '../store/record.js';

// What the embedded repository records in the ledger (DECISIONS.md §14), built here from the request and
// handed to the store with the write, so the event commits in the write's own database transaction.

/** Who a request to /rest is, for the ledger: computed from the request itself (handlers.ts). */
export interface AuditWho {
  /**
   * The service's actor when the request is the service's own, through a view (in process or over
   * loopback), redeemed from the relay header; undefined for a client of /rest itself.
   */
  readonly actor: AuditActor | undefined;
  /** The Basic-auth user (recorded when there is no actor). */
  readonly username: string | null;
  readonly requestId: string;
  /** Repository IRIs as the ledger names them: never a path transaction's tx-prefixed form. */
  readonly mapper: IriMapper;
}

/** The actions a job's (or a revert's) actor replaces with its own; never fixity, versions or transactions. */
const REPLACEABLE = new Set<AuditAction>([
  'resource.create',
  'metadata.update',
  'binary.upload',
  'resource.delete',
]);

/** The event of a write to the resource at `path`. */
export function resourceEntry(
  who: AuditWho,
  action: AuditAction,
  path: string,
  detail: AuditDetail,
  outcome: AuditOutcome = 'SUCCESS',
): AuditEntry {
  const iri = who.mapper.external(path);
  const asked = who.actor?.contextUri;
  const replaced = who.actor?.action !== undefined && REPLACEABLE.has(action) ? who.actor.action : action;
  // A job's creation or deletion keeps saying so under the job's action (a `+` row, its undo).
  const marked =
    replaced === action
      ? detail
      : action === 'resource.create'
        ? { ...detail, created: true }
        : action === 'resource.delete'
          ? { ...detail, deleted: true }
          : detail;
  return {
    ...base(who),
    action: replaced,
    // The view's spelling of the resource when it names this one (a container with or without its slash).
    contextUri: asked !== undefined && withoutSlash(asked) === withoutSlash(iri) ? asked : iri,
    outcome,
    detail: withActorDetail(who, marked),
  };
}

/** The event of something that is no resource's (a transaction's commit or rollback). */
export function requestEntry(who: AuditWho, action: AuditAction, detail: AuditDetail): AuditEntry {
  return {
    ...base(who),
    action,
    contextUri: who.actor?.contextUri ?? null,
    outcome: 'SUCCESS',
    detail: withActorDetail(who, detail),
  };
}

/** The actor's own additions (a revert's `revertOf`) to the detail of every event recorded for it. */
function withActorDetail(who: AuditWho, detail: AuditDetail): AuditDetail {
  const extra = who.actor?.detail;
  return extra === undefined ? detail : { ...detail, ...extra };
}

function base(who: AuditWho) {
  const { actor } = who;
  return {
    username: actor === undefined ? who.username : actor.username,
    repositoryViewId: actor?.repositoryViewId ?? null,
    jobId: actor?.jobId ?? null,
    requestId: actor === undefined ? who.requestId : actor.requestId,
  };
}

/** Tells the service's actor that its events were recorded here (it then records nothing itself). */
export function counted(who: AuditWho, entries: readonly AuditEntry[]): void {
  if (who.actor !== undefined) who.actor.recorded += entries.length;
}

/** The event of a resource written with `record` over `previous` (undefined: created). */
export function writeEntry(
  who: AuditWho,
  previous: ResourceRecord | undefined,
  record: ResourceRecord,
): AuditEntry {
  if (record.binary !== null && record.binary !== previous?.binary)
    return resourceEntry(who, 'binary.upload', record.path, binaryDetail(record.binary));
  if (previous === undefined)
    return resourceEntry(who, 'resource.create', record.path, tripleDiff(who.mapper, '', record.triples));
  return resourceEntry(
    who,
    'metadata.update',
    record.path,
    tripleDiff(who.mapper, previous.triples, record.triples),
  );
}

export function binaryDetail(binary: BinaryInfo): AuditDetail {
  return {
    digest: `urn:sha-512:${binary.sha512}`,
    size: binary.size,
    mimeType: binary.mimeType,
    filename: binary.filename,
  };
}

/**
 * The user triples removed and added between two stored states, as sorted N-Triples lines with full
 * repository IRIs. Stored triples are one statement a line, so the diff is on lines; only the lines that
 * differ are mapped.
 */
export function tripleDiff(
  mapper: IriMapper,
  before: string,
  after: string,
): { removed: string[]; added: string[] } {
  const old = linesOf(before);
  const now = linesOf(after);
  const removed = [...old].filter((line) => !now.has(line)).map((line) => externalLine(line, mapper));
  const added = [...now].filter((line) => !old.has(line)).map((line) => externalLine(line, mapper));
  return { removed: removed.sort(), added: added.sort() };
}

function linesOf(triples: string): Set<string> {
  return new Set(triples === '' ? [] : triples.split('\n').filter((line) => line !== ''));
}

/**
 * A stored N-Triples line with its repository IRIs (`info:fedora/…`) in their full form. IRIs are read
 * token by token: a literal that happens to contain `<info:fedora/` is left as it is.
 */
export function externalLine(line: string, mapper: IriMapper): string {
  if (!line.includes(`<${INTERNAL_PREFIX}`)) return line;
  let out = '';
  let i = 0;
  while (i < line.length) {
    const c = line.charAt(i);
    if (c === '"') {
      let j = i + 1;
      while (j < line.length && line.charAt(j) !== '"') j += line.charAt(j) === '\\' ? 2 : 1;
      out += line.slice(i, j + 1);
      i = j + 1;
    } else if (c === '<') {
      const end = line.indexOf('>', i);
      if (end < 0) return out + line.slice(i);
      out += `<${mapper.toExternal(line.slice(i + 1, end))}>`;
      i = end + 1;
    } else {
      out += c;
      i += 1;
    }
  }
  return out;
}

function withoutSlash(iri: string): string {
  return iri.endsWith('/') ? iri.slice(0, -1) : iri;
}
