/**
 * Folding: what text becomes before it reaches either search engine, and what query words become before
 * they are matched. Letters and digits are decomposed (NFD), stripped of combining marks and lower-cased;
 * every other character becomes a space. So both engines see only words separated by spaces: SQLite's
 * unicode61 tokenizer and PostgreSQL's parser cut the same tokens (PostgreSQL would otherwise keep
 * `a@b.org` or `2026-01-01` whole), and both are accent- and case-insensitive without `unaccent`.
 * Folding goes code point by code point, so every folded character knows where it came from (snippets
 * are cut from the text as written).
 */

const ASCII = /^\p{ASCII}*$/u;
const NOT_ASCII_WORD = /[^a-z0-9]/g;
const MARK = /^\p{M}$/u;
const MARKS = /\p{M}/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;

/** What one non-ASCII code point folds to (memoized: texts repeat few distinct characters). */
const pieces = new Map<string, string>();
const PIECE_CACHE_SIZE = 4096;

function foldCodePoint(char: string): string {
  const known = pieces.get(char);
  if (known !== undefined) return known;
  let piece: string;
  if (MARK.test(char)) {
    // A combining mark written on its own (text in NFD): part of the word it follows.
    piece = '';
  } else {
    const letters = Array.from(char.normalize('NFD').replace(MARKS, '').toLowerCase()).filter((c) =>
      WORD_CHAR.test(c),
    );
    // Lower case is one letter everywhere else; the final sigma is the same letter as σ.
    piece = letters.length === 0 ? ' ' : letters.join('').replace(/ς/g, 'σ');
  }
  if (pieces.size < PIECE_CACHE_SIZE) pieces.set(char, piece);
  return piece;
}

/** The folded text (for the engines' index and for query words). */
export function fold(text: string): string {
  if (ASCII.test(text)) return text.toLowerCase().replace(NOT_ASCII_WORD, ' ');
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (code < 0x80) {
      const lower = code >= 65 && code <= 90 ? String.fromCharCode(code + 32) : char;
      out += (code >= 48 && code <= 57) || (lower >= 'a' && lower <= 'z') ? lower : ' ';
    } else {
      out += foldCodePoint(char);
    }
  }
  return out;
}

/** Folded text with, for each of its UTF-16 units, the range of the original it came from. */
export interface FoldedText {
  readonly text: string;
  /** `starts[i]`, `ends[i]`: the original's units that folded unit `i` came from. */
  readonly starts: Int32Array;
  readonly ends: Int32Array;
}

export function foldWithOffsets(original: string): FoldedText {
  const starts: number[] = [];
  const ends: number[] = [];
  let text = '';
  let at = 0;
  for (const char of original) {
    const piece = fold(char);
    for (let units = piece.length; units > 0; units--) {
      starts.push(at);
      ends.push(at + char.length);
    }
    text += piece;
    at += char.length;
  }
  return { text, starts: Int32Array.from(starts), ends: Int32Array.from(ends) };
}

/** The words of a query word or phrase, folded; empty when it has no letters or digits. */
export function tokens(text: string): string[] {
  return fold(text)
    .split(' ')
    .filter((token) => token !== '');
}

/** Code points of a sort key: enough to order by, short enough for any index entry. */
const NAME_KEY_LENGTH = 100;

/** What `sort=name` orders by: the name folded for accents and case (punctuation kept), cut short. */
export function nameKey(name: string): string {
  const folded = name.normalize('NFD').replace(MARKS, '').toLowerCase();
  const points = Array.from(folded);
  return points.length <= NAME_KEY_LENGTH ? folded : points.slice(0, NAME_KEY_LENGTH).join('');
}
