import { contextUpdatePolicy } from '../linked-data/sparql/update-policies.js';
import { SparqlUpdateRefusal } from '../linked-data/sparql/update-refusal.js';
import { normaliseSparqlUpdate } from '../linked-data/sparql/update-vetter.js';
import type { Schema } from '../schemas/schema.js';
import { ValidationFailedError } from '../shared/errors.js';
import { ValidationCollector } from '../shared/validation.js';

/**
 * A curator's SPARQL Update, vetted under the context's policy (`<>` is the context; DECISIONS.md §7)
 * and answered re-generated from the parsed terms: the request text itself never reaches the
 * repository. A refusal is an INVALID answer on `query`.
 */
export function vetContextUpdate(text: string, contextUri: string): string {
  try {
    return normaliseSparqlUpdate(text, contextUpdatePolicy(contextUri));
  } catch (error) {
    if (!(error instanceof SparqlUpdateRefusal)) throw error;
    const collector = new ValidationCollector();
    collector.add('query', 'pattern', error.message);
    throw new ValidationFailedError(collector.results());
  }
}

/** Query help (DECISIONS.md §7): a PREFIX line per schema of the view, a blank line, then a template. */
export function queryHelp(schemas: readonly Schema[]): string {
  const prefixes = schemas.map((schema) => `PREFIX ${schema.abbreviation}: <${schema.namespace}>\n`).join('');
  return `${prefixes}\nDELETE { }\nINSERT { }\nWHERE { }\n`;
}
