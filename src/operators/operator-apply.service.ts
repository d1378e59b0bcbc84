import { businessMessages as msg } from '../shared/business-messages.js';
import { ValidationFailedError } from '../shared/errors.js';
import type { CheckedBody } from '../shared/body-check.js';
import type { ValidationCollector } from '../shared/validation.js';
import { applyOperators, type TraceEntry } from './engine/apply-operators.js';
import type { MappingDocument } from './engine/mapping-document.js';
import { isValidTimeZone } from './engine/time-zone.js';
import type { ApplyBody } from './operator-apply.schema.js';
import type { OperatorsInOrder, OperatorStore } from './operator.store.js';

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

/** The fields marked required (internal metadata), for `missingRequired`. */
export interface RequiredFields {
  /** The fields when they are kept in memory and can be told at once; undefined when they must be read. */
  kept(): readonly string[] | undefined;
  read(): Promise<readonly string[]>;
}

export const MAX_APPLIED_OPERATORS = 1000;

/** The body's parts, each undefined when it failed its check (the failure is in the collector). */
interface ApplyInput {
  readonly collector: ValidationCollector;
  readonly document: MappingDocument | undefined;
  readonly ids: number[] | undefined;
  readonly timeZone: string;
  readonly viewId: number | null | undefined;
}

export class OperatorApplyService {
  constructor(
    private readonly operators: OperatorStore,
    private readonly requiredFields: RequiredFields,
    private readonly repositoryType: RepositoryTypeLookup,
  ) {}

  /**
   * Applies the operators to the document. Answers without a promise when nothing needs reading: no
   * view to look up, and the id list's operators and the required fields kept in memory (the same
   * operators are applied document after document, and nothing is kept past a write). Each await was a
   * turn of the microtask queue on the hottest route, for values already at hand.
   */
  apply(body: CheckedBody<ApplyBody>): MappedDocument | Promise<MappedDocument> {
    const input = inputOf(body);
    if (input.ids !== undefined && (input.viewId === undefined || input.viewId === null)) {
      const kept = this.operators.keptInOrder(input.ids);
      const required = kept === undefined ? undefined : this.requiredFields.kept();
      if (kept !== undefined && required !== undefined) {
        reportMissing(kept, input.collector);
        return applyChecked(input, kept, undefined, required);
      }
    }
    return this.applyAfterReads(input);
  }

  private async applyAfterReads(input: ApplyInput): Promise<MappedDocument> {
    const { collector, ids, viewId } = input;
    let applicationType: string | undefined;
    if (viewId !== undefined && viewId !== null) {
      applicationType = await this.repositoryType(viewId);
      if (applicationType === undefined)
        collector.business('READ', msg.doesNotExist('RepositoryView', viewId));
    }
    let found: OperatorsInOrder | undefined;
    if (ids !== undefined) {
      found = await this.operators.inOrder(ids);
      reportMissing(found, collector);
    }
    // Nothing more is read for a request that fails.
    const required = found === undefined || !collector.isValid ? [] : await this.requiredFields.read();
    return applyChecked(input, found, applicationType, required);
  }
}

/** Reads the body's parts; a single text value of the document is accepted as a one-element list. */
function inputOf(body: CheckedBody<ApplyBody>): ApplyInput {
  const collector = body.collector;
  return {
    collector,
    document: asLists(body.get('document')),
    ids: parseIds(body.get('operators'), collector),
    timeZone: parseTimeZone(body.get('timeZone'), body.passed('timeZone'), collector),
    viewId: body.get('repositoryViewId'),
  };
}

function reportMissing(found: OperatorsInOrder, collector: ValidationCollector): void {
  for (const id of found.missing) collector.business('READ', msg.doesNotExist('Operator', id));
}

/** The answer, or INVALID with every failure collected. */
function applyChecked(
  input: ApplyInput,
  found: OperatorsInOrder | undefined,
  applicationType: string | undefined,
  required: readonly string[],
): MappedDocument {
  const { document, collector } = input;
  // A missing operator is already a business failure in the collector (reportMissing).
  if (document === undefined || found === undefined || !collector.isValid) {
    throw new ValidationFailedError(collector.results());
  }
  const result = applyOperators(document, found.operators, { timeZone: input.timeZone, applicationType });
  const missingRequired = required.filter((field) => (result.document[field] ?? []).length === 0);
  return { document: result.document, trace: result.trace, missingRequired };
}

/** The document with every value a list: the body itself when it already is (the engine copies it). */
function asLists(raw: ApplyBody['document'] | undefined): MappingDocument | undefined {
  if (raw === undefined) return undefined;
  for (const field in raw) {
    if (typeof raw[field] === 'string')
      return Object.fromEntries(
        Object.entries(raw).map(([name, values]) => [name, typeof values === 'string' ? [values] : values]),
      );
  }
  return raw as MappingDocument;
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
