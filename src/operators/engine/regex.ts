import { RE2JS } from 're2js';
import { memoize } from '../../shared/memoize.js';

/** Distinct regexes kept compiled; operators are few, this bounds what arbitrary input can fill. */
const REGEX_CACHE_SIZE = 256;

/** Outcome of {@link compileRegex}: the compiled pattern, or why it cannot be run. */
export type CompiledRegex = { ok: true; regex: RE2JS } | { ok: false; reason: string };

/**
 * Compiles an operator regex with re2js, whose automaton matches in linear time, so no pattern (`(a+)+$`
 * included) can backtrack catastrophically. ECMAScript spellings (`(?<name>…)`, `\u{…}`, `\/`) are translated
 * first. Features RE2 cannot run in linear time (lookahead, backreferences) are refused with a reason; the
 * save-time validators call this too, so a stored regex is always one the engine can run.
 *
 * Memoized per source text (compiling costs far more than matching a short value): the same source gives
 * the same result object. A compiled RE2JS is immutable (every match makes its own matcher), so sharing it
 * is safe.
 */
export const compileRegex = memoize((source: string): CompiledRegex => {
  try {
    return { ok: true, regex: RE2JS.compile(RE2JS.translateRegExp(source)) };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : 'invalid regular expression' };
  }
}, REGEX_CACHE_SIZE);

const DIGIT = /^[0-9]$/;

/**
 * Checks a replacement string against the compiled regex, returning a message for the first bad group
 * reference or `undefined` when it is fine. Syntax is ECMAScript's `String.prototype.replace`: `$1`…`$99`,
 * `$<name>`, `$&`, `` $` ``, `$'`, and `$$` for a literal `$`. Where ECMAScript silently keeps an unknown
 * reference as text (`$0`, `$3` with two groups, an unknown `$<name>`), this is an error instead, like Java's
 * "No group 3", so a mistyped replacement fails loudly. A `$` not followed by a reference stays literal.
 */
export function checkReplacement(regex: RE2JS, replacement: string): string | undefined {
  const groups = regex.groupCount();
  const names = regex.namedGroups();
  const hasNames = Object.keys(names).length > 0;
  for (let i = 0; i < replacement.length; i++) {
    if (replacement[i] !== '$') continue;
    const next = replacement[i + 1] ?? '';
    if (next === '$') {
      i++;
    } else if (DIGIT.test(next)) {
      const one = Number(next);
      const two = DIGIT.test(replacement[i + 2] ?? '') ? Number(next + (replacement[i + 2] ?? '')) : 0;
      if (two >= 1 && two <= groups) i += 2;
      else if (one >= 1 && one <= groups) i += 1;
      else return `No group ${next} in replacement: the regex has ${groups} group(s); use $& for the match`;
    } else if (next === '<' && hasNames) {
      const close = replacement.indexOf('>', i + 2);
      if (close < 0) continue;
      const name = replacement.slice(i + 2, close);
      if (!Object.hasOwn(names, name)) return `No group named <${name}> in replacement`;
      i = close;
    }
  }
  return undefined;
}
