import http from 'node:http';
import { pipeline } from 'node:stream/promises';
import N3 from 'n3';
import { expect2xx, inPool, type Answer } from '../jobs/bare.js';

/**
 * The floor of `npm run bench:copy`: the same copy made by this process with bare HTTP and nothing else —
 * per resource one GET of the source and the writes that make its copy at the same target IRI (a
 * container's user triples, a binary's bytes streamed GET → PUT with its filename and media type), at the
 * job's concurrency. No plan rows, no provenance, no digest checked, no audit: what the job adds over it is
 * what the ratio measures.
 */
const LDP = 'http://www.w3.org/ns/ldp#';
const DCTERMS = 'http://purl.org/dc/terms/';
const EBUCORE_FILENAME = 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#filename';
const agent = new http.Agent({ keepAlive: true, maxSockets: 64 });

export interface Side {
  readonly kind: 'FEDORA' | 'LDP';
  /** Authorization of bare requests (the view's credentials), or none. */
  readonly headers: Readonly<Record<string, string>>;
}

export interface SmallRecord {
  readonly uri: string;
  /** The record's last segment, its title and date: what its copy carries. */
  readonly name: string;
  readonly title: string;
  readonly date: string;
}

export interface SourceBinary {
  readonly uri: string;
  readonly name: string;
}

/**
 * `expect2xx` (jobs/bare.ts), sent once more when the server closed an idle keep-alive connection just as
 * the request went out (`socket hang up`, ECONNRESET, before any answer): the bench pauses for seconds
 * between phases, longer than a server keeps idle connections.
 */
export function ok(
  method: string,
  url: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<Answer> {
  return retryOnReset(() => expect2xx(method, url, headers, body));
}

async function retryOnReset<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ECONNRESET') throw error;
    return work();
  }
}

/** `<parent>/<name>`, an LDP container with a trailing slash. */
export function childIri(side: Side, parent: string, name: string, container: boolean): string {
  const base = parent.endsWith('/') ? parent : `${parent}/`;
  return `${base}${encodeURIComponent(name)}${side.kind === 'LDP' && container ? '/' : ''}`;
}

/** Creates a container holding `turtle` (about `uri`): one PUT on Fedora, PUT and PATCH of `.meta` on CSS. */
export async function putContainer(side: Side, uri: string, turtle: string): Promise<void> {
  const headers = {
    ...side.headers,
    'content-type': 'text/turtle',
    'if-none-match': '*',
    link: `<${LDP}BasicContainer>; rel="type"`,
  };
  if (side.kind === 'FEDORA') {
    await ok('PUT', uri, headers, turtle);
    return;
  }
  await ok('PUT', uri, headers, '');
  if (turtle !== '')
    await ok(
      'PATCH',
      `${uri}.meta`,
      { ...side.headers, 'content-type': 'application/sparql-update' },
      `INSERT DATA { ${turtle} }`,
    );
}

/** The bare copy of a container of small records under `targetParent`. */
export async function floorRecords(
  source: Side,
  container: string,
  records: readonly SmallRecord[],
  target: Side,
  targetParent: string,
  containerName: string,
  concurrency: number,
): Promise<void> {
  const accept = { ...source.headers, accept: 'text/turtle' };
  await ok('GET', container, accept);
  const root = childIri(target, targetParent, containerName, true);
  await putContainer(target, root, `<${root}> <${DCTERMS}title> "Copy bench" .`);
  await inPool(records, concurrency, async (record) => {
    await ok('GET', record.uri, accept);
    const uri = childIri(target, root, record.name, true);
    await putContainer(
      target,
      uri,
      `<${uri}> <${DCTERMS}title> ${JSON.stringify(record.title)} .\n<${uri}> <${DCTERMS}date> ${JSON.stringify(record.date)} .`,
    );
  });
}

/** The bare copy of a container of binaries: each streamed from the source's GET into the target's PUT. */
export async function floorBinaries(
  source: Side,
  container: string,
  binaries: readonly SourceBinary[],
  target: Side,
  targetParent: string,
  containerName: string,
  concurrency: number,
): Promise<void> {
  await ok('GET', container, { ...source.headers, accept: 'text/turtle' });
  const root = childIri(target, targetParent, containerName, true);
  await putContainer(target, root, '');
  await inPool(binaries, concurrency, async (binary) => {
    const uri = childIri(target, root, binary.name, false);
    await retryOnReset(() => streamCopy(binary.uri, source.headers, uri, target.headers));
    if (target.kind === 'LDP')
      await ok(
        'PATCH',
        `${uri}.meta`,
        { ...target.headers, 'content-type': 'application/sparql-update' },
        `INSERT DATA { <${uri}> <${EBUCORE_FILENAME}> ${JSON.stringify(binary.name)} . }`,
      );
  });
}

/** GET `from` piped into PUT `to`, never buffered whole. */
async function streamCopy(
  from: string,
  fromHeaders: Readonly<Record<string, string>>,
  to: string,
  toHeaders: Readonly<Record<string, string>>,
): Promise<void> {
  const download = await new Promise<http.IncomingMessage>((resolve, reject) => {
    http.get(from, { headers: fromHeaders, agent }, resolve).on('error', reject);
  });
  if (download.statusCode !== 200) {
    download.resume();
    throw new Error(`GET ${from} → ${download.statusCode}`);
  }
  const headers: Record<string, string> = {
    ...toHeaders,
    'content-type': download.headers['content-type'] ?? 'application/octet-stream',
    'if-none-match': '*',
    link: `<${LDP}NonRDFSource>; rel="type"`,
  };
  const length = download.headers['content-length'];
  if (length !== undefined) headers['content-length'] = length;
  const disposition = download.headers['content-disposition'];
  if (disposition !== undefined) headers['content-disposition'] = disposition;
  const upload = http.request(to, { method: 'PUT', headers, agent });
  const answered = new Promise<http.IncomingMessage>((resolve, reject) => {
    upload.once('response', resolve).once('error', reject);
  });
  await pipeline(download, upload);
  const answer = await answered;
  answer.resume();
  await new Promise((resolve) => answer.once('end', resolve));
  if ((answer.statusCode ?? 0) < 200 || (answer.statusCode ?? 0) > 299)
    throw new Error(`PUT ${to} → ${answer.statusCode}`);
}

/** Deletes a tree on an LDP server, which refuses to delete a non-empty container: children first. */
export async function deleteLdpTree(uri: string): Promise<void> {
  if (uri.endsWith('/')) {
    const answer = await ok('GET', uri, { accept: 'text/turtle' });
    const children = new N3.Parser({ baseIRI: uri })
      .parse(answer.body)
      .filter((q) => q.subject.value === uri && q.predicate.value === `${LDP}contains`)
      .map((q) => q.object.value);
    await inPool([...new Set(children)], 8, deleteLdpTree);
  }
  await ok('DELETE', uri, {});
}

export function closeFloorAgent(): void {
  agent.destroy();
}
