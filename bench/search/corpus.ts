/**
 * The bench's corpus (issue 28): N records with titles, dates and subjects, as the embedded repository
 * stores them (N-Triples with `info:fedora/` IRIs), generated from a fixed seed so every run and both
 * engines index the same rows. Shaped for the five query shapes: `austin` in about 1 % of titles, the phrase
 * "river valley" in about 2 %, `collection` in half of them (the facet-heavy word), dates missing from about
 * 15 % and not ISO 8601 in another 15 % (the `-has:` and regex shapes).
 */
const DCTERMS = 'http://purl.org/dc/terms/';
const RDF_TYPE = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#type';
const PCDM = 'http://pcdm.org/models#';

const WORDS = [
  'letter',
  'photograph',
  'map',
  'diary',
  'report',
  'survey',
  'minutes',
  'ledger',
  'sketch',
  'poster',
  'railway',
  'harbour',
  'school',
  'church',
  'market',
  'bridge',
  'mill',
  'farm',
  'station',
  'library',
  'winter',
  'summer',
  'flood',
  'fire',
  'parade',
  'election',
  'strike',
  'wedding',
  'festival',
  'census',
  'café',
  'façade',
  'naïve',
  'résumé',
  'señor',
  'Zürich',
  'Malmö',
  'São Paulo',
  'Kraków',
  'Århus',
];
const SUBJECTS = [
  'History',
  'Architecture',
  'Transport',
  'Agriculture',
  'Education',
  'Religion',
  'Trade',
  'Labour',
];

/** A small deterministic generator (mulberry32), so the corpus is the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const literal = (text: string) => JSON.stringify(text);

export interface CorpusRecord {
  /** Repository path (no leading slash). */
  readonly path: string;
  readonly parent: string;
  /** N-Triples, subject `info:fedora/<path>`. */
  readonly triples: string;
}

/** Containers per corpus: records are spread over them, as a collection is over its series. */
export const SERIES = 100;

export function seriesPaths(root: string): string[] {
  return Array.from({ length: SERIES }, (_, i) => `${root}/s${i}`);
}

export function* corpus(root: string, size: number, seed = 28): Generator<CorpusRecord> {
  const next = random(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  for (let i = 0; i < size; i++) {
    const parent = `${root}/s${i % SERIES}`;
    const path = `${parent}/r${i}`;
    const subject = `<info:fedora/${path}>`;
    const words = [pick(WORDS), pick(WORDS), pick(WORDS)];
    if (i % 2 === 0) words.push('collection');
    if (i % 100 === 7) words.push('Austin');
    if (i % 50 === 3) words.push('river valley');
    const year = 1850 + Math.floor(next() * 170);
    const month = String(1 + Math.floor(next() * 12)).padStart(2, '0');
    const day = String(1 + Math.floor(next() * 28)).padStart(2, '0');
    const lines = [
      `${subject} <${DCTERMS}title> ${literal(words.join(' '))}@en .`,
      `${subject} <${RDF_TYPE}> <${PCDM}${i % 10 === 0 ? 'Collection' : 'Object'}> .`,
    ];
    const shape = i % 20;
    if (shape < 14) lines.push(`${subject} <${DCTERMS}date> ${literal(`${year}-${month}-${day}`)} .`);
    else if (shape < 17) lines.push(`${subject} <${DCTERMS}date> ${literal(`${month}/${day}/${year}`)} .`);
    const subjects = 1 + Math.floor(next() * 3);
    for (let s = 0; s < subjects; s++)
      lines.push(`${subject} <${DCTERMS}subject> ${literal(pick(SUBJECTS))} .`);
    yield { path, parent, triples: `${lines.join('\n')}\n` };
  }
}

/** The five query shapes of issue 28's benchmark, and what each is for. */
export const QUERY_SHAPES = [
  { key: 'word', q: 'austin', what: 'one word (~1 % of records)' },
  { key: 'phrase', q: '"river valley"', what: 'a phrase (~2 %)' },
  { key: 'predicate', q: 'dcterms:title:letter -has:dcterms:date', what: 'a predicate term with -has:' },
  {
    key: 'regex',
    q: 'dcterms:date:/^[0-9]{2}.[0-9]{2}.[0-9]{4}$/',
    what: 'a regex over every date (finds the 15 % not in ISO 8601)',
  },
  { key: 'facets', q: 'collection', what: 'a facet-heavy word matching half the corpus' },
] as const;
