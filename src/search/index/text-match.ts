import { InvalidQueryError, type QueryTerm } from '../search.js';
import { tokens } from './fold.js';

/**
 * A word or phrase as both engines match it: folded tokens in order (one token = a word), the last one a
 * prefix for `word*`. A word with punctuation inside (`o'brien`, `1920-05`) folds to several tokens and is
 * matched as the phrase of them, as both engines do for text they index.
 */
export interface TextMatch {
  readonly tokens: readonly string[];
  readonly prefix: boolean;
}

export type TextTerm = Extract<QueryTerm, { kind: 'WORD' } | { kind: 'PHRASE' }>;

export function textMatchOf(term: TextTerm): TextMatch {
  const words = tokens(term.text);
  if (words.length === 0)
    throw new InvalidQueryError(`"${term.text}" has no letters or digits to search for`);
  return { tokens: words, prefix: term.kind === 'WORD' && term.prefix };
}

/**
 * An FTS5 MATCH string for these matches joined by AND. Every token is double-quoted (a quoted string is
 * a phrase of its tokens; `"…" *` a phrase whose last token is a prefix), so no word can be read as an
 * FTS5 operator or column filter. Tokens are folded letters and digits only; quotes are doubled anyway.
 */
export function fts5Query(matches: readonly TextMatch[]): string {
  return matches
    .map((match) => `"${match.tokens.join(' ').replace(/"/g, '""')}"${match.prefix ? ' *' : ''}`)
    .join(' AND ');
}
