import type { Term } from '@rdfjs/types';
import { literal, namedNode } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import { termText } from '../../../src/repository-view-context/triple-format.js';
import { body, sendJson, type TestApp } from '../test-app.js';
import type { WireTriple } from './sheet-api.js';

/**
 * The data the spreadsheet acceptance suites seed, kept as a model (predicate → terms per resource) so that
 * what the repository must hold after an import, an apply or an undo is computed from the model, never
 * read from the service under test.
 */
export const DCT = {
  title: `${NS.dcterms}title`,
  date: `${NS.dcterms}date`,
  subject: `${NS.dcterms}subject`,
  creator: `${NS.dcterms}creator`,
  extent: `${NS.dcterms}extent`,
  description: `${NS.dcterms}description`,
  coverage: `${NS.dcterms}coverage`,
  identifier: `${NS.dcterms}identifier`,
} as const;

/** The predicates the suites write; a read-back compares these (a server may add statements of its own). */
const MANAGED: ReadonlySet<string> = new Set([...Object.values(DCT), `${NS.dc}title`]);

export const XSD_DATE = `${NS.xsd}date`;
export const XSD_INTEGER = `${NS.xsd}integer`;

export interface Statement {
  readonly predicate: string;
  readonly object: Term;
}

export interface ModelResource {
  readonly uri: string;
  /** What the resource is: the collection, a box, or an item (index among the items). */
  readonly role: 'collection' | 'box' | 'item';
  readonly index: number;
  statements: Statement[];
}

/** An item's metadata: every kind of value a collection has, spread so each edit finds rows to edit. */
export function itemStatements(i: number): Statement[] {
  const statements: Statement[] = [{ predicate: DCT.title, object: literal(`Record ${i}`, 'en') }];
  if (i % 4 === 0) statements.push({ predicate: DCT.title, object: literal(`Notice ${i}`, 'fr') });
  const year = 1900 + (i % 97);
  statements.push({
    predicate: DCT.date,
    object:
      i % 3 === 0
        ? literal(`circa ${year}`)
        : literal(`${year}-0${1 + (i % 9)}-1${i % 10}`, namedNode(XSD_DATE)),
  });
  if (i % 5 !== 0) statements.push({ predicate: DCT.subject, object: literal('Mill history') });
  if (i % 5 === 1 || i % 5 === 3)
    statements.push({ predicate: DCT.subject, object: literal('Harbour, trade and "shipping"') });
  if (i % 2 === 0)
    statements.push({ predicate: DCT.creator, object: namedNode(`http://example.org/people/p${i % 7}`) });
  if (i % 6 === 0)
    statements.push({ predicate: DCT.extent, object: literal(String(10 + i), namedNode(XSD_INTEGER)) });
  return statements;
}

/**
 * A collection under `parentUri` holding `boxes` boxes of `perBox` items each (SUBTREE reaches the items
 * through their boxes), written `concurrency` at a time; answers the model, collection first.
 */
export async function seedCollection(
  adapter: RepositoryAdapter,
  parentUri: string,
  boxes: number,
  perBox: number,
): Promise<ModelResource[]> {
  const collectionStatements = [{ predicate: DCT.title, object: literal('Mill papers', 'en') }];
  const collection = await adapter.createChild(parentUri, collectionStatements);
  const model: ModelResource[] = [
    { uri: collection, role: 'collection', index: 0, statements: collectionStatements },
  ];
  for (let b = 0; b < boxes; b++) {
    const boxStatements = [{ predicate: DCT.title, object: literal(`Box ${b}`, 'en') }];
    const box = await adapter.createChild(collection, boxStatements);
    model.push({ uri: box, role: 'box', index: b, statements: boxStatements });
    const items = await Promise.all(
      Array.from({ length: perBox }, async (_, k) => {
        const index = b * perBox + k;
        const statements = itemStatements(index);
        const uri = await adapter.createChild(box, statements);
        return { uri, role: 'item' as const, index, statements };
      }),
    );
    model.push(...items);
  }
  return model;
}

/** A statement as the API's wire triple of `subject`. */
export function wireOf(subject: string, statement: Statement): WireTriple {
  return { subject, predicate: statement.predicate, object: termText(statement.object) };
}

const tripleKey = (triple: WireTriple) => `${triple.subject} ${triple.predicate} ${triple.object}`;

/** Triples in one order, so two lists of one set compare equal. */
export function sortedTriples(triples: readonly WireTriple[]): WireTriple[] {
  return [...triples].sort((a, b) =>
    tripleKey(a) < tripleKey(b) ? -1 : tripleKey(a) > tripleKey(b) ? 1 : 0,
  );
}

/** What the model says `resource` holds, as sorted wire triples. */
export function expectedMetadata(resource: Pick<ModelResource, 'uri' | 'statements'>): WireTriple[] {
  return sortedTriples(resource.statements.map((statement) => wireOf(resource.uri, statement)));
}

/** The difference of two statement lists of one resource: what `after` lacks and what it adds. */
export function difference(
  subject: string,
  before: readonly Statement[],
  after: readonly Statement[],
): { removed: WireTriple[]; added: WireTriple[] } {
  const keysOf = (statements: readonly Statement[]) =>
    new Set(statements.map((s) => tripleKey(wireOf(subject, s))));
  const [had, has] = [keysOf(before), keysOf(after)];
  return {
    removed: sortedTriples(before.map((s) => wireOf(subject, s)).filter((w) => !has.has(tripleKey(w)))),
    added: sortedTriples(after.map((s) => wireOf(subject, s)).filter((w) => !had.has(tripleKey(w)))),
  };
}

/** The resource's metadata of the managed predicates as the API shows it, sorted; null when it is gone. */
export async function metadataOf(
  t: TestApp,
  prefix: string,
  uri: string,
  token?: string,
): Promise<WireTriple[] | null> {
  const response = await sendJson(
    t.app,
    'GET',
    `${prefix}?contextUri=${encodeURIComponent(uri)}`,
    undefined,
    { token },
  );
  const envelope = body(response);
  if (envelope.meta.status !== 'SUCCESS') {
    // Gone: unknown to the repository (404), or deleted (a Fedora tombstone answers 410 Gone).
    if (response.statusCode === 404 || /\b(404|410) (Not Found|Gone)\b/.test(envelope.meta.message))
      return null;
    throw new Error(`reading ${uri}: ${response.statusCode} ${response.body.slice(0, 500)}`);
  }
  const context = envelope.payload.RepositoryViewContext as { metadata: WireTriple[] };
  return sortedTriples(context.metadata.filter((triple) => MANAGED.has(triple.predicate)));
}

/** The children of a container as the API lists them. */
export async function childrenOf(t: TestApp, prefix: string, uri: string, token?: string): Promise<string[]> {
  const envelope = body(
    await sendJson(t.app, 'GET', `${prefix}?contextUri=${encodeURIComponent(uri)}`, undefined, { token }),
  );
  const context = envelope.payload.RepositoryViewContext as { children: { triple: { object: string } }[] };
  return context.children.map((child) => child.triple.object).sort();
}

/** Reads each resource back (eight at a time), answering uri → metadata (null when gone). */
export async function readBack(
  t: TestApp,
  prefix: string,
  uris: readonly string[],
  token?: string,
): Promise<Map<string, WireTriple[] | null>> {
  const found = new Map<string, WireTriple[] | null>();
  for (let i = 0; i < uris.length; i += 8) {
    const slice = uris.slice(i, i + 8);
    const read = await Promise.all(slice.map((uri) => metadataOf(t, prefix, uri, token)));
    slice.forEach((uri, k) => found.set(uri, read[k]!));
  }
  return found;
}
