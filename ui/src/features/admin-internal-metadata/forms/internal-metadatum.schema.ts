import { z } from 'zod';

/** The form asks only for presence; the service's own limits come back as field messages. */
export const internalMetadatumSchema = z.object({
  field: z.string().trim().min(1, 'Enter the field key'),
  gloss: z.string().trim().min(1, 'Enter the label'),
  required: z.boolean(),
});

export type InternalMetadatumValues = z.infer<typeof internalMetadatumSchema>;
