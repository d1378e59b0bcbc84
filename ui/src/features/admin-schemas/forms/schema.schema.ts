import { z } from 'zod';

/**
 * A schema's own fields; the picked properties are IRIs of the found (or already saved) ones. Presence
 * and an http(s) namespace are checked here; the service's limits and uniqueness come back per field.
 */
export const schemaFormSchema = z.object({
  name: z.string().trim().min(1, 'Enter a name'),
  abbreviation: z.string().trim().min(1, 'Enter an abbreviation'),
  namespace: z
    .string()
    .trim()
    .min(1, 'Enter the namespace IRI')
    .regex(/^https?:\/\/\S+$/, 'The namespace must be an http or https IRI'),
  properties: z.array(z.string()),
});

export type SchemaFormValues = z.infer<typeof schemaFormSchema>;
