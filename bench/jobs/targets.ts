import { randomBytes } from 'node:crypto';
import { expect2xx, inPool } from './bare.js';

/** The repositories the jobs bench runs on, their data, and the bare requests of each job phase. */
export const DCTERMS = 'http://purl.org/dc/terms/';
const LDP = 'http://www.w3.org/ns/ldp#';
const RDF_ACCEPT =
  'text/turtle, application/n-triples;q=0.9, application/ld+json;q=0.8, application/rdf+xml;q=0.5, */*;q=0.1';
const PREFER = `return=representation; include="${LDP}PreferContainment"`;

export interface SeededRecord {
  readonly uri: string;
  /** The date as seeded (`03/dd/2001`) and as the mapping makes it (`2001-03-dd`). */
  readonly before: string;
  readonly after: string;
}

export interface Target {
  readonly key: 'embedded' | 'css';
  readonly label: string;
  readonly type: 'FEDORA' | 'LDP';
  readonly root: string;
  readonly username?: string;
  readonly password?: string;
  /** Authorization of bare requests (the view's credentials), or none. */
  readonly headers: Readonly<Record<string, string>>;
  /** The requests a job's RUN phase sends, bare: the container, then every record. */
  floorRun(container: string, records: readonly string[], concurrency: number): Promise<void>;
  /** The requests an apply sends, bare, writing `from` → `to` on every record. */
  floorWrite(
    records: readonly SeededRecord[],
    direction: 'apply' | 'undo',
    concurrency: number,
  ): Promise<void>;
}

const update = (uri: string, from: string, to: string) =>
  `DELETE DATA { <${uri}> <${DCTERMS}date> "${from}" . } ;\nINSERT DATA { <${uri}> <${DCTERMS}date> "${to}" . }`;

const dates = (record: SeededRecord, direction: 'apply' | 'undo') =>
  direction === 'apply' ? [record.before, record.after] : [record.after, record.before];

/**
 * A container of `count` records, each with a title and an American date, made with bare PUTs (a PUT names
 * the resource, so `<>` in the body is the resource itself on every server; CSS resolves `<>` of a POST
 * against the parent).
 */
export async function seedCollection(
  target: Target,
  count: number,
): Promise<{ uri: string; records: SeededRecord[] }> {
  const container = await put(
    target,
    childUri(target, target.root, `jobs-bench-${Date.now()}`),
    'Jobs bench',
  );
  const records: SeededRecord[] = [];
  await inPool(
    Array.from({ length: count }, (_, i) => i),
    8,
    async (i) => {
      const day = String((i % 28) + 1).padStart(2, '0');
      const uri = childUri(target, container, `record-${i + 1}`);
      await put(target, uri, `Record ${i + 1}`, `<> <${DCTERMS}date> "03/${day}/2001" .`);
      records.push({ uri, before: `03/${day}/2001`, after: `2001-03-${day}` });
    },
  );
  return { uri: container, records };
}

/** CSS names containers with a trailing slash; Fedora does not. */
function childUri(target: Target, parent: string, name: string): string {
  const base = parent.endsWith('/') ? parent : `${parent}/`;
  return target.type === 'LDP' ? `${base}${name}/` : `${base}${name}`;
}

/**
 * Creates a container holding a title (and `more` Turtle about it). CSS keeps a container's triples in its
 * `.meta` description and drops a container body, so there the triples go in with a PATCH of `.meta`, as the
 * LDP adapter writes them.
 */
async function put(target: Target, uri: string, title: string, more = ''): Promise<string> {
  const turtle = `<${uri}> <${DCTERMS}title> "${title}" .\n${more.replaceAll('<>', `<${uri}>`)}`;
  const container = { ...target.headers, link: `<${LDP}BasicContainer>; rel="type"` };
  if (target.type === 'FEDORA') {
    await expect2xx('PUT', uri, { ...container, 'content-type': 'text/turtle' }, turtle);
    return uri;
  }
  await expect2xx('PUT', uri, { ...container, 'content-type': 'text/turtle' }, '');
  await expect2xx(
    'PATCH',
    `${uri}.meta`,
    { ...target.headers, 'content-type': 'application/sparql-update' },
    `INSERT DATA { ${turtle} }`,
  );
  return uri;
}

