import sparqljs from 'sparqljs';
import { RepositoryError } from '../http/errors.js';
import { isServerManaged } from './vocab.js';

const REFUSED_OPERATIONS: Readonly<Record<string, string>> = {
  load: 'LOAD',
  clear: 'CLEAR',
  drop: 'DROP',
  create: 'CREATE',
  add: 'ADD',
  move: 'MOVE',
  copy: 'COPY',
};

/**
 * Checks a SPARQL Update before it runs: it must parse, use only INSERT DATA / DELETE DATA /
 * DELETE-INSERT-WHERE / DELETE WHERE on the resource's own graph (no LOAD, CLEAR, DROP, CREATE, ADD,
 * MOVE, COPY, GRAPH, WITH, USING or SERVICE: 400), and not write server-managed statements (409).
 * Answers the parsed update.
 */
export function checkSparqlUpdate(text: string, baseIri: string): sparqljs.Update {
  const parsed = parseSparqlUpdate(text, baseIri);
  for (const operation of parsed.updates) {
    if ('type' in operation) {
      const name = REFUSED_OPERATIONS[operation.type] ?? operation.type.toUpperCase();
      throw RepositoryError.badRequest(`SPARQL Update ${name} is not allowed on a repository resource`, true);
    }
    if ('using' in operation && operation.using !== undefined) {
      throw RepositoryError.badRequest('SPARQL Update USING is not allowed on a repository resource', true);
    }
    if (operation.graph !== undefined) {
      throw RepositoryError.badRequest('SPARQL Update WITH is not allowed on a repository resource', true);
    }
    refuseDatasetPatterns(operation);
    const templates = [
      ...('insert' in operation ? operation.insert : []),
      ...('delete' in operation ? operation.delete : []),
    ];
    for (const block of templates) {
      for (const triple of block.triples) {
        const predicate = triple.predicate;
        if (!('termType' in predicate) || predicate.termType !== 'NamedNode') continue;
        if (isServerManaged(predicate.value, triple.object)) {
          throw RepositoryError.conflict(
            `Server-managed statements cannot be changed: <${predicate.value}>${
              triple.object.termType === 'NamedNode' ? ` <${triple.object.value}>` : ''
            }`,
          );
        }
      }
    }
  }
  return parsed;
}

/** GRAPH and SERVICE anywhere (templates, WHERE, FILTER EXISTS) address other graphs: refused. */
function refuseDatasetPatterns(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) refuseDatasetPatterns(item);
    return;
  }
  if (typeof node !== 'object' || node === null || 'termType' in node) return;
  const type = (node as { type?: unknown }).type;
  if (type === 'graph' || type === 'service') {
    throw RepositoryError.badRequest(
      `SPARQL Update ${type === 'graph' ? 'GRAPH' : 'SERVICE'} is not allowed on a repository resource`,
      true,
    );
  }
  for (const value of Object.values(node)) refuseDatasetPatterns(value);
}

/** Parses a PATCH body as a SPARQL Update; a query or a syntax error is a 400. */
export function parseSparqlUpdate(text: string, baseIri: string): sparqljs.Update {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser({ baseIRI: baseIri }).parse(text);
  } catch (error) {
    const message = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    throw RepositoryError.badRequest(`Malformed SPARQL Update: ${message.slice(0, 300)}`);
  }
  if (parsed.type !== 'update')
    throw RepositoryError.badRequest('The body must be a SPARQL Update, not a query');
  return parsed;
}
