import type { UpdatePolicy } from './update-vetter.js';

// What each caller allows, and how it words a refusal (its messages are part of its interface).

/**
 * PATCH on the embedded repository (`<>` is the resource): INSERT/DELETE DATA, DELETE WHERE and
 * DELETE/INSERT … WHERE on the resource's own graph: no GRAPH anywhere, no server-managed statements.
 */
export function repositoryPatchPolicy(base: string): UpdatePolicy {
  return {
    base,
    refuseEmpty: true,
    unicodeOnly: false, // planUpdate refuses such text once the preconditions hold (sparql/update-plan.ts)
    refuseGraphPatterns: true,
    subqueries: true,
    bgpOnly: false,
    refuseServerManaged: true,
    message: (reason, detail) => {
      switch (reason) {
        case 'empty':
          return 'The SPARQL Update is empty';
        case 'syntax':
          return `Malformed SPARQL Update: ${detail.slice(0, 300)}`;
        case 'notUpdate':
          return 'The body must be a SPARQL Update, not a query';
        case 'serverManaged':
          return `Server-managed statements cannot be changed: ${detail}`;
        case 'operation':
        case 'with':
        case 'using':
        case 'graphTemplate':
        case 'graphPattern':
        case 'service':
          return `SPARQL Update ${detail} is not allowed on a repository resource`;
        case 'tooLong':
        case 'notUnicode':
        case 'beyondBgp':
          return undefined; // not rules of this policy
      }
    },
  };
}

/**
 * What the adapters send upstream (`<>` is the target resource): the default graph only; with
 * `bgpOnly` (generic LDP servers such as CSS) nothing but basic graph patterns in WHERE. Sub-queries
 * are never sent.
 */
export function adapterUpdatePolicy(base: string, bgpOnly: boolean): UpdatePolicy {
  return {
    base,
    refuseEmpty: false,
    unicodeOnly: false,
    refuseGraphPatterns: true,
    subqueries: false,
    bgpOnly,
    refuseServerManaged: false,
    message: (reason, detail) => {
      switch (reason) {
        case 'syntax':
          return `The SPARQL Update cannot be parsed: ${detail}`.trim();
        case 'notUpdate':
          return 'Only a SPARQL Update can be run against a resource';
        case 'operation':
          return `SPARQL Update ${detail} operations are not allowed`;
        case 'with':
          return 'SPARQL Update WITH and GRAPH are not allowed';
        case 'using':
          return 'SPARQL Update USING is not allowed';
        case 'graphTemplate':
          return 'SPARQL Update GRAPH blocks are not allowed';
        case 'graphPattern':
        case 'service':
          return `SPARQL Update ${detail} patterns are not allowed`;
        case 'beyondBgp':
          return `SPARQL Update WHERE clauses beyond basic graph patterns (${detail})`;
        case 'empty':
        case 'tooLong':
        case 'notUnicode':
        case 'serverManaged':
          return undefined; // not rules of this policy
      }
    },
  };
}

/** The longest update the context API accepts (DECISIONS.md §7). */
export const CONTEXT_UPDATE_MAX_LENGTH = 100_000;

/**
 * A curator's update through the context API (`<>` is the context), bounded in length and Unicode.
 * GRAPH in WHERE and sub-queries pass here: the view's adapter refuses them with its own errors.
 */
export function contextUpdatePolicy(base: string): UpdatePolicy {
  return {
    base,
    refuseEmpty: true,
    maxLength: CONTEXT_UPDATE_MAX_LENGTH,
    unicodeOnly: true,
    refuseGraphPatterns: false,
    subqueries: true,
    bgpOnly: false,
    refuseServerManaged: false,
    message: (reason, detail) => {
      switch (reason) {
        case 'empty':
          return 'The query is empty';
        case 'tooLong':
          return `The query must be no more than ${detail} characters`;
        case 'notUnicode':
          return `The query is not valid Unicode: ${detail}`;
        case 'syntax':
          return `The query is not a valid SPARQL Update: ${detail}`;
        case 'notUpdate':
          return 'Only SPARQL Update is accepted here, not a query';
        case 'operation':
          return `Only INSERT DATA, DELETE DATA and DELETE/INSERT … WHERE are allowed, not ${detail}`;
        case 'graphTemplate':
          return 'GRAPH is not allowed: updates apply to the resource itself';
        case 'with':
        case 'using':
        case 'service':
          return `${detail} is not allowed`;
        case 'graphPattern':
        case 'beyondBgp':
        case 'serverManaged':
          return undefined; // not rules of this policy
      }
    },
  };
}
