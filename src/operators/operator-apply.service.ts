import { businessMessages as msg } from '../shared/business-messages.js';
import { ValidationFailedError } from '../shared/errors.js';
import { ValidationCollector } from '../shared/validation.js';
import { applyOperators, type TraceEntry } from './engine/apply-operators.js';
import type { MappingDocument } from './engine/mapping-document.js';
import { isValidTimeZone } from './engine/time-zone.js';
import type { Operator } from './operator.js';
import type { OperatorStore } from './operator.store.js';

type Body = Readonly<Record<string, unknown>>;

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

  async apply(body: Body): Promise<MappedDocument> {
    const collector = new ValidationCollector();
    const document = parseDocument(body.document, collector);
    const ids = parseIds(body.operators, collector);
    const timeZone = parseTimeZone(body.timeZone, collector);
    const viewId = body.repositoryViewId;
    let applicationType: string | undefined;
    if (viewId !== undefined && viewId !== null) {
      if (typeof viewId !== 'number' || !Number.isSafeInteger(viewId) || viewId < 1) {
        collector.add('repositoryViewId', 'type', 'A repositoryViewId must be a positive integer');
      } else {
        applicationType = await this.repositoryType(viewId);
        if (applicationType === undefined)
          collector.business('READ', msg.doesNotExist('RepositoryView', viewId));
      }
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

  private async findInOrder(ids: number[], collector: ValidationCollector): Promise<Operator[] | undefined> {
    const found = new Map((await this.operators.findByIds([...new Set(ids)])).map((op) => [op.id, op]));
    const missing = ids.filter((id) => !found.has(id));
    for (const id of missing) collector.business('READ', msg.doesNotExist('Operator', id));
    if (missing.length > 0) return undefined;
    return ids.flatMap((id) => {
      const operator = found.get(id);
      return operator === undefined ? [] : [operator];
    });
  }
}

function parseDocument(raw: unknown, collector: ValidationCollector): MappingDocument | undefined {
  if (raw === undefined || raw === null) {
    collector.add('document', 'required', 'A document is required');
    return undefined;
  }
  const typeMessage = 'A document must be an object mapping each field to a list of text values';
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    collector.add('document', 'type', typeMessage);
    return undefined;
  }
  const entries: [string, string[]][] = [];
  for (const [field, value] of Object.entries(raw as Record<string, unknown>)) {
    // A single text value is accepted as a one-element list.
    const values = typeof value === 'string' ? [value] : value;
    if (!Array.isArray(values) || !values.every((v): v is string => typeof v === 'string')) {
      collector.add('document', 'type', typeMessage);
      return undefined;
    }
    entries.push([field, values]);
  }
  return Object.fromEntries(entries);
}

function parseIds(raw: unknown, collector: ValidationCollector): number[] | undefined {
  if (raw === undefined || raw === null) {
    collector.add('operators', 'required', 'A list of operator ids is required');
    return undefined;
  }
  if (
    !Array.isArray(raw) ||
    !raw.every((id): id is number => Number.isSafeInteger(id) && (id as number) > 0)
  ) {
    collector.add('operators', 'type', 'Operators must be a list of operator ids (positive integers)');
    return undefined;
  }
  if (raw.length > MAX_APPLIED_OPERATORS) {
    collector.add(
      'operators',
      'maxlength',
      `No more than ${MAX_APPLIED_OPERATORS} operators can be applied at once`,
    );
    return undefined;
  }
  return raw;
}

function parseTimeZone(raw: unknown, collector: ValidationCollector): string {
  if (raw === undefined || raw === null) return 'UTC';
  // isValidTimeZone is memoized: building an Intl.DateTimeFormat per request to check the name was costly.
  if (typeof raw === 'string' && raw.length <= 64 && isValidTimeZone(raw)) return raw;
  collector.add(
    'timeZone',
    'pattern',
    'A timeZone must be an IANA time zone name such as UTC or America/Chicago',
  );
  return 'UTC';
}
