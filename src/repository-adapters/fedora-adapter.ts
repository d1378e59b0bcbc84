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
  type PatchCondition,
  sameResource,
} from './upstream-exchange.js';
import { dispositionFilename, formatDisposition } from '../linked-data/http/content-disposition.js';
import { FedoraFixity } from './fedora-fixity.js';
import { PatchTargets } from './patch-targets.js';
import { checkAuthRoot, checkRootContent, pingRoot } from './root-checks.js';
import { FedoraTransactions } from './fedora-transactions.js';
import { FedoraPathTransactions } from './fedora-path-transactions.js';
import { txInPath, txScope, type TxScope } from './fedora-tx-scope.js';
import { uploadContentType } from './fedora-upload-type.js';
import { FedoraLabelVersions } from './fedora-label-versions.js';
import { FEDORA_5_MEMENTOS, FedoraVersions, PREFER_NO_CONTAINMENT } from './fedora-version-facet.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { writeTurtle } from '../linked-data/rdf/serialize.js';
import { isRdfMediaType, RDF_ACCEPT, UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { FEDORA, LDP, RDF_TYPE } from '../linked-data/rdf/vocab.js';
import type {
  BinaryContent,
  ChildStatement,
  CreateOptions,
  FixityFacet,
  NewBinary,
  RepositoryAdapter,
  ResourceDescription,
  TransactionFacet,
  TransactionRef,
  UploadOptions,
  VerificationResult,
  VersionFacet,
  WriteConditions,
} from './repository-adapter.js';
import { NEW_ONLY, digestHeader, namedChildUri, putNew, resourceExists } from './named-children.js';
import {
  abandon,
  discard,
  type RepositoryHttpClient,
  type UpstreamResponse,
} from './repository-http-client.js';
import { buildDataUpdate, vetAdapterUpdate } from './sparql-update-builder.js';

const PREFER_CONTAINMENT = `return=representation; include="${LDP.PreferContainment}"`;

/**
 * The Fedora HTTP API of one Fedora line (`fedora-api.md` §1): FEDORA_6 (6.x/7.x, also our embedded
 * repository), FEDORA_5 (transactions in the path, Memento versions without labels) or FEDORA_4
 * (transactions in the path, labelled versions, the interaction model by Content-Type). Upstream
 * requests per method and line are listed in `src/repository-adapters/README.md`.
 */
export class FedoraAdapter implements RepositoryAdapter {
  readonly kind = 'FEDORA' as const;
  readonly transactions: TransactionFacet;
  readonly versions: VersionFacet;
  readonly fixity: FixityFacet;
  /** Where a resource's triples are PATCHed: its `describedby` (binaries) or itself. */
  private readonly patchTargets: PatchTargets;

  constructor(
    readonly client: RepositoryHttpClient,
    private readonly fedoraDialect: FedoraDialect = 'FEDORA_6',
  ) {
    this.patchTargets = new PatchTargets(client);
    this.transactions = txInPath(fedoraDialect)
      ? new FedoraPathTransactions(client)
      : new FedoraTransactions(client);
    this.versions =
      fedoraDialect === 'FEDORA_4'
        ? new FedoraLabelVersions(client)
        : fedoraDialect === 'FEDORA_5'
          ? new FedoraVersions(client, FEDORA_5_MEMENTOS)
          : new FedoraVersions(client);
    this.fixity = new FedoraFixity(client, fedoraDialect);
  }

  /** The Fedora line this adapter speaks. */
  dialect(): Promise<FedoraDialect> {
    return Promise.resolve(this.fedoraDialect);
  }

  async describe(uri: string, tx?: TransactionRef): Promise<ResourceDescription> {
    const target = this.client.confine(uri);
    const scope = this.scope(tx);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: scope.url(target),
      headers: { accept: DESCRIBE_ACCEPT, prefer: PREFER_CONTAINMENT, ...scope.headers },
    });
    if (hasTypeLink(response, LDP.NonRDFSource)) {
      // A binary: its bytes are not wanted here; its description is at rel="describedby".
      abandon(response);
      const description = this.describedBy(response, target, scope);
      this.patchTargets.remember(target, description);
      const described = await this.client.expectOk({
        method: 'GET',
        uri: scope.url(description),
        headers: { accept: RDF_ACCEPT, ...scope.headers },
      });
      const quads = scope.quads(await readRdf(this.client, described));
      return {
        uri: target,
        isBinary: true,
        quads,
        children: [],
        parent: this.parentOf(target, quads),
        // A metadata PATCH goes to the description, and Fedora checks If-Match against its ETag.
        etag: described.header('etag'),
      };
    }
    this.patchTargets.remember(target, target);
    const quads = scope.quads(await readRdf(this.client, response));
    return {
      uri: target,
      isBinary: false,
      quads,
      children: childrenOf(target, quads),
      parent: this.parentOf(target, quads),
      etag: response.header('etag'),
    };
  }

  async createChild(
    parentUri: string,
    statements: readonly ChildStatement[],
    tx?: TransactionRef,
    options: CreateOptions = {},
  ): Promise<string> {
    const parent = this.client.confine(parentUri);
    const named =
      options.name === undefined
        ? undefined
        : namedChildUri(this.client, parent, options.name, 'FEDORA', true);
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
    const scope = this.scope(tx);
    const headers = {
      'content-type': 'text/turtle',
      // Fedora 4.7 reads no interaction model from Link: Turtle makes a container.
      ...(this.fedoraDialect === 'FEDORA_4' ? {} : { link: `<${LDP.BasicContainer}>; rel="type"` }),
      ...scope.headers,
    };
    if (named !== undefined) {
      // `<>` is the PUT's own IRI. Fedora answers 412 to If-None-Match: * when the resource exists.
      const put = {
        method: 'PUT',
        uri: scope.url(named),
        headers: { ...headers, ...NEW_ONLY },
        body,
      } as const;
      await discard(await putNew(this.client, put, named, [412]));
      this.patchTargets.remember(named, named);
      return named;
    }
    const response = await this.client.expectOk({ method: 'POST', uri: scope.url(parent), headers, body });
    const created = scope.canonical(await createdUri(this.client, response, true));
    this.patchTargets.remember(created, created);
    return created;
  }

  async updateTriples(
    uri: string,
    remove: readonly Quad[],
    add: readonly Quad[],
    tx?: TransactionRef,
    conditions: WriteConditions = {},
  ): Promise<void> {
    const target = this.client.confine(uri);
    const update = buildDataUpdate(remove, add);
    if (update === '') return;
    const { ifMatch } = conditions;
    // Fedora checks If-Match atomically against the document PATCHed (in the transaction, its state there).
    const condition = ifMatch === undefined ? undefined : { ifMatch, resource: target };
    await this.patch(await this.patchTarget(target, tx), update, tx, condition);
  }

  async runUpdate(uri: string, update: string, tx?: TransactionRef): Promise<void> {
    const target = this.client.confine(uri);
    const text = vetAdapterUpdate(update, target, false, this.kind);
    await this.patch(await this.patchTarget(target, tx), text, tx);
  }

  async uploadBinary(
    parentUri: string,
    binary: NewBinary,
    tx?: TransactionRef,
    options: UploadOptions = {},
  ): Promise<string> {
    try {
      const parent = this.client.confine(parentUri);
      const named =
        options.name === undefined
          ? undefined
          : namedChildUri(this.client, parent, options.name, 'FEDORA', false);
      const scope = this.scope(tx);
      const headers = {
        // Fedora 4.7 makes a container of an RDF Content-Type and ignores Link: those go as octet-stream.
        'content-type': uploadContentType(this.fedoraDialect, binary.contentType),
        'content-disposition': formatDisposition(binary.filename),
        ...(this.fedoraDialect === 'FEDORA_4' ? {} : { link: `<${LDP.NonRDFSource}>; rel="type"` }),
        ...digestHeader(this.fedoraDialect, options.digest),
        ...scope.headers,
      };
      const body = binary.content;
      const response =
        named === undefined
          ? await this.client.expectOk({ method: 'POST', uri: scope.url(parent), headers, body })
          : await putNew(
              this.client,
              { method: 'PUT', uri: scope.url(named), headers: { ...headers, ...NEW_ONLY }, body },
              named,
              [412],
            );
      let created: string;
      if (named === undefined) created = scope.canonical(await createdUri(this.client, response, true));
      else {
        await discard(response);
        created = named;
      }
      const description = linkTargetsOf(response, 'describedby')[0];
      if (description !== undefined)
        this.patchTargets.remember(
          created,
          scope.canonical(this.client.confineAnswered(response, description)),
        );
      return created;
    } finally {
      drainUnread(binary.content);
    }
  }

  async downloadBinary(uri: string, tx?: TransactionRef): Promise<BinaryContent> {
    const target = this.client.confine(uri);
    const scope = this.scope(tx);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: scope.url(target),
      headers: { accept: '*/*', ...scope.headers },
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

  async exists(uri: string, tx?: TransactionRef): Promise<boolean> {
    const target = this.client.confine(uri);
    const scope = this.scope(tx);
    return resourceExists(this.client, scope.url(target), scope.headers);
  }

  async delete(uri: string, tx?: TransactionRef): Promise<void> {
    const target = this.client.confine(uri);
    const scope = this.scope(tx);
    const response = await this.client.expectOk({
      method: 'DELETE',
      uri: scope.url(target),
      headers: scope.headers,
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

  /** How requests reach resources in (or outside) `tx` on this Fedora line. */
  private scope(tx: TransactionRef | undefined): TxScope {
    return txScope(this.fedoraDialect, this.client.rootUri, tx);
  }

  /** A binary's description (canonical IRI): its `describedby` link, else `<uri>/fcr:metadata`. */
  private describedBy(response: UpstreamResponse, target: string, scope: TxScope): string {
    const advertised = linkTargetsOf(response, 'describedby')[0];
    if (advertised !== undefined) return scope.canonical(this.client.confineAnswered(response, advertised));
    return this.client.confine(`${target.replace(/\/+$/, '')}/fcr:metadata`);
  }

  /** Where triples of `target` are PATCHed: itself, or for a binary its description (one HEAD to find out). */
  private patchTarget(target: string, tx: TransactionRef | undefined): Promise<string> {
    const scope = this.scope(tx);
    return this.patchTargets.of(
      target,
      (response) =>
        hasTypeLink(response, LDP.NonRDFSource) ? this.describedBy(response, target, scope) : target,
      scope.headers,
      scope.url(target),
    );
  }

  private patch(
    target: string,
    update: string,
    tx: TransactionRef | undefined,
    condition?: PatchCondition,
  ): Promise<void> {
    const scope = this.scope(tx);
    return patchSparql(this.client, scope.url(target), update, { ...scope.headers }, condition);
  }

  private parentOf(target: string, quads: readonly Quad[]): string | undefined {
    const stated = quads.find(
      (q) => q.predicate.value === FEDORA.hasParent && sameResource(q.subject.value, target),
    );
    if (stated?.object.termType === 'NamedNode') return stated.object.value;
    return derivedParent(this.client.rootUri, target, false);
  }
}
