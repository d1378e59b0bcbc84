import type { Quad } from '@rdfjs/types';
import N3 from 'n3';
import { isServerManaged } from '../linked-data/rdf/server-managed.js';
import type { Schema } from '../schemas/schema.js';

/**
 * A resource's metadata as the bag's Turtle (DECISIONS.md §15): its user statements only (what a curator
 * wrote, not the repository's containment, digests, sizes or timestamps: linked-data/rdf/server-managed.ts,
 * the rule the repository itself refuses client writes by), with the view's schemas as prefixes.
 */
export function resourceTurtle(quads: readonly Quad[], schemas: readonly Schema[]): string {
  const prefixes: Record<string, string> = {};
  for (const schema of schemas) prefixes[schema.abbreviation] = schema.namespace;
  const writer = new N3.Writer({ format: 'Turtle', prefixes });
  for (const quad of quads)
    if (!isServerManaged(quad.predicate.value, quad.object))
      writer.addQuad(N3.DataFactory.quad(quad.subject, quad.predicate, quad.object));
  let out = '';
  writer.end((error: unknown, result: string) => {
    if (error instanceof Error) throw error;
    out = result;
  });
  return out;
}

/** The statements of `quads` the bag keeps (resourceTurtle's rule), for comparing with what a bag holds. */
export function userQuads(quads: readonly Quad[]): Quad[] {
  return quads.filter((quad) => !isServerManaged(quad.predicate.value, quad.object));
}
