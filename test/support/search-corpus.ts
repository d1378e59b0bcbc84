import type { QueryTerm, SearchDocument, SearchField } from '../../src/search/search.js';

/**
 * A generated corpus for the search index's contract suite, and a brute-force evaluation of queries over
 * it written independently of the store: titles in English and French (accents, capitals), dates in
 * several shapes (some missing), subjects (literals with languages and IRIs), types, binaries with media
 * types, nested containers (`c1` beside `c10` and `c11`, so a prefix that forgets its `/` shows), and
 * membership links. Words are chosen so stemming never joins two of them: a word found by the engine
 * is exactly a word of the text.
 */

export const DC = 'http://purl.org/dc/terms/';
export const TITLE = `${DC}title`;
export const DATE = `${DC}date`;
export const SUBJECT = `${DC}subject`;
export const DESCRIPTION = `${DC}description`;
export const MEMBER_OF = 'http://pcdm.org/models#memberOf';
export const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
export const PCDM_OBJECT = 'http://pcdm.org/models#Object';
export const PCDM_COLLECTION = 'http://pcdm.org/models#Collection';
export const PHOTOGRAPH = 'http://schema.org/Photograph';
export const MAP_TYPE = 'http://schema.org/Map';

/** Words the tests search for: no two share a stem, no filler word starts like one. */
export const ENGLISH = [
  'bridge',
  'river',
  'austin',
  'harbor',
  'market',
  'cathedral',
  'garden',
  'portrait',
  'lantern',
  'orchard',
];
export const FRENCH = ['Église', 'château', 'rivière', 'marché', 'forêt', 'éléphant', 'Noël', 'hôpital'];
const FILLER = [
  'view',
  'of',
  'the',
  'near',
  'with',
  'old',
  'new',
  'north',
  'south',
  'seen',
  'from',
  'at',
  'on',
];
const SUBJECTS = ['Photography', 'Architecture', 'Transportation', 'Botany', 'Urbanisme'];
const SUBJECT_IRIS = [
  'http://id.loc.gov/authorities/subjects/sh85101206',
  'http://id.loc.gov/authorities/subjects/sh85006611',
];
const MIME_TYPES = ['image/jpeg', 'image/tiff', 'application/pdf'];
export const ROOT = 'http://example.org/a';
export const CONTAINERS = Array.from({ length: 12 }, (_, i) => `${ROOT}/c${i}`);

