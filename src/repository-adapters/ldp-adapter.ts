import { randomUUID } from 'node:crypto';
import type { Quad } from '@rdfjs/types';
import { BadRequestError, CapabilityUnsupportedError, PreconditionFailedError } from '../shared/errors.js';
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
  sameEtag,
  sameResource,
  type PatchCondition,
} from './upstream-exchange.js';
import { dispositionFilename, formatDisposition } from '../linked-data/http/content-disposition.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { isRdfMediaType, RDF_ACCEPT, UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { literal, namedNode, quad } from '../linked-data/rdf/terms.js';
import { EBUCORE, LDP, RDF_TYPE } from '../linked-data/rdf/vocab.js';
import type {
  BinaryContent,
  ChildStatement,
  CreateOptions,
  NewBinary,
  RepositoryAdapter,
  ResourceDescription,
  TransactionRef,
  UploadOptions,
  VerificationResult,
  WriteConditions,
} from './repository-adapter.js';
import {
  abandon,
  discard,
  type RepositoryHttpClient,
  type UpstreamResponse,
} from './repository-http-client.js';
import { PatchTargets } from './patch-targets.js';
import { deleteTree } from './ldp-delete-tree.js';
import { NEW_ONLY, TargetExistsError, namedChildUri, putNew, resourceExists } from './named-children.js';
import { checkAuthRoot, checkRootContent, pingRoot } from './root-checks.js';
import { buildDataUpdate, vetAdapterUpdate } from './sparql-update-builder.js';

export { MAX_DELETE_COUNT, MAX_DELETE_DEPTH } from './ldp-delete-tree.js';

type ResourceShape = 'container' | 'binary' | 'document';

/** What a named creation (If-None-Match: *) hears when its target exists: 412, or CSS's 409 for a container. */
const EXISTS: readonly number[] = [409, 412];

/**
 * Any Linked Data Platform server (tested against Community Solid Server 7.2): descriptions through
 * `Link rel="describedby"` (CSS: `.meta`), children created then described with a PATCH of absolute
 * subjects, BGP-only SPARQL Update, 205 as success, client-side recursive delete. No transactions,
 * versions or fixity: those facets are absent (see `repository-kinds.ts`), and a `tx` given to any
 * method throws CapabilityUnsupportedError naming transactions.
 */
export class LdpAdapter implements RepositoryAdapter {
  readonly kind = 'LDP' as const;
  /** Where a resource's triples are PATCHed (describedby for containers and binaries, else itself). */
  private readonly patchTargets: PatchTargets;

  constructor(readonly client: RepositoryHttpClient) {
    this.patchTargets = new PatchTargets(client);
  }

