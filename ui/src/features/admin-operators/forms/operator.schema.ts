import { z } from 'zod';

const TYPES = [
  'APPLICATION_TYPE_OP',
  'BASE_64_ENCODE_OP',
  'CONSTANT_OP',
  'DATE_NORMALIZATION_OP',
  'DEFAULT_OP',
  'MAPPING_OP',
  'REGEX_REPLACE_OP',
  'TEMPLATE_OP',
] as const;

/** `from => to`, one pair a line; blank lines are skipped. */
export function parseMapping(text: string): Record<string, string> | null {
  const mapping: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const at = line.indexOf('=>');
    if (at < 0) return null;
    mapping[line.slice(0, at).trim()] = line.slice(at + 2).trim();
  }
  return mapping;
}

export function formatMapping(mapping: Readonly<Record<string, string>> | null | undefined): string {
  return Object.entries(mapping ?? {})
    .map(([from, to]) => `${from} => ${to}`)
    .join('\n');
}

/**
 * Whether a field is a bare name (`title`): such an operator transforms documents posted to
 * `/operators/apply` but matches nothing in a curation job, whose fields are prefixed names (`dcterms:title`)
 * or IRIs — and the service refuses it in a job. A prefixed name and an IRI both hold a colon.
 */
export function isBareField(field: string): boolean {
  const trimmed = field.trim();
  return trimmed !== '' && !trimmed.includes(':');
}

/**
 * An operator's form: presence here, every limit (lengths, a regex that compiles, a known date pattern)
 * from the service, per field. `value` may be empty (a regex replacement may be).
 */
export const operatorFormSchema = z.object({
  type: z.enum(TYPES, { error: 'Choose a type' }),
  name: z.string().trim().min(1, 'Enter a name'),
  field: z.string().trim().min(1, 'Enter the field it sets'),
  value: z.string(),
  regex: z.string(),
  mapping: z.string().refine((text) => parseMapping(text) !== null, 'Write one "from => to" pair a line'),
});

export type OperatorFormValues = z.infer<typeof operatorFormSchema>;

/** The try-it panel: at least one operator and a JSON object of field → value or values. */
export const tryItSchema = z.object({
  operators: z.array(z.string()).min(1, 'Pick at least one operator'),
  document: z.string().refine((text) => parseDocument(text) !== null, {
    message: 'Enter a JSON object of field names to a text or a list of texts',
  }),
});

export type TryItValues = z.infer<typeof tryItSchema>;

export function parseDocument(text: string): Record<string, string[] | string> | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  for (const entry of Object.values(value)) {
    const ok =
      typeof entry === 'string' || (Array.isArray(entry) && entry.every((item) => typeof item === 'string'));
    if (!ok) return null;
  }
  return value as Record<string, string[] | string>;
}
