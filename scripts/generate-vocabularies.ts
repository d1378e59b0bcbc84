/**
 * Regenerates the offline vocabulary catalogue files src/schemas/vocabularies/<prefix>.json that come
 * from the @vocabulary/* npm packages (devDependencies): dc, dcterms, rdfs, skos, foaf and bibo.
 *
 *   npx tsx scripts/generate-vocabularies.ts
 *
 * Properties are listed with the same rules the service applies to a fetched vocabulary
 * (src/schemas/rdf-properties.ts), so an offline answer equals what an online read would give.
 *
 * pcdm.json, ebucore.json, premis.json and premis1.json are not generated: they are term lists curated by
 * hand by the Scriptorium team (see src/schemas/vocabularies/LICENCES.md). This script never reads or
 * writes them; edit them directly, keeping the properties sorted by URI.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { VOCABULARY_DOCUMENT } from '../src/linked-data/rdf/media-types.js';
import { parseRdf } from '../src/linked-data/rdf/parse.js';
import { extractProperties } from '../src/schemas/rdf-properties.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'src', 'schemas', 'vocabularies');

interface Source {
  readonly prefix: string;
  readonly title: string;
  readonly namespace: string;
  /** Relative to the repository root. */
  readonly file: string;
  readonly mediaType: string;
  readonly source: string;
  readonly licence: string;
}

const W3C_LICENCE = 'W3C Software and Document License, https://www.w3.org/copyright/software-license-2023/';

function npmSource(pkg: string): { file: string; source: string } {
  return {
    file: `node_modules/@vocabulary/${pkg}/${pkg}.nq`,
    source: `npm package @vocabulary/${pkg} (file ${pkg}.nq; packaging MIT licence)`,
  };
}

const SOURCES: readonly Source[] = [
  {
    prefix: 'dc',
    title: 'Dublin Core Metadata Element Set, Version 1.1',
    namespace: 'http://purl.org/dc/elements/1.1/',
    mediaType: 'application/n-quads',
    ...npmSource('dc11'),
    licence: 'DCMI, Creative Commons Attribution 4.0, https://creativecommons.org/licenses/by/4.0/',
  },
  {
    prefix: 'dcterms',
    title: 'DCMI Metadata Terms',
    namespace: 'http://purl.org/dc/terms/',
    mediaType: 'application/n-quads',
    ...npmSource('dcterms'),
    licence: 'DCMI, Creative Commons Attribution 4.0, https://creativecommons.org/licenses/by/4.0/',
  },
  {
    prefix: 'rdfs',
    title: 'The RDF Schema vocabulary (RDFS)',
    namespace: 'http://www.w3.org/2000/01/rdf-schema#',
    mediaType: 'application/n-quads',
    ...npmSource('rdfs'),
    licence: W3C_LICENCE,
  },
  {
    prefix: 'skos',
    title: 'SKOS Vocabulary',
    namespace: 'http://www.w3.org/2004/02/skos/core#',
    mediaType: 'application/n-quads',
    ...npmSource('skos'),
    licence: W3C_LICENCE,
  },
  {
    prefix: 'foaf',
    title: 'Friend of a Friend (FOAF) vocabulary',
    namespace: 'http://xmlns.com/foaf/0.1/',
    mediaType: 'application/n-quads',
    ...npmSource('foaf'),
    licence: 'FOAF project, Creative Commons Attribution 1.0, https://creativecommons.org/licenses/by/1.0/',
  },
  {
    prefix: 'bibo',
    title: 'The Bibliographic Ontology',
    namespace: 'http://purl.org/ontology/bibo/',
    mediaType: 'application/n-quads',
    ...npmSource('bibo'),
    licence: 'Bibliographic Ontology (Frédérick Giasson, Bruce D’Arcus), Creative Commons Attribution',
  },
];

async function generate(source: Source): Promise<string> {
  const text = await readFile(path.join(root, source.file), 'utf8');
  const triples = await parseRdf(text, source.mediaType, VOCABULARY_DOCUMENT, source.namespace);
  const properties = extractProperties(triples, source.namespace);
  properties.sort((a, b) => (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0));
  const document = {
    prefix: source.prefix,
    title: source.title,
    namespace: source.namespace,
    source: source.source,
    licence: source.licence,
    properties,
  };
  const file = path.join(output, `${source.prefix}.json`);
  const options = await resolveConfig(file);
  await writeFile(file, await format(JSON.stringify(document), { ...options, parser: 'json' }));
  return `${source.prefix}: ${properties.length} properties`;
}

for (const source of SOURCES) process.stdout.write(`${await generate(source)}\n`);
