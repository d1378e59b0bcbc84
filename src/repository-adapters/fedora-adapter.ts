import type { Quad } from '@rdfjs/types';
import { BadRequestError } from '../shared/errors.js';
import {
  DESCRIBE_ACCEPT,
  checkedIri,
  childrenOf,
  contentLengthOf,
  drainUnread,
  createdUri,
  derivedParent,
  hasTypeLink,
  linkTargetsOf,
  patchSparql,
  readRdf,
  sameResource,
} from './adapter-support.js';
import { dispositionFilename, formatDisposition } from '../linked-data/http/content-disposition.js';
import { FedoraFixity } from './fedora-fixity.js';
import { PatchTargets } from './patch-targets.js';
import { checkAuthRoot, checkRootContent, pingRoot } from './root-checks.js';
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
  /** Where a resource's triples are PATCHed: its `describedby` (binaries) or itself. */
  private readonly patchTargets: PatchTargets;

  constructor(readonly client: RepositoryHttpClient) {
    this.patchTargets = new PatchTargets(client);
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
      this.patchTargets.remember(target, description);
      const described = await this.client.expectOk({
        method: 'GET',
        uri: description,
        headers: { accept: RDF_ACCEPT, ...atomic },
      });
      const quads = await readRdf(this.client, described);
      return { uri: target, isBinary: true, quads, children: [], parent: this.parentOf(target, quads) };
    }
    this.patchTargets.remember(target, target);
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
    this.patchTargets.remember(created, created);
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
        this.patchTargets.remember(created, this.client.confineAnswered(response, description));
      return created;
    } finally {
      drainUnread(binary.content);
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
    this.patchTargets.forget(target);
  }

  ping(): Promise<VerificationResult> {
    return pingRoot(this.client);
  }

  checkAuth(): Promise<VerificationResult> {
    return checkAuthRoot(this.client);
  }

  checkContent(): Promise<VerificationResult> {
    const root = this.client.rootUri;
    const headers = { accept: RDF_ACCEPT, prefer: PREFER_NO_CONTAINMENT };
    return checkRootContent(this.client, headers, async (response) => {
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
    });
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private describedBy(response: UpstreamResponse, target: string): string {
    const advertised = linkTargetsOf(response, 'describedby')[0];
    if (advertised !== undefined) return this.client.confineAnswered(response, advertised);
    return this.client.confine(`${target.replace(/\/+$/, '')}/fcr:metadata`);
  }

  /** Where triples of `target` are PATCHed: itself, or for a binary its description (one HEAD to find out). */
  private patchTarget(target: string, tx: TransactionRef | undefined): Promise<string> {
    return this.patchTargets.of(
      target,
      (response) => (hasTypeLink(response, LDP.NonRDFSource) ? this.describedBy(response, target) : target),
      atomicHeaders(this.client.rootUri, tx),
    );
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
