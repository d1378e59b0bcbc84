import sparqljs from 'sparqljs';
import {
  beyondUnicodeProblem,
  escapeBeyondUnicode,
  hasLoneSurrogate,
  LONE_SURROGATE_PROBLEM,
} from '../../shared/unicode.js';
import { RepositoryRefusal } from '../refusal.js';
import type { UpdateStep } from './update-worker.js';

export interface UpdatePlan {
  readonly steps: readonly UpdateStep[];
  /** The variable the counting queries bind (chosen so that it is not one of the update's own). */
  readonly countVariable: string;
}

/**
 * Splits a SPARQL Update, as vetSparqlUpdate (linked-data/sparql/) vetted and parsed it, into its
 * operations, each re-generated from the parsed terms with full IRIs, and gives each operation with a
 * WHERE a query that counts its solutions, stopping at `maxSolutions + 1`. The worker runs them in
 * order, so each count sees the graph the operations before it left, exactly as the whole update would.
 */
export function planUpdate(text: string, parsed: sparqljs.Update, maxSolutions: number): UpdatePlan {
  // sparqljs turns such escapes into surrogates instead of refusing them; the text itself never runs.
  const beyond = escapeBeyondUnicode(text);
  if (beyond !== undefined)
    throw new RepositoryRefusal(
      'invalid',
      `The SPARQL Update is not valid Unicode: ${beyondUnicodeProblem(beyond)}`,
    );
  let countVariable = 'solutions';
  while (text.includes(countVariable)) countVariable += '_';
  const generator = new sparqljs.Generator();
  const steps = parsed.updates.map((operation): UpdateStep => {
    const update = generator.stringify({ type: 'update', prefixes: {}, updates: [operation] });
    if (hasLoneSurrogate(update))
      throw new RepositoryRefusal(
        'invalid',
        `The SPARQL Update is not valid Unicode: ${LONE_SURROGATE_PROBLEM}`,
      );
    const where = whereOf(operation);
    if (where === undefined) return { update, count: null };
    const select = generator.stringify({
      type: 'query',
      queryType: 'SELECT',
      variables: [new sparqljs.Wildcard()],
      where,
      limit: maxSolutions + 1,
      prefixes: {},
    });
    return { update, count: `SELECT (COUNT(*) AS ?${countVariable}) WHERE { ${select} }` };
  });
  return { steps, countVariable };
}

/** The pattern an operation evaluates: its WHERE, or for DELETE WHERE its template; none for DATA. */
function whereOf(operation: sparqljs.UpdateOperation): sparqljs.Pattern[] | undefined {
  if (!('updateType' in operation)) return undefined;
  switch (operation.updateType) {
    case 'insertdelete':
      return operation.where;
    case 'deletewhere':
      return operation.delete.filter((quads): quads is sparqljs.BgpPattern => quads.type === 'bgp');
    case 'insert':
    case 'delete':
      return undefined;
  }
}
