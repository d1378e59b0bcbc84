import type { Operator } from '../operator.js';
import type { ApplyContext, Untransformable } from './apply-context.js';
import { applyApplicationType } from './application-type.op.js';
import { applyBase64Encode } from './base64-encode.op.js';
import { applyConstant } from './constant.op.js';
import { applyDateNormalization } from './date-normalization.op.js';
import { applyDefault } from './default.op.js';
import {
  cloneDocument,
  getValues,
  toPlainDocument,
  type FieldValues,
  type MappingDocument,
} from './mapping-document.js';
import { applyMapping } from './mapping.op.js';
import { applyRegexReplace } from './regex-replace.op.js';
import { applyTemplate } from './template.op.js';

export type { ApplyContext } from './apply-context.js';

/** One operator's effect on its field; `null` means the field was absent. */
export interface TraceEntry {
  /** operator name */
  operator: string;
  field: string;
  before: string[] | null;
  after: string[] | null;
  /** present only when the operator failed; the run stopped there */
  error?: string;
}

/** The transformed document and one trace entry per operator that ran. */
export interface ApplyResult {
  document: MappingDocument;
  trace: TraceEntry[];
  /**
   * One sentence per value an operator could not transform, saying what became of it (the context's
   * `untransformable` policy), in the order met. Not part of `POST /operators/apply`'s answer (SAGE's shape).
   */
  warnings: string[];
}

/** Runs one operator; each semantics lives in its own `*.op.ts` file and answers its field's new values. */
function applyOne(
  document: MappingDocument,
  operator: Operator,
  context: ApplyContext,
  untransformable: Untransformable,
): FieldValues {
  switch (operator.type) {
    case 'CONSTANT_OP':
      return applyConstant(document, operator);
    case 'DEFAULT_OP':
      return applyDefault(document, operator);
    case 'TEMPLATE_OP':
      return applyTemplate(document, operator);
    case 'DATE_NORMALIZATION_OP':
      return applyDateNormalization(document, operator, context, untransformable);
    case 'REGEX_REPLACE_OP':
      return applyRegexReplace(document, operator);
    case 'MAPPING_OP':
      return applyMapping(document, operator);
    case 'BASE_64_ENCODE_OP':
      return applyBase64Encode(document, operator);
    case 'APPLICATION_TYPE_OP':
      return applyApplicationType(document, operator, context);
    default:
      // Unreachable for well-typed input; stored rows could still carry an unknown type.
      throw new Error(`Unknown operator type ${String((operator as { type: unknown }).type)}`);
  }
}

function snapshot(document: MappingDocument, field: string): string[] | null {
  const values = getValues(document, field);
  return values === undefined ? null : [...values];
}

/**
 * The hook an operator calls for a value it cannot transform: records the warning and answers what the
 * policy makes of the value (kept as it is, or dropped).
 */
function untransformableHook(operator: Operator, context: ApplyContext, warnings: string[]): Untransformable {
  const keep = context.untransformable === 'KEEP';
  return (value) => {
    warnings.push(
      `${operator.type} ${JSON.stringify(operator.name)} could not transform ${operator.field} value ${JSON.stringify(value)}; ${keep ? 'kept as it is' : 'dropped'}`,
    );
    return keep ? value : undefined;
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Applies `operators` in the given order, each seeing the previous one's output. The input document is never
 * mutated. If an operator throws, its trace entry carries the message with `after` equal to `before`, and the
 * run stops, returning the document as the last successful operator left it (SAGE's "error containment",
 * sage-operators.md §8 item 17). Never throws.
 *
 * The run copies the document once and stores each operator's answer into that private copy after the
 * operator returned (an operator that throws has changed nothing), rather than copying the whole document
 * per operator: those copies were most of the engine's time.
 */
export function applyOperators(
  document: MappingDocument,
  operators: readonly Operator[],
  context: ApplyContext,
): ApplyResult {
  const trace: TraceEntry[] = [];
  const warnings: string[] = [];
  const current = cloneDocument(document);
  for (const operator of operators) {
    const before = snapshot(current, operator.field);
    let values: FieldValues;
    try {
      values = applyOne(current, operator, context, untransformableHook(operator, context, warnings));
    } catch (error) {
      const after = before === null ? null : [...before];
      trace.push({ operator: operator.name, field: operator.field, before, after, error: messageOf(error) });
      break;
    }
    if (values !== undefined) current[operator.field] = values;
    trace.push({
      operator: operator.name,
      field: operator.field,
      before,
      after: snapshot(current, operator.field),
    });
  }
  return { document: toPlainDocument(current), trace, warnings };
}
