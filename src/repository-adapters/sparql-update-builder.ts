import type { Quad, Term } from '@rdfjs/types';
import sparqljs from 'sparqljs';
import type { InsertDeleteOperation, Triple, Update } from 'sparqljs';
import { adapterUpdatePolicy } from '../linked-data/sparql/update-policies.js';
import { SparqlUpdateRefusal } from '../linked-data/sparql/update-refusal.js';
import { normaliseSparqlUpdate } from '../linked-data/sparql/update-vetter.js';
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

/**
 * The update an adapter sends for `text`: vetted under the adapters' policy (linked-data/sparql/) and
 * generated again with absolute IRIs (`<>` resolved to `base`). A refusal is a BadRequestError; a WHERE
 * clause beyond what the repository runs (`bgpOnly` for generic LDP servers, sub-queries for all) a
 * CapabilityUnsupportedError naming the kind.
 */
export function vetAdapterUpdate(text: string, base: string, bgpOnly: boolean, kind: RepositoryKind): string {
  try {
    return normaliseSparqlUpdate(text, adapterUpdatePolicy(base, bgpOnly));
  } catch (error) {
    if (!(error instanceof SparqlUpdateRefusal)) throw error;
    if (error.reason === 'beyondBgp') throw new CapabilityUnsupportedError(error.message, kind);
    throw new BadRequestError(error.message);
  }
}
