import { ValidationFailedError } from './errors.js';
import { checkId, ValidationCollector, type BusinessOperation } from './validation.js';

/** Business-rule messages of DECISIONS.md §3, in one place so every capability words them alike. */
export const businessMessages = {
  doesNotExist: (entity: string, id: number) => `${entity} with id ${id} does not exist`,
  idExists: (entity: string, id: number) => `${entity} with id ${id} already exists`,
  valueExists: (entity: string, property: string, value: string) =>
    `${entity} with ${property} of ${value} already exists`,
  requiresId: (entity: string) => `${entity} requires an id`,
  idOnCreate: (entity: string) => `${entity} ids are assigned by the service; send id null to create`,
};

/** An INVALID answer carrying one business message (category `business`, key = the operation). */
export function businessInvalid(operation: BusinessOperation, message: string): ValidationFailedError {
  const collector = new ValidationCollector();
  collector.business(operation, message);
  return new ValidationFailedError(collector.results());
}

/**
 * The id of a DELETE body (DECISIONS.md §3: only the id is needed): INVALID `business.DELETE`
 * `<Entity> requires an id` without one, `id.type` for a malformed one.
 */
export function idToDelete(body: Readonly<Record<string, unknown>>, entity: string): number {
  const collector = new ValidationCollector();
  const id = checkId(body, collector);
  if (id.kind === 'absent') collector.business('DELETE', businessMessages.requiresId(entity));
  if (id.kind !== 'valid') throw new ValidationFailedError(collector.results());
  return id.id;
}
