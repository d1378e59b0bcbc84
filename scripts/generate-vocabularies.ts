/**
 * Regenerates the offline vocabulary catalogue, src/schemas/vocabularies/<prefix>.json, from the
 * published vocabulary files: the @vocabulary/* npm packages (devDependencies) and the files under
 * scripts/vocabulary-sources/ (see the README there for where each comes from).
 *
 *   npx tsx scripts/generate-vocabularies.ts
 *
 * Properties are listed with the same rules the service applies to a fetched vocabulary
 * (src/schemas/rdf-properties.ts), so an offline answer equals what an online read would give.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { parseRdf, type RdfSyntax } from '../src/schemas/rdf-parse.js';
import { extractProperties } from '../src/schemas/rdf-properties.js';
import type { Property } from '../src/schemas/schema.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const output = path.join(root, 'src', 'schemas', 'vocabularies');

interface Source {
  readonly prefix: string;
  readonly title: string;
  readonly namespace: string;
  /** Relative to the repository root. */
  readonly file: string;
  readonly syntax: RdfSyntax;
  readonly source: string;
  readonly licence: string;
  /** Properties in use that the published file lacks, with why. */
  readonly supplements?: readonly Property[];
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
    syntax: 'n-quads',
    ...npmSource('dc11'),
    licence: 'DCMI, Creative Commons Attribution 4.0, https://creativecommons.org/licenses/by/4.0/',
  },
  {
    prefix: 'dcterms',
    title: 'DCMI Metadata Terms',
    namespace: 'http://purl.org/dc/terms/',
    syntax: 'n-quads',
    ...npmSource('dcterms'),
    licence: 'DCMI, Creative Commons Attribution 4.0, https://creativecommons.org/licenses/by/4.0/',
  },
  {
    prefix: 'rdfs',
    title: 'The RDF Schema vocabulary (RDFS)',
    namespace: 'http://www.w3.org/2000/01/rdf-schema#',
    syntax: 'n-quads',
    ...npmSource('rdfs'),
    licence: W3C_LICENCE,
  },
  {
    prefix: 'skos',
    title: 'SKOS Vocabulary',
    namespace: 'http://www.w3.org/2004/02/skos/core#',
    syntax: 'n-quads',
    ...npmSource('skos'),
    licence: W3C_LICENCE,
  },
  {
    prefix: 'foaf',
    title: 'Friend of a Friend (FOAF) vocabulary',
    namespace: 'http://xmlns.com/foaf/0.1/',
    syntax: 'n-quads',
    ...npmSource('foaf'),
    licence: 'FOAF project, Creative Commons Attribution 1.0, https://creativecommons.org/licenses/by/1.0/',
  },
  {
    prefix: 'bibo',
    title: 'The Bibliographic Ontology',
    namespace: 'http://purl.org/ontology/bibo/',
    syntax: 'n-quads',
    ...npmSource('bibo'),
    licence: 'Bibliographic Ontology (Frédérick Giasson, Bruce D’Arcus), Creative Commons Attribution',
  },
  {
    prefix: 'pcdm',
    title: 'Portland Common Data Model',
    namespace: 'http://pcdm.org/models#',
    file: 'scripts/vocabulary-sources/pcdm-models.rdf',
    syntax: 'rdf-xml',
    source: 'github.com/duraspace/pcdm, models.rdf at d7464e541484f68f2213ab6e676de837bc44fd71',
    licence: 'DuraSpace, Apache License 2.0, https://www.apache.org/licenses/LICENSE-2.0',
  },
  {
    prefix: 'ebucore',
    title: 'EBUCore ontology 1.10',
    namespace: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#',
    file: 'scripts/vocabulary-sources/ebucore.rdf',
    syntax: 'rdf-xml',
    source:
      'github.com/ebu/ebucoreplus, ontology/EBUCore/ebucore.rdf at 452f7489cd898fe98c48120d3e9c12ac39d6b8e8',
    licence:
      'European Broadcasting Union, Creative Commons Attribution-ShareAlike 3.0 (cc:licence of the ontology), ' +
      'https://creativecommons.org/licenses/by-sa/3.0/',
    // Fedora 4–6 write ebucore:filename on every binary's description; EBUCore 1.10 no longer defines it.
    supplements: [
      { uri: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename', label: 'File name' },
    ],
  },
  {
    prefix: 'premis',
    title: 'PREMIS 3 Ontology',
    namespace: 'http://www.loc.gov/premis/rdf/v3/',
    file: 'scripts/vocabulary-sources/premis3.owl',
    syntax: 'rdf-xml',
    source: 'github.com/lcnetdev/PREMIS, premis3.owl at 41325a85ed8238137f3540a20de013f745b7c2fd',
    licence: 'Library of Congress for the PREMIS Editorial Committee; no licence is stated in the file',
  },
];

async function generate(source: Source): Promise<string> {
  const text = await readFile(path.join(root, source.file), 'utf8');
  const triples = await parseRdf(text, source.syntax, source.namespace);
  const properties = extractProperties(triples, source.namespace);
  for (const extra of source.supplements ?? []) {
    if (!properties.some((p) => p.uri === extra.uri)) properties.push(extra);
  }
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
