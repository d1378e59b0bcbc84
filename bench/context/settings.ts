import { envInt } from '../shared/settings.js';

/** Load, shape and size of the context bench; BENCH_* variables shorten or lengthen the runs. */
export const CONNECTIONS = 10;
export const CHILDREN = 100;
/** Containers the add scenario writes to in one run (round robin), each shaped like the render one. */
export const ADD_TARGETS = 10;
export const COUNT_REPEATS = 3;
export const SETUP_CONCURRENCY = 10;

export const DC = 'http://purl.org/dc/elements/1.1/';
const DCTERMS = 'http://purl.org/dc/terms/';
const LDP_PREFER_CONTAINMENT = 'http://www.w3.org/ns/ldp#PreferContainment';
export const PREFER_CONTAINMENT = `return=representation; include="${LDP_PREFER_CONTAINMENT}"`;
export const RDF_ACCEPT =
  'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5';
/** The predicate of every added triple; its literals are `bench-add <n>` (service) / `bench-bare <n>`. */
export const ADDED_PREDICATE = `${DC}description`;

/** 20 metadata triples: 15 Dublin Core elements and 5 DC terms, all in the view's metadata prefixes. */
export const METADATA: { predicate: string; object: string }[] = [
  ...[
    'title',
    'creator',
    'subject',
    'description',
    'publisher',
    'contributor',
    'date',
    'type',
    'format',
    'identifier',
    'source',
    'language',
    'relation',
    'coverage',
    'rights',
  ].map((name, i) => ({
    predicate: `${DC}${name}`,
    object: name === 'title' ? '"Context benchmark container"' : `"${name} value ${i + 1}"`,
  })),
  ...['alternative', 'abstract', 'created', 'issued', 'extent'].map((name, i) => ({
    predicate: `${DCTERMS}${name}`,
    object: `"${name} value ${i + 16}"@en`,
  })),
];

export const duration = envInt('BENCH_DURATION', 10, 1);
export const runs = envInt('BENCH_RUNS', 3, 1);
export const warmup = envInt('BENCH_WARMUP', 2, 0);
