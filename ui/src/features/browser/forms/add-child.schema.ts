import { z } from 'zod';

/** `Add child`: the new container's title (dcterms:title). */
export const addChildSchema = z.object({
  title: z.string().trim().min(1, 'Enter a title').max(500, 'At most 500 characters'),
});

export type AddChildValues = z.infer<typeof addChildSchema>;
