import { foldWithOffsets } from './fold.js';

/** What the engines are asked to put around a matched word (control characters no folded text holds). */
export const OPEN = '\u0002';
export const CLOSE = '\u0003';

/** How long a snippet may get (DECISIONS.md §12: ~200 characters). */
const MAX_LENGTH = 220;
const MARK = '**';
const COMBINING = /^\p{M}$/u;

/**
 * A hit's snippet (DECISIONS.md §12): the engine's fragment of the folded body (FTS5 `snippet()`,
 * PostgreSQL `ts_headline`, matched words between OPEN and CLOSE) turned back into the body as written,
 * accents and case included, matched words wrapped in `**`, whitespace collapsed, `…` where text was cut.
 * Folding keeps every character's origin, so the fragment is found in the folded body and mapped back;
 * should it not be found (it always is), the folded fragment is shown rather than nothing.
 */
export function snippetOf(body: string, fragment: string): string {
  const { plain, marks } = parseFragment(fragment);
  const folded = foldWithOffsets(body);
  const at = plain === '' ? -1 : folded.text.indexOf(plain);
  if (at < 0) return tidy(fragment.replaceAll(OPEN, MARK).replaceAll(CLOSE, MARK), false, false);
  // Where folded unit `i` starts and ends in the body (always inside the arrays: `plain` was found).
  const startOf = (i: number): number => folded.starts[i] ?? 0;
  // A combining mark written apart (NFD text) folds to nothing: it still belongs to the letter before it.
  const endOf = (i: number): number => {
    let end = folded.ends[i] ?? body.length;
    while (end < body.length && COMBINING.test(body.charAt(end))) end++;
    return end;
  };
  const start = startOf(at);
  const end = endOf(at + plain.length - 1);
  const ranges = marks.map(([from, to]) => [startOf(at + from), endOf(at + to - 1)] as const);
  let out = '';
  let cursor = start;
  for (const [from, to] of ranges) {
    if (from < cursor) continue;
    out += body.slice(cursor, from) + MARK + body.slice(from, to) + MARK;
    cursor = to;
  }
  out += body.slice(cursor, end);
  return tidy(out, body.slice(0, start).trim() !== '', body.slice(end).trim() !== '');
}

/** The fragment without its markers, and where the marked words are in it. */
function parseFragment(fragment: string): { plain: string; marks: [number, number][] } {
  let plain = '';
  const marks: [number, number][] = [];
  let open = -1;
  for (const char of fragment) {
    if (char === OPEN) open = plain.length;
    else if (char === CLOSE) {
      if (open >= 0 && plain.length > open) marks.push([open, plain.length]);
      open = -1;
    } else plain += char;
  }
  // Engines mark whole tokens; the spaces around them belong to no mark, so the text found is the same.
  const lead = plain.length - plain.trimStart().length;
  const trimmed = plain.trim();
  return {
    plain: trimmed,
    marks: marks
      .map(([from, to]): [number, number] => [from - lead, to - lead])
      .filter(([from, to]) => from >= 0 && to <= trimmed.length && to > from),
  };
}

/** Collapses whitespace, cuts to the maximum length between words, and marks what was left out. */
function tidy(text: string, before: boolean, after: boolean): string {
  let out = text.replace(/\s+/g, ' ').trim();
  let cut = after;
  if (out.length > MAX_LENGTH) {
    const space = out.lastIndexOf(' ', MAX_LENGTH);
    out = out.slice(0, space > MAX_LENGTH / 2 ? space : MAX_LENGTH);
    // A cut inside a marked word would leave one `**` open.
    if ((out.split(MARK).length - 1) % 2 === 1) out += MARK;
    cut = true;
  }
  return `${before ? '… ' : ''}${out}${cut ? ' …' : ''}`;
}