/** Deterministic pseudo-random numbers (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function literal(predicate: string, value: string, language: string | null = null): SearchField {
  return { predicate, value, language, isIri: false };
}

function object(predicate: string, value: string): SearchField {
  return { predicate, value, language: null, isIri: true };
}

/** `count` documents under `root` (its containers, their sub-containers, and items in both). */
export function corpus(count: number, seed: number, root = ROOT): SearchDocument[] {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  const documents: SearchDocument[] = [];
  const containers = Array.from({ length: 12 }, (_, i) => `${root}/c${i}`);
  const subs = containers.flatMap((c) => Array.from({ length: 3 }, (_, j) => `${c}/s${j}`));
  documents.push({
    iri: root,
    parent: null,
    name: 'Root collection',
    types: [PCDM_COLLECTION],
    binary: false,
    mimeType: null,
    modified: Date.UTC(2020, 0, 1),
    fields: [literal(TITLE, 'Root collection')],
  });
  for (const [i, iri] of containers.entries()) {
    const title = `Collection ${i} ${pick(ENGLISH)}`;
    documents.push({
      iri,
      parent: root,
      name: title,
      types: [PCDM_COLLECTION],
      binary: false,
      mimeType: null,
      modified: Date.UTC(2021, 0, 1 + i),
      fields: [literal(TITLE, title, 'en')],
    });
  }
  for (const iri of subs) {
    documents.push({
      iri,
      parent: iri.slice(0, iri.lastIndexOf('/')),
      name: iri,
      types: [],
      binary: false,
      mimeType: null,
      modified: null,
      fields: [],
    });
  }
  // Siblings whose IRIs sort between `c1` and `c1/`: never part of c1's scope.
  for (const iri of [`${root}/c1-annex`, `${root}/c1.json`]) {
    const title = `Annex bridge ${iri.slice(-4)}`;
    documents.push({
      iri,
      parent: root,
      name: title,
      types: [],
      binary: false,
      mimeType: null,
      modified: null,
      fields: [literal(TITLE, title)],
    });
  }
  let k = 0;
  while (documents.length < count) {
    k++;
    const parent = next() < 0.5 ? pick(containers) : pick(subs);
    const iri = `${parent}/r${String(k).padStart(4, '0')}`;
    const modified = next() < 0.85 ? Date.UTC(2020, 0, 1) + Math.floor(next() * 6 * 365 * 86_400_000) : null;
    if (next() < 0.1) {
      const mimeType = pick(MIME_TYPES);
      const fields = next() < 0.5 ? [literal(DATE, String(1900 + Math.floor(next() * 100)))] : [];
      documents.push({
        iri,
        parent,
        name: `scan-${k}.${mimeType.split('/')[1]!}`,
        types: [],
        binary: true,
        mimeType,
        modified,
        fields,
      });
      continue;
    }
    const french = next() < 0.35;
    const words = Array.from({ length: 2 + Math.floor(next() * 3) }, () => pick(french ? FRENCH : ENGLISH));
    const title = words.map((w, n) => (n === 0 ? w[0]!.toUpperCase() + w.slice(1) : w)).join(' ');
    const fields: SearchField[] = [];
    const hasTitle = next() < 0.93;
    if (hasTitle) fields.push(literal(TITLE, title, french ? 'fr' : 'en'));
    if (next() < 0.6) {
      const sentence = Array.from({ length: 4 + Math.floor(next() * 8) }, () =>
        next() < 0.6 ? pick(FILLER) : pick([...ENGLISH, ...FRENCH]),
      );
      fields.push(literal(DESCRIPTION, `${sentence.join(' ')}.`));
    }
    const dateShape = next();
    const year = 1880 + Math.floor(next() * 120);
    if (dateShape < 0.3) fields.push(literal(DATE, String(year)));
    else if (dateShape < 0.55)
      fields.push(literal(DATE, `${year}-0${1 + Math.floor(next() * 9)}-1${Math.floor(next() * 9)}`));
    else if (dateShape < 0.7) fields.push(literal(DATE, `circa ${year}`));
    else if (dateShape < 0.8)
      fields.push(literal(DATE, `0${1 + Math.floor(next() * 9)}/1${Math.floor(next() * 9)}/${year}`));
    for (let s = Math.floor(next() * 3); s > 0; s--)
      fields.push(literal(SUBJECT, pick(SUBJECTS), next() < 0.5 ? 'en' : null));
    if (next() < 0.3) fields.push(object(SUBJECT, pick(SUBJECT_IRIS)));
    if (next() < 0.2) fields.push(object(MEMBER_OF, pick(containers)));
    const types = [PCDM_OBJECT, PHOTOGRAPH, MAP_TYPE].filter(() => next() < 0.4);
    documents.push({
      iri,
      parent,
      name: hasTitle ? title : iri,
      types,
      binary: false,
      mimeType: null,
      modified,
      fields,
    });
  }
  return documents;
}

// ---- Brute force: what each query should find, computed without the store ----

