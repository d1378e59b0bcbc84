import { z } from 'zod';
import { expandProperty, type Prefix } from '../terms';

/** `Add metadata`: a property (prefixed name or full IRI, expanded through the view's schemas) and a value. */
export const addMetadataSchema = (prefixes: readonly Prefix[]) =>
  z.object({
    property: z
      .string()
      .trim()
      .min(1, 'Choose or type a property')
      .refine((text) => text === '' || expandProperty(text, prefixes) !== undefined, {
        message: 'Use a prefixed name of the view’s schemas (dcterms:title) or a full http(s) IRI',
      }),
    value: z.string().trim().min(1, 'Enter a value'),
  });

export type AddMetadataValues = z.infer<ReturnType<typeof addMetadataSchema>>;

/** An inline edit of one value. */
export const editValueSchema = z.object({ value: z.string().trim().min(1, 'Enter a value') });

export type EditValueValues = z.infer<typeof editValueSchema>;
