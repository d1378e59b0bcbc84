import type { Quad, Term } from '@rdfjs/types';
import N3 from 'n3';
import { isServerManaged } from '../linked-data/rdf/server-managed.js';
import { termText } from '../repository-view-context/triple-format.js';

/**
 * The triples of a metadata change as the ledger holds them (DECISIONS.md §14, issue 30): one N-Triples
 * line per triple, full IRIs (`<s> <p> <o> .`), each list sorted, never a server-managed triple. Lines
 * are compared as text, so one triple is always written the same way: a plain string literal without
 * its datatype, the escapes of triple-format.ts.
 */
export interface MetadataChange extends Readonly<Record<string, unknown>> {
  readonly removed: string[];
  readonly added: string[];
}

/** `<s> <p> <o> .` */
export function tripleLine(q: Quad): string {
  return `${termLine(q.subject)} ${termLine(q.predicate)} ${termLine(q.object)} .`;
}

function termLine(term: Term): string {
  return term.termType === 'NamedNode' ? `<${term.value}>` : termText(term);
}

/** The user triples of `quads` as sorted lines (server-managed ones left out, each line once). */
export function tripleLines(quads: Iterable<Quad>): string[] {
  const lines = new Set<string>();
  for (const q of quads) if (!isServerManaged(q.predicate.value, q.object)) lines.add(tripleLine(q));
  return [...lines].sort();
}

export function metadataChange(removed: Iterable<Quad>, added: Iterable<Quad>): MetadataChange {
  return { removed: tripleLines(removed), added: tripleLines(added) };
}

/** What changed between two readings of a resource: lines gone and lines new. */
export function changeBetween(before: Iterable<Quad>, after: Iterable<Quad>): MetadataChange {
  const was = new Set(tripleLines(before));
  const is = new Set(tripleLines(after));
  return {
    removed: [...was].filter((line) => !is.has(line)),
    added: [...is].filter((line) => !was.has(line)),
  };
}

/** The quad of one line, as the ledger wrote it (throws on anything else). */
export function quadOfLine(line: string): Quad {
  const [only, ...more] = new N3.Parser({ format: 'N-Triples' }).parse(line);
  if (only === undefined || more.length > 0)
    throw new Error(`Not one N-Triples statement: ${line.slice(0, 80)}`);
  return only;
}

/** A detail's `removed` and `added` lists, when it has both as lists of strings. */
export function changeOf(detail: Readonly<Record<string, unknown>>): MetadataChange | undefined {
  const { removed, added } = detail;
  const lines = (value: unknown): value is string[] =>
    Array.isArray(value) && value.every((item) => typeof item === 'string');
  return lines(removed) && lines(added) ? { removed, added } : undefined;
}
