import type { Term } from '@rdfjs/types';
import { literal, namedNode } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';

/** A small seeded generator (mulberry32): the same seed gives the same cases on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Pieces a sheet's grammar or a spreadsheet program could trip on, and scripts beyond Latin. */
const PIECES = [
  'Letters',
  'a',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  ',',
  ';',
  '"',
  '""',
  "'",
  '\\',
  '\\"',
  '|',
  '||',
  '|||',
  '<',
  '>',
  '<http://x.example/a>',
  '^^',
  '^^xsd:int',
  '=',
  '+',
  '-',
  '@',
  '=SUM(A1:A2)',
  '[en]',
  'Ἐπιστολαί',
  'رسائل',
  '書簡集',
  '한국어',
  '📜✉️',
  '\u00a0',
  '\u3000',
  'é',
  'e\u0301',
  '\u200b',
];

const DATATYPES = [
  `${NS.xsd}integer`,
  `${NS.xsd}date`,
  `${NS.xsd}gYear`,
  `${NS.xsd}boolean`,
  `${NS.rdf}HTML`,
  `${NS.dcterms}W3CDTF`,
  'http://datatypes.example/no-prefix#kind',
  'http://datatypes.example/path/kind',
];

const IRIS = [
  'http://repo.example/rest/a',
  'https://example.org/id/42?x=1#frag',
  'urn:isbn:0451450523',
  'http://example.org/résumé',
  'http://example.org/書簡',
  'http://example.org/a[1]',
];

/** A text of 0–5 pieces: empty, blank, edge characters at either end, long runs of separators. */
export function randomText(random: () => number): string {
  const n = Math.floor(random() * 6);
  let text = '';
  for (let i = 0; i < n; i++) text += PIECES[Math.floor(random() * PIECES.length)]!;
  return text;
}

/**
 * 0–4 terms a column could hold: with `language`, texts in that language; without, a mix of plain literals,
 * typed literals and IRIs.
 */
export function randomCellTerms(random: () => number, language: string | null): Term[] {
  const n = Math.floor(random() * 5);
  const terms: Term[] = [];
  for (let i = 0; i < n; i++) {
    const text = randomText(random);
    if (language !== null) {
      terms.push(literal(text, language));
      continue;
    }
    const kind = random();
    if (kind < 0.4) terms.push(literal(text));
    else if (kind < 0.7)
      terms.push(literal(text, namedNode(DATATYPES[Math.floor(random() * DATATYPES.length)]!)));
    else terms.push(namedNode(IRIS[Math.floor(random() * IRIS.length)]!));
  }
  return terms;
}
