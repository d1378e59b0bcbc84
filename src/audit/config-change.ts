import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { AuditAction, AuditEntry } from './audit-event.js';
import { entryOf, type AuditLog } from './audit-log.js';
import { canonicalJson } from './audit-chain.js';

/**
 * Configuration changes in the ledger (DECISIONS.md §14): views, schemas, users, operators and internal
 * metadata. Detail `{id, name, fields}`: a create's fields, an update's changed fields (new values), a
 * delete's none. A credential never appears: a changed password is `CHANGED`, a removed one `CLEARED`.
 */
export const CHANGED = '(changed)';
export const CLEARED = '(cleared)';

/** An entity's recordable fields by name, as the API names them (never a credential). */
export type ConfigFields = Readonly<Record<string, unknown>>;

/** What a store's write did, in ledger entries; called inside the write's transaction with its result. */
export type Describe<T> = (result: T) => readonly AuditEntry[];

/** The entity's identity in a configuration event. */
export interface ConfigSubject {
  readonly id: number;
  readonly name: string;
}

/** A configuration event: `{id, name}` and, unless none are given, `fields`. */
export function configEntry(action: AuditAction, subject: ConfigSubject, fields?: ConfigFields): AuditEntry {
  const { id, name } = subject;
  return entryOf(action, fields === undefined ? { id, name } : { id, name, fields });
}

/** The fields of `after` whose value differs from `before` (compared as canonical JSON). */
export function changedFields(before: ConfigFields, after: ConfigFields): ConfigFields {
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after))
    if (canonicalJson(value) !== canonicalJson(before[key])) changed[key] = value;
  return changed;
}

/** The kinds of configuration the ledger records, by the prefix of their actions. */
export type ConfigKind =
  'repository-view' | 'schema' | 'user' | 'operator' | 'internal-metadata' | 'schedule';

/**
 * What a store's writes of one kind of entity record: its identity and fields (`fieldsOf` never
 * answers a credential). Each method gives the `describe` of one write.
 */
export class ConfigRecorder<T> {
  constructor(
    private readonly kind: ConfigKind,
    private readonly subjectOf: (entity: T) => ConfigSubject,
    private readonly fieldsOf: (entity: T) => ConfigFields,
  ) {}

  /** A create: every field of the entity created. */
  created(extra: ConfigFields = {}): Describe<T> {
    return (entity) => [
      configEntry(`${this.kind}.create`, this.subjectOf(entity), { ...this.fieldsOf(entity), ...extra }),
    ];
  }

  /**
   * An update from `before`: the fields that changed (`extra` are changed fields the entity does not show,
   * such as a password); nothing when nothing changed or nothing was written (undefined).
   */
  updated(before: T, extra: ConfigFields = {}): Describe<T | undefined> {
    return (entity) => {
      if (entity === undefined) return [];
      const subject = this.subjectOf(entity);
      const fields = { ...changedFields(this.fieldsOf(before), this.fieldsOf(entity)), ...extra };
      return Object.keys(fields).length === 0 ? [] : [configEntry(`${this.kind}.update`, subject, fields)];
    };
  }

  /** A delete of the entity answered (undefined: nothing was deleted, nothing recorded). */
  deleted(): Describe<T | undefined> {
    return (entity) =>
      entity === undefined ? [] : [configEntry(`${this.kind}.delete`, this.subjectOf(entity))];
  }
}

/**
 * Runs a store's write in one database transaction with its ledger entries (`describe`), so the change
 * and its events commit or roll back together; the ledger is told after the commit. The write gets the
 * transaction (without `describe` too: a write of several statements needs one anyway).
 */
export async function writeRecorded<T>(
  db: Kysely<Database>,
  audit: AuditLog,
  write: (trx: Transaction<Database>) => Promise<T>,
  describe: Describe<T> | undefined,
): Promise<T> {
  const { result, appended } = await db.transaction().execute(async (trx) => {
    const done = await write(trx);
    const entries = describe?.(done) ?? [];
    if (entries.length > 0) await audit.append(entries, trx);
    return { result: done, appended: entries.length > 0 };
  });
  if (appended) audit.notifyAppended();
  return result;
}