  async describe(uri: string, tx?: TransactionRef): Promise<ResourceDescription> {
    this.noTransaction(tx);
    const target = this.client.confine(uri);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: target,
      headers: { accept: DESCRIBE_ACCEPT },
    });
    const shape = shapeOf(response);
    const description = this.rememberPatchTarget(target, response, shape);
    // Always the resource's own ETag, even where triples are PATCHed to a description: CSS's `.meta`
    // sends none and ignores If-Match, while the resource's ETag changes when its `.meta` does.
    const etag = response.header('etag');
    if (shape === 'binary') {
      abandon(response);
      const quads =
        description === target
          ? []
          : await readRdf(
              this.client,
              await this.client.expectOk({
                method: 'GET',
                uri: description,
                headers: { accept: RDF_ACCEPT },
              }),
            );
      return {
        uri: target,
        isBinary: true,
        quads,
        children: [],
        parent: derivedParent(this.client.rootUri, target, true),
        etag,
      };
    }
    const all = await readRdf(this.client, response);
    const children = shape === 'container' ? childrenOf(target, all) : [];
    // Servers such as CSS add each child's own metadata to a container's representation; those
    // statements describe the children, not this resource.
    const childSet = new Set(children);
    const quads = all.filter((q) => !(childSet.has(q.subject.value) && q.predicate.value !== LDP.contains));
    return {
      uri: target,
      isBinary: false,
      quads,
      children,
      parent: derivedParent(this.client.rootUri, target, true),
      etag,
    };
  }

  async createChild(
    parentUri: string,
    statements: readonly ChildStatement[],
    tx?: TransactionRef,
    options: CreateOptions = {},
  ): Promise<string> {
    this.noTransaction(tx);
    const parent = this.client.confine(parentUri);
    const named =
      options.name === undefined ? undefined : namedChildUri(this.client, parent, options.name, 'LDP', true);
    for (const s of statements) checkedIri(s.predicate);
    // CSS ignores a container's body (POST or PUT): its statements are PATCHed to its description below.
    const headers = { 'content-type': 'text/turtle', link: `<${LDP.BasicContainer}>; rel="type"` };
    const post = {
      method: 'POST',
      uri: parent,
      headers: { ...headers, slug: randomUUID() },
      body: '',
    } as const;
    const put = {
      method: 'PUT',
      uri: named ?? parent,
      headers: { ...headers, ...NEW_ONLY },
      body: '',
    } as const;
    const response =
      named === undefined ? await this.client.expectOk(post) : await putNew(this.client, put, named, EXISTS);
    const created = named ?? (await createdUri(this.client, response, false));
    if (named !== undefined) await discard(response);
    if (statements.length === 0) return created;
    const subject = namedNode(created);
    const add = statements.map((s) => quad(subject, namedNode(s.predicate), s.object as Quad['object']));
    try {
      await this.patch(await this.patchTarget(created), buildDataUpdate([], add));
    } catch (error) {
      // Do not leave an empty child behind when its statements could not be written.
      await this.client.send({ method: 'DELETE', uri: created }).then(discard, () => undefined);
      throw error;
    }
    return created;
  }

  async updateTriples(
    uri: string,
    remove: readonly Quad[],
    add: readonly Quad[],
    tx?: TransactionRef,
    conditions: WriteConditions = {},
  ): Promise<void> {
    this.noTransaction(tx);
    const target = this.client.confine(uri);
    const update = buildDataUpdate(remove, add);
    if (update === '') return;
    const where = await this.patchTarget(target);
    const { ifMatch } = conditions;
    if (ifMatch === undefined) return this.patch(where, update);
    // The resource itself: the server checks If-Match atomically with the write.
    if (where === target) return this.patch(where, update, { ifMatch, resource: target });
    // A description (`.meta`): the ETag is the resource's (see `describe`), which the server would not
    // check there, so the adapter compares it first. Not atomic: a write landing between the HEAD and
    // the PATCH goes unnoticed.
    await this.checkUnchanged(target, ifMatch);
    return this.patch(where, update);
  }

  async runUpdate(uri: string, update: string, tx?: TransactionRef): Promise<void> {
    this.noTransaction(tx);
    const target = this.client.confine(uri);
    const text = vetAdapterUpdate(update, target, true, this.kind);
    await this.patch(await this.patchTarget(target), text);
  }

  async uploadBinary(
    parentUri: string,
    binary: NewBinary,
    tx?: TransactionRef,
    options: UploadOptions = {},
  ): Promise<string> {
    let parent: string;
    let named: string | undefined;
    try {
      this.noTransaction(tx);
      parent = this.client.confine(parentUri);
      named =
        options.name === undefined
          ? undefined
          : namedChildUri(this.client, parent, options.name, 'LDP', false);
    } catch (error) {
      drainUnread(binary.content);
      throw error;
    }
    // Named by us, so that what an interrupted upload left can be found and removed. No Digest: CSS ignores it.
    const slug = randomUUID();
    const headers = {
      'content-type': binary.contentType === '' ? 'application/octet-stream' : binary.contentType,
      'content-disposition': formatDisposition(binary.filename),
    };
    let response: UpstreamResponse;
    try {
      response = await this.client.send(
        named === undefined
          ? { method: 'POST', uri: parent, headers: { ...headers, slug }, body: binary.content }
          : { method: 'PUT', uri: named, headers: { ...headers, ...NEW_ONLY }, body: binary.content },
      );
    } catch (error) {
      // A named PUT may have been refused (412) while its body was sent: its target is not ours to delete.
      if (named === undefined) await this.removeInterrupted(parent, slug);
      throw error;
    } finally {
      drainUnread(binary.content);
    }
    if (named !== undefined && EXISTS.includes(response.status))
      throw await discard(response).then(() => new TargetExistsError(named, response.status));
    if (response.status < 200 || response.status >= 300) throw await this.client.fail(response);
    const created = named ?? (await createdUri(this.client, response, false));
    if (named !== undefined) await discard(response);
    // Generic LDP servers drop the filename; it is kept in the binary's description.
    if (binary.filename !== '') {
      const target = await this.patchTarget(created);
      if (target !== created) {
        await this.patch(
          target,
          buildDataUpdate(
            [],
            [quad(namedNode(created), namedNode(EBUCORE.filename), literal(binary.filename))],
          ),
        );
      }
    }
    return created;
  }

  async downloadBinary(uri: string, tx?: TransactionRef): Promise<BinaryContent> {
    this.noTransaction(tx);
    const target = this.client.confine(uri);
    const response = await this.client.expectOk({ method: 'GET', uri: target, headers: { accept: '*/*' } });
    const shape = shapeOf(response);
    if (shape !== 'binary') {
      abandon(response);
      throw new BadRequestError(`${target} is not a binary`);
    }
    const description = this.rememberPatchTarget(target, response, shape);
    let filename = dispositionFilename(response.header('content-disposition'));
    if (filename === undefined && description !== target) {
      try {
        const described = await this.client.expectOk({
          method: 'GET',
          uri: description,
          headers: { accept: RDF_ACCEPT },
        });
        const quads = await readRdf(this.client, described);
        filename = quads.find(
          (q) => q.predicate.value === EBUCORE.filename && sameResource(q.subject.value, target),
        )?.object.value;
      } catch (error) {
        abandon(response);
        throw error;
      }
    }
    return {
      content: response.body,
      contentType: response.header('content-type') ?? 'application/octet-stream',
      filename,
      size: contentLengthOf(response),
    };
  }

  async exists(uri: string, tx?: TransactionRef): Promise<boolean> {
    this.noTransaction(tx);
    return resourceExists(this.client, this.client.confine(uri));
  }

  async delete(uri: string, tx?: TransactionRef): Promise<void> {
    this.noTransaction(tx);
    const target = this.client.confine(uri);
    await deleteTree(this.client, target, this.patchTargets);
  }

  ping(): Promise<VerificationResult> {
    return pingRoot(this.client);
  }

  checkAuth(): Promise<VerificationResult> {
    return checkAuthRoot(this.client);
  }

  checkContent(): Promise<VerificationResult> {
    const root = this.client.rootUri;
    return checkRootContent(this.client, { accept: RDF_ACCEPT }, async (response) => {
      if (hasTypeLink(response, LDP.Container) || hasTypeLink(response, LDP.BasicContainer)) {
        await discard(response);
        return { ok: true };
      }
      if (isRdfMediaType(mediaTypeOf(response.header('content-type')), UPSTREAM_ANSWER)) {
        const quads = await readRdf(this.client, response);
        const typed = quads.some(
          (q) =>
            sameResource(q.subject.value, root) &&
            q.predicate.value === RDF_TYPE &&
            (q.object.value === LDP.Container || q.object.value === LDP.BasicContainer),
        );
        if (typed) return { ok: true };
      } else {
        await discard(response);
      }
      return {
        ok: false,
        message: `${root} is not a Linked Data Platform container: it is not typed ldp:Container`,
      };
    });
  }

  // ---- helpers ----------------------------------------------------------------------------------

  private noTransaction(tx: TransactionRef | undefined): void {
    if (tx !== undefined) throw new CapabilityUnsupportedError('transactions', this.kind);
  }

  /** Remembers (and answers) where the triples of `target` are PATCHed, from a response about it. */
  private rememberPatchTarget(target: string, response: UpstreamResponse, shape: ResourceShape): string {
    const advertised = linkTargetsOf(response, 'describedby')[0];
    const description =
      shape === 'document' || advertised === undefined
        ? target
        : this.client.confineAnswered(response, advertised);
    return this.patchTargets.remember(target, description);
  }

  private patchTarget(target: string): Promise<string> {
    return this.patchTargets.of(target, (response) =>
      this.rememberPatchTarget(target, response, shapeOf(response)),
    );
  }

  private patch(target: string, update: string, condition?: PatchCondition): Promise<void> {
    return patchSparql(this.client, target, update, {}, condition);
  }

  /**
   * One HEAD of `target` (with describe's Accept: CSS's ETag names the media type answered); another
   * ETag than `ifMatch`, or none, is a PreconditionFailedError.
   */
  private async checkUnchanged(target: string, ifMatch: string): Promise<void> {
    const response = await this.client.expectOk({
      method: 'HEAD',
      uri: target,
      headers: { accept: DESCRIBE_ACCEPT },
    });
    await discard(response);
    const current = response.header('etag');
    if (current === undefined || !sameEtag(current, ifMatch)) throw new PreconditionFailedError(target);
  }

  /**
   * After an upload that got no answer (its body failed, e.g. over the size limit and aborted, or the
   * connection broke): a server may keep what it had read — Community Solid Server's file backend keeps
   * the truncated file as a resource — so the resource the upload would have created is deleted. Best
   * effort: a server that ignored the Slug named it otherwise, and then it cannot be found.
   */
  private async removeInterrupted(parent: string, slug: string): Promise<void> {
    const uri = `${parent.endsWith('/') ? parent : `${parent}/`}${slug}`;
    await this.client.send({ method: 'DELETE', uri }).then(discard, () => undefined);
  }
}

/** Container (Link type), binary (not RDF), or plain RDF document. */
function shapeOf(response: UpstreamResponse): ResourceShape {
  if (hasTypeLink(response, LDP.Container) || hasTypeLink(response, LDP.BasicContainer)) return 'container';
  return isRdfMediaType(mediaTypeOf(response.header('content-type')), UPSTREAM_ANSWER)
    ? 'document'
    : 'binary';
}
