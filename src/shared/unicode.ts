/**
 * Text that cannot be a Unicode string: a code point escape beyond U+10FFFF (`\UFFFFFFFF` made
 * String.fromCodePoint throw a RangeError, a 500) or a UTF-16 surrogate without its partner (from an
 * escape like `\uD800`, or a JSON `"\ud800"`), which no UTF-8 encoder can write and a repository would
 * store as garbage or refuse.
 */
export const MAX_CODE_POINT = 0x10ffff;

/** A high surrogate not followed by a low one, or a low one not preceded by a high one (code units). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}

/** `\UXXXXXXXX` preceded by an even number of backslashes (so a real escape, not an escaped `\`). */
const LONG_ESCAPE = /(?<!\\)(?:\\\\)*\\U([0-9A-Fa-f]{8})/g;

/** The first `\UXXXXXXXX` escape of `text` naming a code point beyond U+10FFFF, as written. */
export function escapeBeyondUnicode(text: string): string | undefined {
  for (const match of text.matchAll(LONG_ESCAPE)) {
    const hex = match[1] ?? '';
    if (parseInt(hex, 16) > MAX_CODE_POINT) return `\\U${hex}`;
  }
  return undefined;
}

export const LONE_SURROGATE_PROBLEM =
  'it contains a lone surrogate (U+D800–U+DFFF must come in pairs), which is not a Unicode character';

export function beyondUnicodeProblem(escape: string): string {
  return `the escape ${escape} is beyond the last Unicode code point U+10FFFF`;
}

/**
 * Why `text` is not well-formed Unicode once its escapes are decoded, worded for the person who sent
 * it; undefined when it is.
 */
export function unicodeProblem(text: string): string | undefined {
  const beyond = escapeBeyondUnicode(text);
  if (beyond !== undefined) return beyondUnicodeProblem(beyond);
  return hasLoneSurrogate(text) ? LONE_SURROGATE_PROBLEM : undefined;
}
