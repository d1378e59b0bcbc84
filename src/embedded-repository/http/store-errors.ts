import { RdfInputRefusedError, RdfMediaTypeError, RdfSyntaxError } from '../../linked-data/rdf/errors.js';
import type { StoreRefusal } from '../store/errors.js';
import { RepositoryError } from './errors.js';

/**
 * The HTTP answer to a refusal of the store: 409 for conflicts with the stored state or another
 * transaction, 400 for a change a transaction cannot stage. Rule conflicts (a missing parent, a taken
 * memento) link the constraints document; races and locks do not, a retry may succeed.
 */
export function answerToRefusal(refusal: StoreRefusal): RepositoryError {
  switch (refusal.name) {
    case 'RevisionConflict':
      return RepositoryError.conflict('The resource changed concurrently; retry', false);
    case 'LockHeld':
    case 'TransactionUnusable':
      return RepositoryError.conflict(refusal.message, false);
    case 'ParentMissing':
    case 'MementoExists':
      return RepositoryError.conflict(refusal.message);
    case 'PurgeInTransaction':
      return RepositoryError.badRequest(refusal.message);
  }
}

/**
 * The HTTP answer to an RDF body the reader (linked-data/rdf/parse.ts) could not accept: 400 naming the
 * refusal or the syntax error, 415 for a media type it does not read. Anything else is passed on.
 */
export function answerToRdfError(error: unknown, mediaType: string): unknown {
  if (error instanceof RdfInputRefusedError) return RepositoryError.badRequest(error.message);
  if (error instanceof RdfSyntaxError) {
    return RepositoryError.badRequest(`Malformed ${mediaType} body: ${error.message.slice(0, 300)}`);
  }
  if (error instanceof RdfMediaTypeError) {
    return RepositoryError.unsupportedMediaType(`Unsupported RDF media type ${mediaType}`);
  }
  return error;
}
