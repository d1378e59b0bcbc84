import { LRUCache } from 'lru-cache';
import type { Quad } from '@rdfjs/types';
import { BadRequestError } from '../shared/errors.js';
import {
  DESCRIBE_ACCEPT,
  checkAuthRoot,
  checkedIri,
  childrenOf,
  contentLengthOf,
  createdUri,
  derivedParent,
  hasTypeLink,
  linkTargetsOf,
  messageOf,
  patchSparql,
  pingRoot,
  readRdf,
  sameResource,
} from './adapter-support.js';
import { dispositionFilename, formatDisposition } from '../linked-data/http/content-disposition.js';
import { FedoraFixity } from './fedora-fixity.js';
import { FedoraTransactions, atomicHeaders } from './fedora-transactions.js';
import { FedoraVersions, PREFER_NO_CONTAINMENT } from './fedora-version-facet.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { writeTurtle } from '../linked-data/rdf/serialize.js';
import { isRdfMediaType, RDF_ACCEPT, UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { FEDORA, LDP, RDF_TYPE } from '../linked-data/rdf/vocab.js';
import type {
  BinaryContent,
  ChildStatement,
  FixityFacet,
  NewBinary,
  RepositoryAdapter,
  ResourceDescription,
  TransactionFacet,
  TransactionRef,
  VerificationResult,
  VersionFacet,
} from './repository-adapter.js';
import {
  abandon,
  discard,
  type RepositoryHttpClient,
  type UpstreamResponse,
} from './repository-http-client.js';
import { buildDataUpdate, vetAdapterUpdate } from './sparql-update-builder.js';

const PREFER_CONTAINMENT = `return=representation; include="${LDP.PreferContainment}"`;

/**
 * The Fedora 6/7 HTTP API (also our embedded repository): see `fedora-api.md` §1, column "6.x/7.0".
 * Upstream requests per method are listed in `src/repository-adapters/README.md`.
 */
export class FedoraAdapter implements RepositoryAdapter {
  readonly kind = 'FEDORA' as const;
  readonly transactions: TransactionFacet;
  readonly versions: VersionFacet;
  readonly fixity: FixityFacet;
  /** Where a resource's triples are PATCHed: its `describedby` (binaries) or null (itself). */
  private readonly patchTargets = new LRUCache<string, string>({ max: 1000 });

  constructor(readonly client: RepositoryHttpClient) {
    this.transactions = new FedoraTransactions(client);
    this.versions = new FedoraVersions(client);
    this.fixity = new FedoraFixity(client);
  }

  async describe(uri: string, tx?: TransactionRef): Promise<ResourceDescription> {
    const target = this.client.confine(uri);
    const atomic = atomicHeaders(this.client.rootUri, tx);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: target,
      headers: { accept: DESCRIBE_ACCEPT, prefer: PREFER_CONTAINMENT, ...atomic },
    });
    if (hasTypeLink(response, LDP.NonRDFSource)) {
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
    this.patchTargets.set(target, target);
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
    const body = quads.length === 0 ? '' : writeTurtle(quads);
    const response = await this.client.expectOk({
      method: 'POST',
      uri: parent,
      headers: {
        'content-type': 'text/turtle',
        link: `<${LDP.BasicContainer}>; rel="type"`,
        ...atomicHeaders(this.client.rootUri, tx),
      },
      body,
    });
    const created = await createdUri(this.client, response, true);
    this.patchTargets.set(created, created);
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
    const text = vetAdapterUpdate(update, target, false, this.kind);
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
          'content-disposition': formatDisposition(binary.filename),
          link: `<${LDP.NonRDFSource}>; rel="type"`,
          ...atomicHeaders(this.client.rootUri, tx),
        },
        body: binary.content,
      });
      const created = await createdUri(this.client, response, true);
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
    if (!hasTypeLink(response, LDP.NonRDFSource)) {
      abandon(response);
      throw new BadRequestError(`${target} is not a binary`);
    }
    return {
      content: response.body,
      contentType: response.header('content-type') ?? 'application/octet-stream',
      filename: dispositionFilename(response.header('content-disposition')),
      size: contentLengthOf(response),
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
      if (!isRdfMediaType(mediaTypeOf(response.header('content-type')), UPSTREAM_ANSWER)) {
        await discard(response);
        return { ok: false, message: `${root} is not a Fedora repository root: it does not answer RDF` };
      }
      const quads = await readRdf(this.client, response);
      const isRoot = quads.some(
        (q) =>
          sameResource(q.subject.value, root) &&
          q.predicate.value === RDF_TYPE &&
          q.object.value === FEDORA.RepositoryRoot,
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
    if (known !== undefined) return known;
    const response = await this.client.expectOk({
      method: 'HEAD',
      uri: target,
      headers: { accept: DESCRIBE_ACCEPT, ...atomicHeaders(this.client.rootUri, tx) },
    });
    await discard(response);
    const description = hasTypeLink(response, LDP.NonRDFSource) ? this.describedBy(response, target) : null;
    this.patchTargets.set(target, description ?? target);
    return description ?? target;
  }

  private patch(target: string, update: string, tx: TransactionRef | undefined): Promise<void> {
    return patchSparql(this.client, target, update, atomicHeaders(this.client.rootUri, tx));
  }

  private parentOf(target: string, quads: readonly Quad[]): string | undefined {
    const stated = quads.find(
      (q) => q.predicate.value === FEDORA.hasParent && sameResource(q.subject.value, target),
    );
    if (stated?.object.termType === 'NamedNode') return stated.object.value;
    return derivedParent(this.client.rootUri, target, false);
  }
}
