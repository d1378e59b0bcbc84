import { checkString, type StringRule, type ValidationCollector } from '../shared/validation.js';

/** An internal metadata field (interface §2, sage-operators.md §2): the institution's canonical keys. */
export interface InternalMetadata {
  readonly id: number;
  readonly gloss: string;
  readonly field: string;
  readonly required: boolean;
}

export type InternalMetadataInput = Omit<InternalMetadata, 'id'>;

export const ENTITY = 'InternalMetadata';

const RULES: readonly StringRule[] = [
  {
    property: 'gloss',
    minLength: 2,
    maxLength: 50,
    messages: {
      required: 'A internal metadatum requires a gloss',
      minlength: 'A internal metadatum gloss must be at least 2 characters',
      maxlength: 'A internal metadatum gloss must be no more than 50 characters',
      type: 'A internal metadatum gloss must be a string',
    },
  },
  {
    property: 'field',
    minLength: 2,
    maxLength: 50,
    messages: {
      required: 'A internal metadatum requires a field',
      minlength: 'A internal metadatum field must be at least 2 characters',
      maxlength: 'A internal metadatum field must be no more than 50 characters',
      type: 'A internal metadatum field must be a string',
    },
  },
];

/**
 * Input rules of sage-operators.md §2. `required` defaults to false when null or missing (as the
 * original's primitive boolean did); any other non-boolean is a `type` failure, never coerced.
 */
export function parseInternalMetadata(
  body: Readonly<Record<string, unknown>>,
  collector: ValidationCollector,
): InternalMetadataInput | undefined {
  const [gloss, field] = RULES.map((rule) => checkString(body, rule, collector));
  const required = body.required ?? false;
  if (typeof required !== 'boolean') {
    collector.add('required', 'type', 'A internal metadatum required flag must be true or false');
    return undefined;
  }
  if (gloss === undefined || field === undefined) return undefined;
  return { gloss, field, required };
}
