import { ConfigRecorder } from '../audit/config-change.js';
import { isUniqueViolation } from '../db/sql-errors.js';
import { deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessInvalid as invalid, businessMessages as msg } from '../shared/business-messages.js';
import { sortByText } from '../shared/compare.js';
import { ValidationFailedError } from '../shared/errors.js';
import { ENTITY, type InternalMetadata, type InternalMetadataInput } from './internal-metadata.js';
import type { InternalMetadataBody } from './internal-metadata.schema.js';
import type { InternalMetadataStore } from './internal-metadata.store.js';

type Body = CheckedBody<InternalMetadataBody>;

/**
 * Use cases of interface §4.1. Bodies arrive checked against their schema, failures collected; the
 * business checks add theirs, every failure of a request is reported together, and nothing is written
 * unless all checks pass.
 */
export class InternalMetadataService {
  /** The last list sorted, by the store's array it came from (the store answers the same array while unchanged). */
  private sorted?: { readonly from: readonly InternalMetadata[]; readonly to: readonly InternalMetadata[] };

  constructor(private readonly store: InternalMetadataStore) {}

  /** Sorted by gloss (sage-operators.md §2), see compareByText for the exact order. Frozen, may be shared. */
  async list(): Promise<readonly InternalMetadata[]> {
    return this.sortedList(await this.store.list());
  }

  /** The same list when the store keeps it and can tell at once (no promise); undefined when it must be read. */
  keptList(): readonly InternalMetadata[] | undefined {
    const rows = this.store.keptList();
    return rows === undefined ? undefined : this.sortedList(rows);
  }

  private sortedList(rows: readonly InternalMetadata[]): readonly InternalMetadata[] {
    if (this.sorted?.from !== rows) {
      this.sorted = { from: rows, to: Object.freeze(sortByText([...rows], (item) => item.gloss)) };
    }
    return this.sorted.to;
  }

  /** Fields marked required, for the operator engine's `missingRequired`; only those rows are read. */
  async requiredFields(): Promise<readonly string[]> {
    return this.store.requiredFields();
  }

  /** The same fields when they are kept in memory, answered at once; undefined when they must be read. */
  keptRequiredFields(): readonly string[] | undefined {
    return this.store.keptRequiredFields();
  }

  async create(body: Body): Promise<InternalMetadata> {
    const collector = body.collector;
    const id = idOf(body);
    const input = inputOf(body);
    if (id.kind === 'valid') collector.business('CREATE', await this.idOnCreate(ENTITY, id.id));
    if (input !== undefined && (await this.store.findByField(input.field)) !== undefined) {
      collector.business('CREATE', msg.valueExists(ENTITY, 'field', input.field));
    }
    if (input === undefined || !collector.isValid) throw new ValidationFailedError(collector.results());
    try {
      return await this.store.insert(input, RECORD.created());
    } catch (error) {
      throw uniqueFieldRace(error, 'CREATE', input.field);
    }
  }

  async update(body: Body): Promise<InternalMetadata> {
    const collector = body.collector;
    const id = idOf(body);
    const input = inputOf(body);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(ENTITY));
    const existing = id.kind === 'valid' ? await this.store.findById(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined)
      collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    if (input !== undefined && existing !== undefined && input.field !== existing.field) {
      const holder = await this.store.findByField(input.field);
      if (holder !== undefined) collector.business('UPDATE', msg.valueExists(ENTITY, 'field', input.field));
    }
    if (input === undefined || existing === undefined || !collector.isValid) {
      throw new ValidationFailedError(collector.results());
    }
    let updated: InternalMetadata | undefined;
    try {
      updated = await this.store.update({ id: existing.id, ...input }, RECORD.updated(existing));
    } catch (error) {
      throw uniqueFieldRace(error, 'UPDATE', input.field);
    }
    if (updated === undefined) throw invalid('UPDATE', msg.doesNotExist(ENTITY, existing.id));
    return updated;
  }

  /** Only the id is needed (DECISIONS.md §3); the other properties of the body are ignored. */
  async delete(body: CheckedBody<{ id?: number | null }>): Promise<void> {
    const id = deleteId(body, ENTITY);
    if (!(await this.store.delete(id, RECORD.deleted())))
      throw invalid('DELETE', msg.doesNotExist(ENTITY, id));
  }

  /** Ids are assigned by the service: an existing id is reported as taken, any other as not ours to set. */
  private async idOnCreate(entity: string, id: number): Promise<string> {
    return (await this.store.findById(id)) === undefined ? msg.idOnCreate(entity) : msg.idExists(entity, id);
  }
}

/** What the ledger says of a change (DECISIONS.md §14): the row's fields, named by its gloss. */
const RECORD = new ConfigRecorder<InternalMetadata>(
  'internal-metadata',
  (item) => ({ id: item.id, name: item.gloss }),
  (item) => ({ gloss: item.gloss, field: item.field, required: item.required }),
);

/** The fields to store, when the body passed its schema; `required` null or missing means false. */
function inputOf(body: Body): InternalMetadataInput | undefined {
  const value = body.value;
  return value && { gloss: value.gloss, field: value.field, required: value.required ?? false };
}

/** Two requests raced past the pre-check; the database's unique index decided. */
function uniqueFieldRace(error: unknown, operation: 'CREATE' | 'UPDATE', field: string): unknown {
  return isUniqueViolation(error) ? invalid(operation, msg.valueExists(ENTITY, 'field', field)) : error;
}
