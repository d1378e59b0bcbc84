import { literal, namedNode, quad } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import type { CopyRequest } from '../../../src/copies/job-copies.js';
import { bytesStream, RELATION, servedDigest, someBytes, TITLE, userLines } from './copy-sites.js';

/** The collection a copy test copies, as created in the source. */
export interface SeededCollection {
  /** The collection (the job's context). */
  readonly uri: string;
  /** Every resource of it, the collection first. */
  readonly resources: readonly string[];
  readonly binaries: readonly string[];
  readonly bytes: number;
}

const PROV = 'http://www.w3.org/ns/prov#wasDerivedFrom';

/**
 * Nested containers with odd names, titles in two languages, internal links between members (one to a
 * fragment), a link outside the collection and two binaries: what issue 32's "Done when" copies.
 */
export async function seedCollection(
  adapter: RepositoryAdapter,
  parent: string,
  name: string,
): Promise<SeededCollection> {
  const titles = (en: string, de: string) => [
    { predicate: TITLE, object: literal(en, 'en') },
    { predicate: TITLE, object: literal(de, 'de') },
  ];
  const make = (under: string, child: string, statements: Parameters<RepositoryAdapter['createChild']>[1]) =>
    adapter.createChild(under, statements, undefined, { name: child });
  const collection = await make(parent, name, [
    ...titles('Letters', 'Briefe'),
    { predicate: RELATION, object: namedNode('http://example.org/outside') },
  ]);
  const box = await make(collection, 'box one', titles('Box one', 'Kiste eins'));
  const odd = await make(collection, 'été 50%', titles('Summer', 'Sommer'));
  const inner = await make(box, 'inner', titles('Inner', 'Innen'));
  const scanBytes = someBytes(300_000, `${name} scan`);
  const noteBytes = Buffer.from(`A note in ${name}.\n`, 'utf8');
  const scan = await adapter.uploadBinary(
    box,
    { content: bytesStream(scanBytes), filename: 'scan.tif', contentType: 'image/tiff' },
    undefined,
    { name: 'scan.tif' },
  );
  const note = await adapter.uploadBinary(
    inner,
    { content: bytesStream(noteBytes), filename: 'note.txt', contentType: 'text/plain' },
    undefined,
    { name: 'note.txt' },
  );
  // Links inside the set (to a member, to a member's fragment, to a binary) and a fragment subject.
  const link = (from: string, to: string) => quad(namedNode(from), namedNode(RELATION), namedNode(to));
  await adapter.updateTriples(
    collection,
    [],
    [
      link(collection, box),
      quad(
        namedNode(`${collection}#about`),
        namedNode(`${NS.dc}description`),
        literal('About the letters', 'en'),
      ),
    ],
  );
  await adapter.updateTriples(box, [], [link(box, `${odd}#part`), link(box, scan)]);
  await adapter.updateTriples(odd, [], [link(odd, note)]);
  return {
    uri: collection,
    resources: [collection, box, odd, inner, scan, note],
    binaries: [scan, note],
    bytes: scanBytes.length + noteBytes.length,
  };
}

/** A COPY request of a SUBTREE. */
export function subtreeRequest(jobId: number, contextUri: string, targetContextUri: string): CopyRequest {
  return {
    jobId,
    contextUri,
    scope: 'SUBTREE',
    query: null,
    targetContextUri,
    concurrency: 3,
    maxResources: 100,
  };
}

/**
 * The comparison walk: every source resource has its copy at the mapped IRI, with exactly the source's
 * user statements (internal IRIs rewritten) plus `prov:wasDerivedFrom <source>`, and every binary serves
 * the same bytes. Answers the differences found (none: an empty list).
 */
export async function compareCopies(
  source: RepositoryAdapter,
  target: RepositoryAdapter,
  collection: SeededCollection,
  copyOf: (sourceUri: string) => string,
): Promise<string[]> {
  const problems: string[] = [];
  const within = (value: string) => {
    const base = collection.uri.replace(/\/$/u, '');
    return value === base || value.startsWith(`${base}/`) || value.startsWith(`${base}#`);
  };
  const map = (value: string) => {
    if (!within(value)) return value;
    const [base = value, fragment] = value.split('#');
    const copied = copyOf(base.replace(/\/$/u, ''));
    return fragment === undefined ? copied : `${copied}#${fragment}`;
  };
  for (const uri of collection.resources) {
    const copy = copyOf(uri);
    const [from, to] = await Promise.all([source.describe(uri), target.describe(copy)]);
    const expected = userLines(from.quads, uri, map);
    const derived = `<${copy.replace(/\/$/u, '')}> <${PROV}> <${uri.replace(/\/$/u, '')}>`;
    const found = userLines(to.quads, copy);
    const wanted = [...expected, derived].sort();
    if (JSON.stringify(found) !== JSON.stringify(wanted))
      problems.push(`${copy}: expected ${JSON.stringify(wanted)}, found ${JSON.stringify(found)}`);
    if (from.isBinary !== to.isBinary)
      problems.push(`${copy}: binary ${to.isBinary}, source ${from.isBinary}`);
    if (from.isBinary && (await servedDigest(source, uri)) !== (await servedDigest(target, copy)))
      problems.push(`${copy}: its bytes differ from ${uri}'s`);
  }
  return problems;
}
