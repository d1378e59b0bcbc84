import type { Quad } from '@rdfjs/types';
import { BadRequestError, PreconditionFailedError, UpstreamFailedError } from '../shared/errors.js';
import { linkTargets } from '../linked-data/http/link.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { parseRdf } from '../linked-data/rdf/parse.js';
import { RDF_ACCEPT, UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { LDP } from '../linked-data/rdf/vocab.js';
import { discard, type RepositoryHttpClient, type UpstreamResponse } from './repository-http-client.js';

/** RDF first; `*\/*` last so that a binary answers with its bytes instead of 406. */
export const DESCRIBE_ACCEPT = `${RDF_ACCEPT}, */*;q=0.1`;

/**
 * The IRI of a resource just created, confined to the root: the Location header, else (when
 * `bodyFallback`, as Fedora answers) the text body.
 */
export async function createdUri(
  client: RepositoryHttpClient,
  response: UpstreamResponse,
  bodyFallback: boolean,
): Promise<string> {
  const location = response.header('location');
  if (location !== undefined && location !== '') {
    await discard(response);
    return client.confineAnswered(response, location);
  }
  let text = '';
  if (bodyFallback) text = (await client.text(response, 8192)).trim();
  else await discard(response);
  if (text === '') {
    throw new UpstreamFailedError(
      `${response.method} ${response.url} answered ${response.status} without a Location`,
    );
  }
  return client.confineAnswered(response, text);
}

/** A conditional PATCH: the ETag sent as `If-Match`, and the resource named when it fails. */
export interface PatchCondition {
  readonly ifMatch: string;
  /** The resource the caller writes (the PATCH may go to its description). */
  readonly resource: string;
}

/**
 * Sends a SPARQL Update (generator output) as a PATCH of `target`; `headers` add e.g. `Atomic-ID`. With
 * a `condition` it carries `If-Match`, and a 412 is a PreconditionFailedError (the repository wrote nothing).
 */
export async function patchSparql(
  client: RepositoryHttpClient,
  target: string,
  update: string,
  headers: Record<string, string> = {},
  condition?: PatchCondition,
): Promise<void> {
  const response = await client.send({
    method: 'PATCH',
    uri: target,
    headers: {
      'content-type': 'application/sparql-update',
      ...headers,
      ...(condition === undefined ? {} : { 'if-match': condition.ifMatch }),
    },
    body: update,
  });
  if (condition !== undefined && response.status === 412) {
    await discard(response);
    throw new PreconditionFailedError(condition.resource);
  }
  if (response.status < 200 || response.status >= 300) throw await client.fail(response);
  await discard(response);
}

/** Whether two entity tags name the same representation state (weak comparison: `W/` ignored). */
export function sameEtag(a: string, b: string): boolean {
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return opaque(a) === opaque(b);
}

/** A response's Content-Length as a number, when it says one. */
export function contentLengthOf(response: UpstreamResponse): number | undefined {
  const header = response.header('content-length');
  const length = Number(header);
  return header !== undefined && Number.isFinite(length) ? length : undefined;
}

/** Reads and parses an RDF answer; unreadable RDF is an upstream failure naming the request. */
export async function readRdf(
  client: RepositoryHttpClient,
  response: UpstreamResponse,
  base = response.url,
): Promise<Quad[]> {
  const text = await client.text(response);
  try {
    return await parseRdf(text, mediaTypeOf(response.header('content-type')), UPSTREAM_ANSWER, base);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UpstreamFailedError(
      `${response.method} ${response.url} answered RDF that cannot be read: ${message.split('\n')[0]?.slice(0, 200) ?? ''}`,
      { cause: error },
    );
  }
}

/** The absolute targets of the response's links with this relation (relative ones resolved). */
export function linkTargetsOf(response: UpstreamResponse, rel: string): string[] {
  return linkTargets(response.links(), rel).map((target) => new URL(target, response.url).href);
}

/** Whether the response has `Link: <type>; rel="type"`. */
export function hasTypeLink(response: UpstreamResponse, type: string): boolean {
  return linkTargets(response.links(), 'type').includes(type);
}

/** IRIs the resource contains (`<uri> ldp:contains ?child`), in the order served, without duplicates. */
export function childrenOf(uri: string, quads: readonly Quad[]): string[] {
  const seen = new Set<string>();
  for (const q of quads) {
    if (
      q.predicate.value === LDP.contains &&
      sameResource(q.subject.value, uri) &&
      q.object.termType === 'NamedNode'
    ) {
      seen.add(q.object.value);
    }
  }
  return [...seen];
}

/** Two IRIs of one resource (a container may be written with or without its trailing slash). */
export function sameResource(a: string, b: string): boolean {
  return a === b || a.replace(/\/$/, '') === b.replace(/\/$/, '');
}

/**
 * The parent derived from the path: everything up to the last `/` (after dropping a trailing one). The
 * root has none. `keepSlash` keeps the trailing slash of the parent (LDP servers name containers with
 * one; Fedora does not, except its root).
 */
export function derivedParent(rootUri: string, uri: string, keepSlash: boolean): string | undefined {
  if (sameResource(uri, rootUri)) return undefined;
  const trimmed = uri.replace(/\/$/, '');
  const cut = trimmed.lastIndexOf('/');
  if (cut === -1) return undefined;
  const withSlash = trimmed.slice(0, cut + 1);
  if (sameResource(withSlash, rootUri)) return rootUri;
  if (withSlash.length < rootUri.length) return undefined;
  return keepSlash ? withSlash : withSlash.slice(0, -1);
}

/** An absolute IRI that can be written in SPARQL and Turtle; a BadRequestError otherwise. */
export function checkedIri(value: string): string {
  if (value === '' || /[\s<>"{}|^`\\]/.test(value))
    throw new BadRequestError(`<${value.slice(0, 100)}> is not a valid IRI`);
  try {
    new URL(value);
  } catch {
    throw new BadRequestError(`<${value.slice(0, 100)}> is not an absolute IRI`);
  }
  return value;
}

/** Epoch milliseconds of an HTTP date, or undefined. */
export function httpDateToMs(value: string | undefined): number | undefined {
  // Only real dates: `Expires: 0` (no caching) must not read as the year 2000.
  if (
    value === undefined ||
    !/^[A-Za-z]{3}, \d{1,2} [A-Za-z]{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/.test(value.trim())
  )
    return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * After an upload, whatever the repository did not read of the caller's stream is drained, so the
 * caller's request (e.g. a multipart upload) does not stall.
 */
export function drainUnread(
  content: NodeJS.ReadableStream & { readableEnded: boolean; destroyed: boolean },
): void {
  if (!content.readableEnded && !content.destroyed) content.resume();
}