async function post(target: Target, parent: string, turtle: string): Promise<string> {
  const answer = await expect2xx(
    'POST',
    parent,
    {
      ...target.headers,
      'content-type': 'text/turtle',
      link: `<${LDP}BasicContainer>; rel="type"`,
    },
    turtle,
  );
  const location = answer.headers.location;
  if (location === undefined) throw new Error(`POST ${parent} answered no Location`);
  return new URL(location, parent).toString();
}

/** `count` binaries of `bytes` random bytes in a new container of the embedded repository. */
export async function seedBinaries(target: Target, count: number, bytes: number): Promise<string> {
  const container = await post(target, target.root, `<> <${DCTERMS}title> "Fixity bench ${Date.now()}" .`);
  await inPool(
    Array.from({ length: count }, (_, i) => i),
    4,
    async (i) =>
      expect2xx(
        'POST',
        container,
        {
          ...target.headers,
          'content-type': 'application/octet-stream',
          'content-disposition': `attachment; filename="file-${i}.bin"`,
          link: `<${LDP}NonRDFSource>; rel="type"`,
        },
        randomBytes(bytes),
      ),
  );
  return container;
}

export function embeddedTarget(serviceUrl: string, username: string, password: string): Target {
  const headers = { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
  const describe = { ...headers, accept: RDF_ACCEPT, prefer: PREFER };
  return {
    key: 'embedded',
    label: 'embedded repository (FEDORA view on /rest/)',
    type: 'FEDORA',
    root: `${serviceUrl}/rest/`,
    username,
    password,
    headers,
    async floorRun(container, records, concurrency) {
      await expect2xx('GET', container, describe);
      await inPool(records, concurrency, (uri) => expect2xx('GET', uri, describe));
    },
    async floorWrite(records, direction, concurrency) {
      // One transaction: begin, read every record in it (the conflict check), PATCH every record, commit.
      const begun = await expect2xx('POST', `${serviceUrl}/rest/fcr:tx`, headers);
      const tx = new URL(String(begun.headers.location), serviceUrl).toString();
      const inTx = { 'atomic-id': tx };
      await inPool(records, concurrency, (r) => expect2xx('GET', r.uri, { ...describe, ...inTx }));
      await inPool(records, concurrency, (r) => {
        const [from, to] = dates(r, direction);
        return expect2xx(
          'PATCH',
          r.uri,
          { ...headers, ...inTx, 'content-type': 'application/sparql-update' },
          update(r.uri, from!, to!),
        );
      });
      await expect2xx('PUT', tx, headers);
    },
  };
}

export function cssTarget(base: string): Target {
  const describe = { accept: RDF_ACCEPT };
  return {
    key: 'css',
    label: 'Community Solid Server 7.2 (LDP view, memory backend)',
    type: 'LDP',
    root: base.endsWith('/') ? base : `${base}/`,
    headers: {},
    async floorRun(container, records, concurrency) {
      await expect2xx('GET', container, describe);
      await inPool(records, concurrency, (uri) => expect2xx('GET', uri, describe));
    },
    async floorWrite(records, direction, concurrency) {
      // No transactions: per record, the ETag compared (CSS ignores If-Match on .meta) and the PATCH.
      await inPool(records, concurrency, async (r) => {
        await expect2xx('HEAD', r.uri, describe);
        const [from, to] = dates(r, direction);
        await expect2xx(
          'PATCH',
          `${r.uri}.meta`,
          { 'content-type': 'application/sparql-update' },
          update(r.uri, from!, to!),
        );
      });
    },
  };
}
