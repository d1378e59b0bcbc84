import { ConfigRecorder } from '../audit/config-change.js';
import { isUniqueViolation } from '../db/sql-errors.js';
import { deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessInvalid as invalid, businessMessages as msg } from '../shared/business-messages.js';
import { sortByText } from '../shared/compare.js';
import { ValidationFailedError } from '../shared/errors.js';
import type { BusinessOperation } from '../shared/validation.js';
import { entityOf, isOperatorTypeName, OPERATOR_TYPES, toOperatorJson, type Operator } from './operator.js';
import { parseOperator } from './operator.parse.js';
import type { OperatorBody, OperatorDeleteBody } from './operator.schema.js';
import type { OperatorStore } from './operator.store.js';

type Body = CheckedBody<OperatorBody>;

/** Use cases of interface §4.2 with the rules of DECISIONS.md §3 (name unique across all types). */
export class OperatorService {
  /** The last list sorted, by the store's array it came from (the store answers the same array while unchanged). */
  private sorted?: { readonly from: readonly Operator[]; readonly to: readonly Operator[] };

  constructor(private readonly store: OperatorStore) {}

  /** Sorted by name (see compareByText for the exact order). Frozen, may be shared. */
  async list(): Promise<readonly Operator[]> {
    const rows = await this.store.list();
    if (this.sorted?.from !== rows) {
      this.sorted = { from: rows, to: Object.freeze(sortByText([...rows], (op) => op.name)) };
    }
    return this.sorted.to;
  }

  /** Already sorted by name (code-unit order), as the reference's /operators/types is. */
  types(): { name: string; entity: string }[] {
    return OPERATOR_TYPES.map(({ name, entity }) => ({ name, entity }));
  }

  async create(body: Body): Promise<Operator> {
    const collector = body.collector;
    const id = idOf(body);
    const input = parseOperator(body);
    const entity = entityFor(body);
    if (id.kind === 'valid') collector.business('CREATE', await this.idOnCreate(entity, id.id));
    if (input !== undefined && (await this.store.findByName(input.name)) !== undefined) {
      collector.business('CREATE', msg.valueExists(entity, 'name', input.name));
    }
    if (input === undefined || !collector.isValid) throw new ValidationFailedError(collector.results());
    try {
      return await this.store.insert(input, RECORD.created());
    } catch (error) {
      throw nameRace(error, 'CREATE', entity, input.name);
    }
  }

  async update(body: Body): Promise<Operator> {
    const collector = body.collector;
    const id = idOf(body);
    const input = parseOperator(body);
    const entity = entityFor(body);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(entity));
    const existing = id.kind === 'valid' ? await this.store.findById(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined)
      collector.business('UPDATE', msg.doesNotExist(entity, id.id));
    if (existing !== undefined && input !== undefined && existing.type !== input.type) {
      collector.business(
        'UPDATE',
        `${entity} with id ${existing.id} cannot change its type from ${existing.type} to ${input.type}`,
      );
    }
    if (existing !== undefined && input !== undefined && input.name !== existing.name) {
      if ((await this.store.findByName(input.name)) !== undefined) {
        collector.business('UPDATE', msg.valueExists(entity, 'name', input.name));
      }
    }
    if (input === undefined || existing === undefined || !collector.isValid) {
      throw new ValidationFailedError(collector.results());
    }
    let updated: Operator | undefined;
    try {
      updated = await this.store.update({ ...input, id: existing.id }, RECORD.updated(existing));
    } catch (error) {
      throw nameRace(error, 'UPDATE', entity, input.name);
    }
    if (updated === undefined) throw invalid('UPDATE', msg.doesNotExist(entity, existing.id));
    return updated;
  }

  /** Only the id is needed; `type`, when given, only words the messages. */
  async delete(body: CheckedBody<OperatorDeleteBody>): Promise<void> {
    const entity = entityFor(body);
    const id = deleteId(body, entity);
    if (!(await this.store.delete(id, RECORD.deleted())))
      throw invalid('DELETE', msg.doesNotExist(entity, id));
  }

  /** Ids are assigned by the service: an existing id is reported as taken, any other as not ours to set. */
  private async idOnCreate(entity: string, id: number): Promise<string> {
    return (await this.store.findById(id)) === undefined ? msg.idOnCreate(entity) : msg.idExists(entity, id);
  }
}

/** What the ledger says of a change (DECISIONS.md §14): the operator as the API shows it, but its id. */
const RECORD = new ConfigRecorder<Operator>(
  'operator',
  (operator) => ({ id: operator.id, name: operator.name }),
  (operator) => ({ ...toOperatorJson(operator), id: undefined }),
);

/** Messages name the request's entity (`RegexReplaceOp with id 9 does not exist`), else `Operator`. */
function entityFor(body: CheckedBody<OperatorDeleteBody>): string {
  const type = body.get('type');
  return isOperatorTypeName(type) ? entityOf(type) : 'Operator';
}

function nameRace(error: unknown, operation: BusinessOperation, entity: string, name: string): unknown {
  return isUniqueViolation(error) ? invalid(operation, msg.valueExists(entity, 'name', name)) : error;
}
