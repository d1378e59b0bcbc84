import { businessMessages as msg } from '../shared/business-messages.js';
import { ValidationFailedError } from '../shared/errors.js';
import type { CheckedBody } from '../shared/body-check.js';
import type { ValidationCollector } from '../shared/validation.js';
import { applyOperators, type TraceEntry } from './engine/apply-operators.js';
import type { MappingDocument } from './engine/mapping-document.js';
import { isValidTimeZone } from './engine/time-zone.js';
import type { Operator } from './operator.js';
import type { ApplyBody } from './operator-apply.schema.js';
import type { OperatorStore } from './operator.store.js';

/** The result of POST /operators/apply (DECISIONS.md §4). */
export interface MappedDocument {
  document: MappingDocument;
  trace: TraceEntry[];
  missingRequired: string[];
}

/**
 * Finds the repository type (lower case, e.g. `fedora`) of a repository view, for APPLICATION_TYPE_OP.
 * Repository views arrive with their own capability; until then no view exists.
 */
export type RepositoryTypeLookup = (repositoryViewId: number) => Promise<string | undefined>;

export const MAX_APPLIED_OPERATORS = 1000;

export class OperatorApplyService {
  constructor(
    private readonly operators: OperatorStore,
    private readonly requiredFields: () => Promise<readonly string[]>,
    private readonly repositoryType: RepositoryTypeLookup,
  ) {}

  async apply(body: CheckedBody<ApplyBody>): Promise<MappedDocument> {
    const collector = body.collector;
    const raw = body.get('document');
    const document =
      raw &&
      Object.fromEntries(
        // A single text value is accepted as a one-element list.
        Object.entries(raw).map(([field, values]) => [field, typeof values === 'string' ? [values] : values]),
      );
    const ids = parseIds(body.get('operators'), collector);
    const timeZone = parseTimeZone(body.get('timeZone'), body.passed('timeZone'), collector);
    const viewId = body.get('repositoryViewId');
    let applicationType: string | undefined;
    if (viewId !== undefined && viewId !== null) {
      applicationType = await this.repositoryType(viewId);
      if (applicationType === undefined)
        collector.business('READ', msg.doesNotExist('RepositoryView', viewId));
    }
    const operators = ids === undefined ? undefined : await this.findInOrder(ids, collector);
    if (document === undefined || operators === undefined || !collector.isValid) {
      throw new ValidationFailedError(collector.results());
    }
    const result = applyOperators(document, operators, { timeZone, applicationType });
    const required = await this.requiredFields();
    const missingRequired = required.filter((field) => (result.document[field] ?? []).length === 0);
    return { document: result.document, trace: result.trace, missingRequired };
  }

  private async findInOrder(
    ids: number[],
    collector: ValidationCollector,
  ): Promise<readonly Operator[] | undefined> {
    const { operators, missing } = await this.operators.inOrder(ids);
    for (const id of missing) collector.business('READ', msg.doesNotExist('Operator', id));
    return missing.length > 0 ? undefined : operators;
  }
}

function parseIds(ids: number[] | undefined, collector: ValidationCollector): number[] | undefined {
  if (ids !== undefined && ids.length > MAX_APPLIED_OPERATORS) {
    collector.add(
      'operators',
      'maxlength',
      `No more than ${MAX_APPLIED_OPERATORS} operators can be applied at once`,
    );
    return undefined;
  }
  return ids;
}

/** The zone's name, known to Intl; a non-string one is already reported by the schema. */
function parseTimeZone(
  raw: string | null | undefined,
  passed: boolean,
  collector: ValidationCollector,
): string {
  if (raw === undefined || raw === null) return 'UTC';
  // isValidTimeZone is memoized: building an Intl.DateTimeFormat per request to check the name was costly.
  if (raw.length <= 64 && isValidTimeZone(raw)) return raw;
  if (passed)
    collector.add(
      'timeZone',
      'pattern',
      'A timeZone must be an IANA time zone name such as UTC or America/Chicago',
    );
  return 'UTC';
}
