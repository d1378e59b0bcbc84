import { performance } from 'node:perf_hooks';
import { compileRegex } from '../../operators/engine/regex.js';
import { InvalidQueryError, type RegexBounds } from '../search.js';

/** How many values are matched between two looks at the clock. */
const CLOCK_EVERY = 256;

/** One value of a candidate document. */
export interface CandidateValue {
  readonly id: number;
  readonly value: string;
}

/** Compiles a REGEX term's pattern with RE2 (linear-time matching, no catastrophic backtracking). */
export function compileTermRegex(pattern: string): { test(value: string): boolean } {
  const compiled = compileRegex(pattern);
  if (!compiled.ok)
    throw new InvalidQueryError(`the regular expression /${pattern}/ cannot be run: ${compiled.reason}`);
  return compiled.regex;
}

/**
 * The documents with a value the regular expression matches, within the time bound (DECISIONS.md §12:
 * "time- and row-bounded"). The row bound is the caller's (it fetches at most that many values).
 * `started` is when matching began for this query (several REGEX terms share one budget).
 */
export function matchingDocuments(
  pattern: string,
  values: readonly CandidateValue[],
  bounds: RegexBounds,
  started: number,
): Set<number> {
  const regex = compileTermRegex(pattern);
  const found = new Set<number>();
  // Values repeat (dates, subjects): each distinct value is matched once.
  const answers = new Map<string, boolean>();
  let examined = 0;
  for (const { id, value } of values) {
    if (examined++ % CLOCK_EVERY === 0 && performance.now() - started > bounds.maxMillis)
      throw tooSlow(pattern, bounds);
    if (found.has(id)) continue;
    let matches = answers.get(value);
    if (matches === undefined) {
      matches = regex.test(value);
      answers.set(value, matches);
    }
    if (matches) found.add(id);
  }
  return found;
}

function tooSlow(pattern: string, bounds: RegexBounds): InvalidQueryError {
  return new InvalidQueryError(
    `the regular expression /${pattern}/ ran past its ${bounds.maxMillis} ms limit: narrow the query ` +
      `with more terms or a container`,
  );
}

export function tooManyValues(pattern: string, bounds: RegexBounds): InvalidQueryError {
  return new InvalidQueryError(
    `the regular expression /${pattern}/ would examine more than ${bounds.maxValues} values: narrow the ` +
      `query with more terms or a container`,
  );
}
