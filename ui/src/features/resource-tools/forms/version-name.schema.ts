import { z } from 'zod';

/** The optional name of a new version (a label where the repository keeps labels). */
export const versionNameSchema = z.object({
  name: z
    .string()
    .trim()
    .max(200, 'Keep the name under 200 characters')
    .refine((name) => !/[/?#]/.test(name), 'A version name cannot contain /, ? or #'),
});

export type VersionNameValues = z.infer<typeof versionNameSchema>;
