import type { Quad } from '@rdfjs/types';
import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import {
  BoundedMap,
  attachmentDisposition,
  checkAuthRoot,
  checkedIri,
  childrenOf,
  derivedParent,
  dispositionFilename,
  hasTypeLink,
  httpDateToMs,
  linkTargetsOf,
  messageOf,
  pingRoot,
  readRdf,
  sameResource,
} from './adapter-support.js';
import { fixityFromRdf } from './fedora-fixity.js';
import { parseLinkHeader } from './link-header.js';
import { atomicHeaders, expiryOf, txEndpoint, txIdFromLocation, txUri } from './fedora-transactions.js';
import {
  encodeLabel,
  isServerManaged,
  splitMemento,
  stampToIso,
  timemapOf,
  versionsFromLinks,
  versionsFromRdf,
} from './fedora-versions.js';
import {
  FEDORA_HAS_PARENT,
  FEDORA_REPOSITORY_ROOT,
  LDP_BASIC_CONTAINER,
  LDP_NON_RDF_SOURCE,
  LDP_PREFER_CONTAINMENT,
  RDF_ACCEPT,
  RDF_TYPE,
  isRdfMediaType,
  mediaTypeOf,
  namedNode,
  quad,
  writeTurtle,
} from './rdf-io.js';
import type {
  BinaryContent,
  ChildStatement,
  FixityResult,
  NewBinary,
  RepositoryAdapter,
  RepositoryFeatures,
  ResourceDescription,
  TransactionInfo,
  TransactionRef,
  VerificationResult,
  VersionInfo,
} from './repository-adapter.js';
import {
  abandon,
  discard,
  type RepositoryHttpClient,
  type UpstreamResponse,
} from './repository-http-client.js';
import { buildDataUpdate, normaliseUpdate } from './sparql-update-builder.js';

/** RDF first; `*\/*` last so that a binary answers with its bytes instead of 406. */
const DESCRIBE_ACCEPT = `${RDF_ACCEPT}, */*;q=0.1`;
const PREFER_CONTAINMENT = `return=representation; include="${LDP_PREFER_CONTAINMENT}"`;
const PREFER_NO_CONTAINMENT = `return=representation; omit="${LDP_PREFER_CONTAINMENT}"`;
const PREFER_LENIENT = 'handling=lenient; received="minimal"';
const SPARQL_UPDATE = 'application/sparql-update';

export const FEDORA_FEATURES: RepositoryFeatures = {
  versioning: true,
  verifying: true,
  transacting: true,
  queryable: true,
  fixity: true,
};

/**
 * The Fedora 6/7 HTTP API (also our embedded repository): see `fedora-api.md` §1, column "6.x/7.0".
 * Upstream requests per method are listed in `src/repositories/README.md`.
 */
export class FedoraAdapter implements RepositoryAdapter {
  readonly kind = 'FEDORA' as const;
  readonly features = FEDORA_FEATURES;
  /** Where a resource's triples are PATCHed: its `describedby` (binaries) or null (itself). */
  private readonly patchTargets = new BoundedMap<string, string | null>(1000);

  constructor(readonly client: RepositoryHttpClient) {}

