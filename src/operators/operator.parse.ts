import type { CheckedBody } from '../shared/body-check.js';
import type { ValidationCollector } from '../shared/validation.js';
import { checkReplacement, compileRegex } from './engine/regex.js';
import { isValidDatePattern } from './engine/date-pattern.js';
import type { NewOperator, OperatorTypeName } from './operator.js';
import { MAX_MAPPING_ENTRIES, MAX_VALUE_LENGTH, TYPE_BODIES, type OperatorBody } from './operator.schema.js';

/**
 * The operator of a body that passed OperatorBody (checked by Fastify): its `type` selects the schema of
 * the properties it carries (sage-operators.md §3.2, §3.5), checked here against the same body with the
 * failures collected together; then the checks a schema cannot make (a date pattern, a regex compiling).
 */
export function parseOperator(body: CheckedBody<OperatorBody>): NewOperator | undefined {
  const type = body.get('type');
  if (type === undefined) return undefined;
  const typed = body.and(TYPE_BODIES[type]);
  const parsed = parseTypeSpecific(type, typed);
  const name = body.get('name');
  const field = typed.get('field');
  if (name === undefined || field === undefined || parsed === undefined || !body.passed('id'))
    return undefined;
  return { ...parsed, name, field };
}

type TypeSpecific =
  | { type: 'CONSTANT_OP' | 'DEFAULT_OP' | 'TEMPLATE_OP' | 'DATE_NORMALIZATION_OP'; value: string }
  | { type: 'REGEX_REPLACE_OP'; value: string; regex: string }
  | { type: 'MAPPING_OP'; mapping: Record<string, string> }
  | { type: 'BASE_64_ENCODE_OP' | 'APPLICATION_TYPE_OP' };

/** The type's own properties, each already checked against its schema (failed ones are undefined). */
function parseTypeSpecific(
  type: OperatorTypeName,
  body: CheckedBody<Record<string, unknown>>,
): TypeSpecific | undefined {
  const collector = body.collector;
  const text = (property: string) => body.get(property) as string | undefined;
  switch (type) {
    case 'CONSTANT_OP':
    case 'DEFAULT_OP':
    case 'TEMPLATE_OP': {
      const value = text('value');
      return value === undefined ? undefined : { type, value };
    }
    case 'DATE_NORMALIZATION_OP': {
      const value = text('value');
      if (value !== undefined && !isValidDatePattern(value)) {
        collector.add('value', 'pattern', 'A date normalization operator value must be a valid date format');
        return undefined;
      }
      return value === undefined ? undefined : { type, value };
    }
    case 'REGEX_REPLACE_OP': {
      const value = text('value');
      const regex = text('regex');
      if (regex !== undefined) {
        const compiled = compileRegex(regex);
        if (!compiled.ok) {
          collector.add(
            'regex',
            'pattern',
            `A regex replace operator regex must be a valid regular expression: ${compiled.reason}`,
          );
          return undefined;
        }
        // A replacement naming a group the regex lacks would fail on every document: refuse it now.
        const badReplacement = value === undefined ? undefined : checkReplacement(compiled.regex, value);
        if (badReplacement !== undefined) {
          collector.add(
            'value',
            'pattern',
            `A regex replace operator value is not a valid replacement: ${badReplacement}`,
          );
          return undefined;
        }
      }
      return value === undefined || regex === undefined ? undefined : { type, value, regex };
    }
    case 'MAPPING_OP': {
      if (!body.passed('mapping')) return undefined;
      const mapping = parseMapping(
        body.get('mapping') as Record<string, string> | null | undefined,
        collector,
      );
      return mapping === undefined ? undefined : { type, mapping };
    }
    case 'BASE_64_ENCODE_OP':
    case 'APPLICATION_TYPE_OP':
      return { type };
  }
}

/** A mapping (its type checked by the schema): null or missing means an empty mapping; sizes are bounded. */
function parseMapping(
  raw: Readonly<Record<string, string>> | null | undefined,
  collector: ValidationCollector,
): Record<string, string> | undefined {
  if (raw === undefined || raw === null) return {};
  const entries = Object.entries(raw);
  if (entries.length > MAX_MAPPING_ENTRIES) {
    collector.add(
      'mapping',
      'maxlength',
      `A mapping operator mapping must have no more than ${MAX_MAPPING_ENTRIES} entries`,
    );
    return undefined;
  }
  if (entries.some(([key, value]) => key.length > MAX_VALUE_LENGTH || value.length > MAX_VALUE_LENGTH)) {
    collector.add(
      'mapping',
      'maxlength',
      `A mapping operator entry must be no more than ${MAX_VALUE_LENGTH} characters`,
    );
    return undefined;
  }
  // fromEntries defines own properties, so a "__proto__" key stays an ordinary entry.
  return Object.fromEntries(entries);
}
