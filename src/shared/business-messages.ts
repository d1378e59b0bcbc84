import { ValidationFailedError } from './errors.js';
import { ValidationCollector, type BusinessOperation } from './validation.js';

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