  async describe(uri: string, tx?: TransactionRef): Promise<ResourceDescription> {
    const target = this.client.confine(uri);
    const atomic = atomicHeaders(this.client.rootUri, tx);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: target,
      headers: { accept: DESCRIBE_ACCEPT, prefer: PREFER_CONTAINMENT, ...atomic },
    });
    if (hasTypeLink(response, LDP_NON_RDF_SOURCE)) {
      // A binary: its bytes are not wanted here; its description is at rel="describedby".
      abandon(response);
      const description = this.describedBy(response, target);
      this.patchTargets.set(target, description);
      const described = await this.client.expectOk({
        method: 'GET',
        uri: description,
        headers: { accept: RDF_ACCEPT, ...atomic },
      });
      const quads = await readRdf(this.client, described);
      return { uri: target, isBinary: true, quads, children: [], parent: this.parentOf(target, quads) };
    }
    this.patchTargets.set(target, null);
    const quads = await readRdf(this.client, response);
    return {
      uri: target,
      isBinary: false,
      quads,
      children: childrenOf(target, quads),
      parent: this.parentOf(target, quads),
    };
  }

  async createChild(
    parentUri: string,
    statements: readonly ChildStatement[],
    tx?: TransactionRef,
  ): Promise<string> {
    const parent = this.client.confine(parentUri);
    const quads = statements.map((s) => {
      if (
        s.object.termType !== 'NamedNode' &&
        s.object.termType !== 'Literal' &&
        s.object.termType !== 'BlankNode'
      ) {
        throw new BadRequestError('An object must be an IRI, a blank node or a literal');
      }
      return quad(namedNode(''), namedNode(checkedIri(s.predicate)), s.object);
    });
    const body = quads.length === 0 ? '' : await writeTurtle(quads);
    const response = await this.client.expectOk({
      method: 'POST',
      uri: parent,
      headers: {
        'content-type': 'text/turtle',
        link: `<${LDP_BASIC_CONTAINER}>; rel="type"`,
        ...atomicHeaders(this.client.rootUri, tx),
      },
      body,
    });
    const created = await this.locationOf(response);
    this.patchTargets.set(created, null);
    return created;
  }

  async updateTriples(
    uri: string,
    remove: readonly Quad[],
    add: readonly Quad[],
    tx?: TransactionRef,
  ): Promise<void> {
    const target = this.client.confine(uri);
    const update = buildDataUpdate(remove, add);
    if (update === '') return;
    await this.patch(await this.patchTarget(target, tx), update, tx);
  }

  async runUpdate(uri: string, update: string, tx?: TransactionRef): Promise<void> {
    const target = this.client.confine(uri);
    const text = normaliseUpdate(update, { base: target, bgpOnly: false, kind: this.kind });
    await this.patch(await this.patchTarget(target, tx), text, tx);
  }

  async uploadBinary(parentUri: string, binary: NewBinary, tx?: TransactionRef): Promise<string> {
    const parent = this.client.confine(parentUri);
    try {
      const response = await this.client.expectOk({
        method: 'POST',
        uri: parent,
        headers: {
          'content-type': binary.contentType === '' ? 'application/octet-stream' : binary.contentType,
          'content-disposition': attachmentDisposition(binary.filename),
          link: `<${LDP_NON_RDF_SOURCE}>; rel="type"`,
          ...atomicHeaders(this.client.rootUri, tx),
        },
        body: binary.content,
      });
      const created = await this.locationOf(response);
      const description = linkTargetsOf(response, 'describedby')[0];
      if (description !== undefined)
        this.patchTargets.set(created, this.client.confineAnswered(response, description));
      return created;
    } finally {
      // Whatever the repository did not read is drained, so the caller's upload does not stall.
      if (!binary.content.readableEnded && !binary.content.destroyed) binary.content.resume();
    }
  }

  async downloadBinary(uri: string, tx?: TransactionRef): Promise<BinaryContent> {
    const target = this.client.confine(uri);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: target,
      headers: { accept: '*/*', ...atomicHeaders(this.client.rootUri, tx) },
    });
    if (!hasTypeLink(response, LDP_NON_RDF_SOURCE)) {
      abandon(response);
      throw new BadRequestError(`${target} is not a binary`);
    }
    const length = Number(response.header('content-length'));
    return {
      content: response.body,
      contentType: response.header('content-type') ?? 'application/octet-stream',
      filename: dispositionFilename(response.header('content-disposition')),
      size: Number.isFinite(length) && response.header('content-length') !== undefined ? length : undefined,
    };
  }

  async delete(uri: string, tx?: TransactionRef): Promise<void> {
    const target = this.client.confine(uri);
    const response = await this.client.expectOk({
      method: 'DELETE',
      uri: target,
      headers: atomicHeaders(this.client.rootUri, tx),
    });
    await discard(response);
    this.patchTargets.delete(target);
  }

  async fixity(uri: string, tx?: TransactionRef): Promise<FixityResult> {
    const target = this.client.confine(uri);
    const fixityUri = this.client.confine(`${target.replace(/\/+$/, '')}/fcr:fixity`);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: fixityUri,
      headers: { accept: RDF_ACCEPT, ...atomicHeaders(this.client.rootUri, tx) },
    });
    const result = fixityFromRdf(await readRdf(this.client, response));
    if (result === undefined) {
      throw new UpstreamFailedError(`GET ${fixityUri} answered no fixity outcome (premis:hasEventOutcome)`);
    }
    return result;
  }

  async beginTransaction(): Promise<TransactionInfo> {
    const response = await this.client.expectOk({ method: 'POST', uri: txEndpoint(this.client.rootUri) });
    const id = txIdFromLocation(response);
    const expiresAt = expiryOf(response);
    await discard(response);
    return { id, expiresAt };
  }

  async refreshTransaction(tx: TransactionRef): Promise<TransactionInfo> {
    const response = await this.client.expectOk({ method: 'POST', uri: txUri(this.client.rootUri, tx) });
    const expiresAt = expiryOf(response);
    await discard(response);
    return { id: tx.id, expiresAt };
  }

  async commitTransaction(tx: TransactionRef): Promise<void> {
    await discard(await this.client.expectOk({ method: 'PUT', uri: txUri(this.client.rootUri, tx) }));
  }

  async rollbackTransaction(tx: TransactionRef): Promise<void> {
    await discard(await this.client.expectOk({ method: 'DELETE', uri: txUri(this.client.rootUri, tx) }));
  }

  async listVersions(uri: string): Promise<VersionInfo[]> {
    const target = this.client.confine(uri);
    const timemap = this.client.confine(timemapOf(target));
    const response = await this.client.expectOk({
      method: 'GET',
      uri: timemap,
      headers: { accept: `${RDF_ACCEPT}, application/link-format;q=0.4` },
    });
    if (mediaTypeOf(response.header('content-type')) === 'application/link-format') {
      const text = await this.client.text(response);
      return versionsFromLinks(parseLinkHeader(text.replace(/\r?\n/g, ' ')), timemap);
    }
    return versionsFromRdf(timemap, await readRdf(this.client, response));
  }

  async createVersion(uri: string, label: string): Promise<VersionInfo> {
    const target = this.client.confine(uri);
    const timemap = this.client.confine(timemapOf(target));
    const trimmed = label.trim();
    const response = await this.client.expectOk({
      method: 'POST',
      uri: timemap,
      headers: trimmed === '' ? {} : { slug: encodeLabel(trimmed) },
    });
    const location = await this.locationOf(response);
    const segment = location.replace(/\/+$/, '').split('/').at(-1) ?? location;
    const datetime = httpDateToMs(response.header('memento-datetime'));
    const time =
      datetime === undefined
        ? (stampToIso(segment) ?? new Date().toISOString())
        : new Date(datetime).toISOString();
    return { name: trimmed === '' ? segment : trimmed, time, uri: location };
  }

  async restoreVersion(versionUri: string): Promise<string> {
    const memento = this.client.confine(versionUri);
    const { original } = splitMemento(this.client.rootUri, memento);
    const target = this.client.confine(original);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: memento,
      headers: { accept: DESCRIBE_ACCEPT, prefer: PREFER_NO_CONTAINMENT },
    });
    if (hasTypeLink(response, LDP_NON_RDF_SOURCE) || !isRdfMediaType(response.header('content-type'))) {
      // A binary's memento: its bytes are written back, streamed.
      const disposition = response.header('content-disposition');
      const filename = dispositionFilename(disposition);
      const written = await this.client.expectOk({
        method: 'PUT',
        uri: target,
        headers: {
          'content-type': response.header('content-type') ?? 'application/octet-stream',
          ...(filename === undefined ? {} : { 'content-disposition': attachmentDisposition(filename) }),
        },
        body: response.body,
      });
      await discard(written);
      return target;
    }
    const quads = (await readRdf(this.client, response))
      .filter((q) => !isServerManaged(q))
      .map((q) => rebase(q, memento, target));
    const written = await this.client.expectOk({
      method: 'PUT',
      uri: target,
      headers: { 'content-type': 'text/turtle', prefer: PREFER_LENIENT },
      body: await writeTurtle(quads),
    });
    await discard(written);
    return target;
  }

  async deleteVersion(versionUri: string): Promise<void> {
    const memento = this.client.confine(versionUri);
    splitMemento(this.client.rootUri, memento);
    const response = await this.client.send({ method: 'DELETE', uri: memento });
    if (response.status >= 200 && response.status < 300) {
      await discard(response);
      return;
    }
    throw await this.client.fail(
      response,
      response.status === 405 ? 'this repository does not allow deleting versions' : undefined,
    );
  }

  ping(): Promise<VerificationResult> {
    return pingRoot(this.client);
  }

  checkAuth(): Promise<VerificationResult> {
    return checkAuthRoot(this.client);
  }

  async checkContent(): Promise<VerificationResult> {
    const root = this.client.rootUri;
    try {
      const response = await this.client.send({
        method: 'GET',
        uri: root,
        headers: { accept: RDF_ACCEPT, prefer: PREFER_NO_CONTAINMENT },
      });
      if (response.status < 200 || response.status >= 300) {
        return { ok: false, message: `Content check failed: ${(await this.client.fail(response)).message}` };
      }
      if (!isRdfMediaType(response.header('content-type'))) {
        await discard(response);
        return { ok: false, message: `${root} is not a Fedora repository root: it does not answer RDF` };
      }
      const quads = await readRdf(this.client, response);
      const isRoot = quads.some(
        (q) =>
          sameResource(q.subject.value, root) &&
          q.predicate.value === RDF_TYPE &&
          q.object.value === FEDORA_REPOSITORY_ROOT,
      );
      if (isRoot) return { ok: true };
      return {
        ok: false,
        message: `${root} is not a Fedora repository root: it has no rdf:type fedora:RepositoryRoot`,
      };
    } catch (error) {
      return { ok: false, message: `Content check failed: ${messageOf(error)}` };
    }
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private describedBy(response: UpstreamResponse, target: string): string {
    const advertised = linkTargetsOf(response, 'describedby')[0];
    if (advertised !== undefined) return this.client.confineAnswered(response, advertised);
    return this.client.confine(`${target.replace(/\/+$/, '')}/fcr:metadata`);
  }

  /** Where triples of `target` are PATCHed: itself, or for a binary its description (one HEAD to find out). */
  private async patchTarget(target: string, tx: TransactionRef | undefined): Promise<string> {
    const known = this.patchTargets.get(target);
    if (known !== undefined) return known ?? target;
    const response = await this.client.expectOk({
      method: 'HEAD',
      uri: target,
      headers: { accept: DESCRIBE_ACCEPT, ...atomicHeaders(this.client.rootUri, tx) },
    });
    await discard(response);
    const description = hasTypeLink(response, LDP_NON_RDF_SOURCE) ? this.describedBy(response, target) : null;
    this.patchTargets.set(target, description);
    return description ?? target;
  }

  private async patch(target: string, update: string, tx: TransactionRef | undefined): Promise<void> {
    const response = await this.client.expectOk({
      method: 'PATCH',
      uri: target,
      headers: { 'content-type': SPARQL_UPDATE, ...atomicHeaders(this.client.rootUri, tx) },
      body: update,
    });
    await discard(response);
  }

  /** The created resource's IRI: the Location header, else the text body (Fedora answers the URI). */
  private async locationOf(response: UpstreamResponse): Promise<string> {
    const location = response.header('location');
    if (location !== undefined && location !== '') {
      await discard(response);
      return this.client.confineAnswered(response, location);
    }
    const text = (await this.client.text(response, 8192)).trim();
    if (text === '')
      throw new UpstreamFailedError(
        `${response.method} ${response.url} answered ${response.status} without a Location`,
      );
    return this.client.confineAnswered(response, text);
  }

  private parentOf(target: string, quads: readonly Quad[]): string | undefined {
    const stated = quads.find(
      (q) => q.predicate.value === FEDORA_HAS_PARENT && sameResource(q.subject.value, target),
    );
    if (stated?.object.termType === 'NamedNode') return stated.object.value;
    return derivedParent(this.client.rootUri, target, false);
  }
}

/** Statements read from a memento are about the original (some servers name the memento instead). */
function rebase(q: Quad, from: string, to: string): Quad {
  const swap = (term: Quad['subject'] | Quad['object']): Quad['subject'] | Quad['object'] => {
    if (term.termType !== 'NamedNode') return term;
    if (term.value === from) return namedNode(to);
    if (term.value.startsWith(`${from}#`)) return namedNode(to + term.value.slice(from.length));
    return term;
  };
  return quad(swap(q.subject) as Quad['subject'], q.predicate, swap(q.object));
}