/** Folds like the contract says (accents and case), splitting on anything but letters and digits. */
export function words(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

/** The words of everything searched in a document: its name when it is not a value nor its IRI, then its literal values. */
function bodyWords(doc: SearchDocument): string[] {
  const literals = doc.fields.filter((f) => !f.isIri).map((f) => f.value);
  const texts = doc.name !== doc.iri && !literals.includes(doc.name) ? [doc.name, ...literals] : literals;
  return texts.flatMap(words);
}

function containsSequence(haystack: readonly string[], needle: readonly string[], prefix: boolean): boolean {
  for (let i = 0; i + needle.length <= haystack.length; i++) {
    if (
      needle.every((w, j) =>
        prefix && j === needle.length - 1 ? haystack[i + j]!.startsWith(w) : haystack[i + j] === w,
      )
    )
      return true;
  }
  return false;
}

function textMatches(doc: SearchDocument, text: string, prefix: boolean, predicate: string | null): boolean {
  const needle = words(text);
  if (predicate === null) return containsSequence(bodyWords(doc), needle, prefix);
  return doc.fields.some(
    (f) => f.predicate === predicate && !f.isIri && containsSequence(words(f.value), needle, prefix),
  );
}

function termMatches(doc: SearchDocument, term: QueryTerm): boolean {
  const positive = ((): boolean => {
    switch (term.kind) {
      case 'WORD':
        return textMatches(doc, term.text, term.prefix, term.predicate);
      case 'PHRASE':
        return textMatches(doc, term.text, false, term.predicate);
      case 'HAS':
        return term.predicate === RDF_TYPE
          ? doc.types.length > 0
          : doc.fields.some((f) => f.predicate === term.predicate);
      case 'TYPE':
        return doc.types.includes(term.type);
      case 'BINARY':
        return doc.binary === term.value;
      case 'MODIFIED': {
        const m = doc.modified;
        if (m === null) return false;
        return term.comparison === '>'
          ? m > term.time
          : term.comparison === '>='
            ? m >= term.time
            : term.comparison === '<'
              ? m < term.time
              : m <= term.time;
      }
      case 'REGEX': {
        const regex = new RegExp(term.pattern);
        return doc.fields.some((f) => f.predicate === term.predicate && regex.test(f.value));
      }
    }
  })();
  return positive !== term.negated;
}

export function inScope(doc: SearchDocument, within: string | null, childrenOnly: boolean): boolean {
  if (within === null) return true;
  if (childrenOnly) return doc.parent === within;
  const below = within.endsWith('/') ? within : `${within}/`;
  return doc.iri === within || doc.iri.startsWith(below);
}

export function bruteForce(
  docs: readonly SearchDocument[],
  terms: readonly QueryTerm[],
  within: string | null = null,
  childrenOnly = false,
): SearchDocument[] {
  return docs.filter((doc) => inScope(doc, within, childrenOnly) && terms.every((t) => termMatches(doc, t)));
}

export function byIri(a: { iri: string }, b: { iri: string }): number {
  return a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0;
}

export function nameOrder(a: SearchDocument, b: SearchDocument): number {
  const key = (d: SearchDocument) => d.name.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  const ka = key(a);
  const kb = key(b);
  return ka < kb ? -1 : ka > kb ? 1 : byIri(a, b);
}

export function modifiedOrder(a: SearchDocument, b: SearchDocument): number {
  if (a.modified !== b.modified) {
    if (a.modified === null) return 1;
    if (b.modified === null) return -1;
    return b.modified - a.modified;
  }
  return byIri(a, b);
}

/** Facet counts over these documents, most frequent first, then by value. */
export function facetsOf(docs: readonly SearchDocument[]) {
  const count = (values: (d: SearchDocument) => Iterable<string>) => {
    const counts = new Map<string, number>();
    for (const d of docs) for (const v of new Set(values(d))) counts.set(v, (counts.get(v) ?? 0) + 1);
    return [...counts]
      .map(([value, n]) => ({ value, count: n }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : a.value > b.value ? 1 : 0));
  };
  return {
    types: count((d) => d.types),
    predicates: count((d) => d.fields.map((f) => f.predicate)),
    mimeTypes: count((d) => (d.mimeType === null ? [] : [d.mimeType])),
  };
}

// ---- Terms ----

export const word = (
  text: string,
  options: { prefix?: boolean; predicate?: string; negated?: boolean } = {},
): QueryTerm => ({
  kind: 'WORD',
  text,
  prefix: options.prefix ?? false,
  predicate: options.predicate ?? null,
  negated: options.negated ?? false,
});
export const phrase = (text: string, options: { predicate?: string; negated?: boolean } = {}): QueryTerm => ({
  kind: 'PHRASE',
  text,
  predicate: options.predicate ?? null,
  negated: options.negated ?? false,
});
export const has = (predicate: string, negated = false): QueryTerm => ({ kind: 'HAS', predicate, negated });
export const type = (iri: string, negated = false): QueryTerm => ({ kind: 'TYPE', type: iri, negated });
export const binary = (value: boolean, negated = false): QueryTerm => ({ kind: 'BINARY', value, negated });
export const modified = (comparison: '>' | '>=' | '<' | '<=', time: number, negated = false): QueryTerm => ({
  kind: 'MODIFIED',
  comparison,
  time,
  negated,
});
export const regex = (predicate: string, pattern: string, negated = false): QueryTerm => ({
  kind: 'REGEX',
  predicate,
  pattern,
  negated,
});
