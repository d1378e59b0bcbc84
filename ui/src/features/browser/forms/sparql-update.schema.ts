import { z } from 'zod';

/** The SPARQL Update box (the service parses and vets it; this only refuses an empty one). */
export const sparqlUpdateSchema = z.object({
  query: z.string().refine((text) => text.trim() !== '', 'Enter a SPARQL Update'),
});

export type SparqlUpdateValues = z.infer<typeof sparqlUpdateSchema>;
