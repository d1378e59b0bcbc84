import { ConfigRecorder } from '../audit/config-change.js';
import { isForeignKeyViolation, isUniqueViolation } from '../db/sql-errors.js';
import { schemaEvent } from '../events/change-events.js';
import { NO_EVENTS, type EventBus } from '../events/event-bus.js';
import { deleteId, idOf, type CheckedBody } from '../shared/body-check.js';
import { businessInvalid as invalid, businessMessages as msg } from '../shared/business-messages.js';
import { compareByText } from '../shared/compare.js';
import { BadRequestError, NotFoundError, ValidationFailedError } from '../shared/errors.js';
import { ENTITY, isHttpIri, parseSchema, type Property, type Schema } from './schema.js';
import { NAMESPACE_MALFORMED } from './schema.api.js';
import type { SchemaBody } from './schema.schema.js';
import type { SchemaStore } from './schema.store.js';

/** The names of the repository views that use a schema; deleting a schema in use is refused. */
export type FindViewsUsingSchema = (schemaId: number) => Promise<readonly string[]>;

/** Lists the properties of a namespace (offline catalogue or an HTTP read). */
export interface PropertySource {
  listProperties(namespace: string): Promise<Property[]>;
}

/**
 * Use cases of interface §4.5. Bodies arrive checked against their schema; every failure of a request is collected and
 * reported together, and nothing is written unless all checks pass.
 */
export class SchemaService {
  /** The last list sorted, by the store's array it came from (the store answers the same array while unchanged). */
  private sorted?: { readonly from: readonly Schema[]; readonly to: readonly Schema[] };

  constructor(
    private readonly store: SchemaStore,
    private readonly findViewsUsingSchema: FindViewsUsingSchema,
    private readonly propertySource: PropertySource,
    /** Where each change is announced (`schema` events; default: nowhere). */
    private readonly events: EventBus = NO_EVENTS,
  ) {}

  /** Sorted by name (see compareByText for the exact order). Frozen, may be shared. */
  async list(): Promise<readonly Schema[]> {
    const schemas = await this.store.list();
    if (this.sorted?.from !== schemas) {
      this.sorted = {
        from: schemas,
        to: Object.freeze([...schemas].sort(compareByText((schema) => schema.name))),
      };
    }
    return this.sorted.to;
  }

  /** `GET /schema/{id}`: an unknown id is a 404. */
  async get(id: number): Promise<Schema> {
    const schema = await this.store.findById(id);
    if (schema === undefined) throw new NotFoundError(msg.doesNotExist(ENTITY, id));
    return schema;
  }

  async create(body: CheckedBody<SchemaBody>): Promise<Schema> {
    const collector = body.collector;
    const id = idOf(body);
    const input = parseSchema(body);
    if (id.kind === 'valid') collector.business('CREATE', await this.idOnCreate(id.id));
    if (input !== undefined && (await this.store.findIdByAbbreviation(input.abbreviation)) !== undefined) {
      collector.business('CREATE', abbreviationTaken(input.abbreviation));
    }
    if (input === undefined || !collector.isValid) throw new ValidationFailedError(collector.results());
    let created: Schema;
    try {
      created = await this.store.insert(input, RECORD.created());
    } catch (error) {
      throw abbreviationRace(error, 'CREATE', input.abbreviation);
    }
    this.events.publish(schemaEvent('CREATE', created));
    return created;
  }

  /** A full replace, properties included. */
  async update(body: CheckedBody<SchemaBody>): Promise<Schema> {
    const collector = body.collector;
    const id = idOf(body);
    const input = parseSchema(body);
    if (id.kind === 'absent') collector.business('UPDATE', msg.requiresId(ENTITY));
    const existing = id.kind === 'valid' ? await this.store.findById(id.id) : undefined;
    if (id.kind === 'valid' && existing === undefined) {
      collector.business('UPDATE', msg.doesNotExist(ENTITY, id.id));
    }
    if (input !== undefined && existing !== undefined && input.abbreviation !== existing.abbreviation) {
      const holder = await this.store.findIdByAbbreviation(input.abbreviation);
      if (holder !== undefined) collector.business('UPDATE', abbreviationTaken(input.abbreviation));
    }
    if (input === undefined || existing === undefined || !collector.isValid) {
      throw new ValidationFailedError(collector.results());
    }
    let updated: Schema | undefined;
    try {
      updated = await this.store.update({ id: existing.id, ...input }, RECORD.updated(existing));
    } catch (error) {
      throw abbreviationRace(error, 'UPDATE', input.abbreviation);
    }
    if (updated === undefined) throw invalid('UPDATE', msg.doesNotExist(ENTITY, existing.id));
    this.events.publish(schemaEvent('UPDATE', updated));
    return updated;
  }

  /** Only the id is needed; a schema that a repository view uses cannot be deleted. */
  async delete(body: CheckedBody<{ id?: number | null }>): Promise<void> {
    const id = deleteId(body, ENTITY);
    if ((await this.store.findById(id)) === undefined) {
      throw invalid('DELETE', msg.doesNotExist(ENTITY, id));
    }
    await this.refuseWhenInUse(id);
    let deleted: boolean;
    try {
      deleted = await this.store.delete(id, RECORD.deleted());
    } catch (error) {
      // A view took the schema after the check above; the database's foreign key refused the delete.
      if (isForeignKeyViolation(error)) await this.refuseWhenInUse(id);
      throw error;
    }
    if (!deleted) throw invalid('DELETE', msg.doesNotExist(ENTITY, id));
    this.events.publish(schemaEvent('DELETE', { id }));
  }

  private async refuseWhenInUse(id: number): Promise<void> {
    const views = await this.findViewsUsingSchema(id);
    if (views.length > 0) {
      throw invalid(
        'DELETE',
        `Could not delete ${ENTITY} with id ${id} due to being used by repository views: ${views.join(', ')}`,
      );
    }
  }

  /**
   * `GET /schema/properties?namespace=…`, the namespace an IRI of at most its limit (the route's schema);
   * one that is not http or https is a 400, as it cannot be read.
   */
  async listProperties(namespace: string): Promise<Property[]> {
    if (!isHttpIri(namespace)) throw new BadRequestError(NAMESPACE_MALFORMED);
    return this.propertySource.listProperties(namespace);
  }

  /** Ids are assigned by the service: an existing id is reported as taken, any other as not ours to set. */
  private async idOnCreate(id: number): Promise<string> {
    return (await this.store.findById(id)) === undefined ? msg.idOnCreate(ENTITY) : msg.idExists(ENTITY, id);
  }
}

/** What the ledger says of a change (DECISIONS.md §14): the schema's fields, its properties included. */
const RECORD = new ConfigRecorder<Schema>(
  'schema',
  (schema) => ({ id: schema.id, name: schema.name }),
  (schema) => ({
    name: schema.name,
    abbreviation: schema.abbreviation,
    namespace: schema.namespace,
    properties: schema.properties.map((property) => ({ uri: property.uri, label: property.label })),
  }),
);

function abbreviationTaken(abbreviation: string): string {
  return msg.valueExists(ENTITY, 'abbreviation', abbreviation);
}

/** Two requests raced past the pre-check; the database's unique index decided. */
function abbreviationRace(error: unknown, operation: 'CREATE' | 'UPDATE', abbreviation: string): unknown {
  return isUniqueViolation(error) ? invalid(operation, abbreviationTaken(abbreviation)) : error;
}
