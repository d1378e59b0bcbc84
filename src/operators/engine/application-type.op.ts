import type { FieldOnlyOperator } from '../operator.js';
import type { ApplyContext } from './apply-context.js';
import type { FieldValues, MappingDocument } from './mapping-document.js';

/** The operator error reported when the request names no repository view. */
export const APPLICATION_TYPE_MISSING =
  'APPLICATION_TYPE_OP needs a repositoryViewId naming an existing repository view';

/**
 * APPLICATION_TYPE_OP: always `field = [applicationType]`, overwriting. In SAGE the type came from the reader's
 * source; here the request names a repository view and the caller resolves its (lower-case) type.
 */
export function applyApplicationType(
  _document: MappingDocument,
  operator: FieldOnlyOperator,
  context: ApplyContext,
): FieldValues {
  if (context.applicationType === undefined) throw new Error(APPLICATION_TYPE_MISSING);
  return [context.applicationType];
}
