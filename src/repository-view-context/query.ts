import sparqljs from 'sparqljs';
import type { Schema } from '../schemas/schema.js';
import { ValidationFailedError } from '../shared/errors.js';
import {
  beyondUnicodeProblem,
  escapeBeyondUnicode,
  hasLoneSurrogate,
  LONE_SURROGATE_PROBLEM,
} from '../shared/unicode.js';
import { ValidationCollector } from '../shared/validation.js';

/** Operations a curator's SPARQL Update may use (DECISIONS.md §7). */
const ALLOWED = new Set(['insert', 'delete', 'insertdelete', 'deletewhere']);

function refuse(message: string): ValidationFailedError {
  const collector = new ValidationCollector();
  collector.add('query', 'pattern', message);
  return new ValidationFailedError(collector.results());
}

/**
 * Parses a SPARQL Update with `<>` resolving to the context, refuses everything but INSERT DATA,
 * DELETE DATA and DELETE/INSERT … WHERE on the default graph (no LOAD, CLEAR, DROP, CREATE, GRAPH, WITH,
 * USING, SERVICE), and answers the update re-generated from the parsed terms: the request text itself
 * never reaches the repository.
 */
export function vetUpdate(text: string, contextUri: string): string {
  if (text.trim() === '') throw refuse('The query is empty');
  if (text.length > 100_000) throw refuse('The query must be no more than 100000 characters');
  // sparqljs turns `\U00110000` into surrogates (some even into a valid pair) instead of refusing it.
  const beyond = escapeBeyondUnicode(text);
  if (beyond !== undefined) throw refuse(`The query is not valid Unicode: ${beyondUnicodeProblem(beyond)}`);
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser({ baseIRI: contextUri }).parse(text);
  } catch (error) {
    throw refuse(
      `The query is not a valid SPARQL Update: ${error instanceof Error ? error.message.split('\n')[0] : 'parse error'}`,
    );
  }
  if (parsed.type !== 'update') throw refuse('Only SPARQL Update is accepted here, not a query');
  for (const operation of parsed.updates) {
    if (!('updateType' in operation) || !ALLOWED.has(operation.updateType)) {
      throw refuse(
        `Only INSERT DATA, DELETE DATA and DELETE/INSERT … WHERE are allowed, not ${'type' in operation ? operation.type.toUpperCase() : 'that operation'}`,
      );
    }
    if ('graph' in operation && operation.graph !== undefined) throw refuse('WITH is not allowed');
    if ('using' in operation && operation.using !== undefined) throw refuse('USING is not allowed');
    const quads = [
      ...('insert' in operation ? operation.insert : []),
      ...('delete' in operation ? operation.delete : []),
    ];
    if (quads.some((q) => q.type === 'graph'))
      throw refuse('GRAPH is not allowed: updates apply to the resource itself');
    if (JSON.stringify('where' in operation ? operation.where : []).includes('"type":"service"'))
      throw refuse('SERVICE is not allowed');
  }
  // Full IRIs only: no BASE or PREFIX survives into what the repository receives.
  const update = new sparqljs.Generator().stringify({ ...parsed, prefixes: {}, base: undefined });
  // A lone surrogate (escaped, or sent raw in the JSON string) cannot be written as UTF-8 upstream.
  if (hasLoneSurrogate(update)) throw refuse(`The query is not valid Unicode: ${LONE_SURROGATE_PROBLEM}`);
  return update;
}

/** Query help (DECISIONS.md §7): a PREFIX line per schema of the view, a blank line, then a template. */
export function queryHelp(schemas: readonly Schema[]): string {
  const prefixes = schemas.map((schema) => `PREFIX ${schema.abbreviation}: <${schema.namespace}>\n`).join('');
  return `${prefixes}\nDELETE { }\nINSERT { }\nWHERE { }\n`;
}
