import type { Quad, Term } from '@rdfjs/types';
import sparqljs from 'sparqljs';
import type { InsertDeleteOperation, Pattern, Triple, Update } from 'sparqljs';
import { BadRequestError, CapabilityUnsupportedError } from '../shared/errors.js';
import type { RepositoryKind } from './repository-adapter.js';

/**
 * Every SPARQL Update the adapters send is generated here, from RDF/JS terms, with the sparqljs
 * Generator: literals are escaped by the generator, never pasted into text.
 */
const generator = new sparqljs.Generator();

function checkTerm(term: Term, position: 'subject' | 'predicate' | 'object'): void {
  switch (term.termType) {
    case 'NamedNode':
      if (term.value === '' || /[\s<>"{}|^`\\]/.test(term.value)) {
        throw new BadRequestError(`The ${position} <${term.value.slice(0, 100)}> is not a valid IRI`);
      }
      return;
    case 'BlankNode':
      if (position === 'predicate') throw new BadRequestError('A predicate must be an IRI');
      return;
    case 'Literal':
      if (position !== 'object') throw new BadRequestError(`A ${position} cannot be a literal`);
      return;
    case 'Variable':
    case 'DefaultGraph':
    case 'Quad':
      throw new BadRequestError(
        `A ${position} must be an IRI${position === 'predicate' ? '' : ', a blank node or a literal'}`,
      );
  }
}

function toTriple(q: Quad): Triple {
  if (q.graph.termType !== 'DefaultGraph')
    throw new BadRequestError('Statements in named graphs are not supported');
  checkTerm(q.subject, 'subject');
  checkTerm(q.predicate, 'predicate');
  checkTerm(q.object, 'object');
  return { subject: q.subject, predicate: q.predicate, object: q.object };
}

/**
 * `DELETE DATA { remove } ; INSERT DATA { add }` (either part left out when empty; '' when both are).
 * Statements to remove may not contain blank nodes (DELETE DATA cannot name one; removing "some blank
 * node" would remove the wrong statements).
 */
export function buildDataUpdate(remove: readonly Quad[], add: readonly Quad[]): string {
  const updates: InsertDeleteOperation[] = [];
  if (remove.length > 0) {
    for (const q of remove) {
      if (q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode') {
        throw new BadRequestError('Statements with blank nodes cannot be removed one by one');
      }
    }
    updates.push({ updateType: 'delete', delete: [{ type: 'bgp', triples: remove.map(toTriple) }] });
  }
  if (add.length > 0) {
    updates.push({ updateType: 'insert', insert: [{ type: 'bgp', triples: add.map(toTriple) }] });
  }
  if (updates.length === 0) return '';
  const update: Update = { type: 'update', prefixes: {}, updates };
  return generator.stringify(update);
}

export interface NormaliseOptions {
  /** The IRI `<>` and relative IRIs resolve to. */
  readonly base: string;
  /** Refuse anything but basic graph patterns in WHERE (generic LDP servers such as CSS). */
  readonly bgpOnly: boolean;
  readonly kind: RepositoryKind;
}

/**
 * Re-parses an already vetted SPARQL Update and generates it again with absolute IRIs (`<>` resolved to
 * `base`), so the text sent is always generator output. Only INSERT DATA, DELETE DATA, DELETE WHERE and
 * DELETE/INSERT … WHERE on the default graph pass; LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY, GRAPH,
 * WITH and USING are refused (BadRequestError). With `bgpOnly`, a WHERE clause with FILTER, OPTIONAL,
 * UNION, MINUS, BIND, VALUES, sub-queries or property paths is a CapabilityUnsupportedError.
 */
export function normaliseUpdate(text: string, options: NormaliseOptions): string {
  let parsed;
  try {
    parsed = new sparqljs.Parser({ baseIRI: options.base }).parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new BadRequestError(`The SPARQL Update cannot be parsed: ${message ?? ''}`.trim());
  }
  if (parsed.type !== 'update')
    throw new BadRequestError('Only a SPARQL Update can be run against a resource');
  for (const operation of parsed.updates) {
    if (!('updateType' in operation)) {
      throw new BadRequestError(`SPARQL Update ${operation.type.toUpperCase()} operations are not allowed`);
    }
    if (operation.graph !== undefined)
      throw new BadRequestError('SPARQL Update WITH and GRAPH are not allowed');
    const quadLists = [
      ...('insert' in operation ? operation.insert : []),
      ...('delete' in operation ? operation.delete : []),
    ];
    for (const quads of quadLists) {
      if (quads.type !== 'bgp') throw new BadRequestError('SPARQL Update GRAPH blocks are not allowed');
      for (const triple of quads.triples) {
        if ('type' in triple.predicate)
          throw new BadRequestError('Property paths are not allowed in INSERT or DELETE templates');
      }
    }
    if (operation.updateType === 'insertdelete') {
      if (operation.using !== undefined) throw new BadRequestError('SPARQL Update USING is not allowed');
      checkWhere(operation.where, options);
    }
  }
  const update: Update = { type: 'update', prefixes: {}, updates: parsed.updates };
  return generator.stringify(update);
}

function checkWhere(patterns: readonly Pattern[], options: NormaliseOptions): void {
  for (const pattern of patterns) {
    if (pattern.type === 'graph' || pattern.type === 'service') {
      throw new BadRequestError(`SPARQL Update ${pattern.type.toUpperCase()} patterns are not allowed`);
    }
    if (pattern.type === 'query') throw notBgp(options, 'sub-queries');
    if (pattern.type === 'bgp') {
      if (options.bgpOnly && pattern.triples.some((t) => 'type' in t.predicate))
        throw notBgp(options, 'property paths');
      continue;
    }
    if (options.bgpOnly) throw notBgp(options, pattern.type.toUpperCase());
    if ('patterns' in pattern) checkWhere(pattern.patterns, options);
  }
}

function notBgp(options: NormaliseOptions, what: string): CapabilityUnsupportedError {
  return new CapabilityUnsupportedError(
    `SPARQL Update WHERE clauses beyond basic graph patterns (${what})`,
    options.kind,
  );
}
