import type { Readable } from 'node:stream';
import type { Quad, Term } from '@rdfjs/types';
import type { FedoraDialect } from '../shared/fedora-dialect.js';

/**
 * One interface for every kind of repository a view can point at (DECISIONS.md §6–7, interface §4.4).
 * Implementations: `FedoraAdapter` (Fedora 4.x, 5.x, 6.x/7.x HTTP APIs, also our embedded repository;
 * `DetectingFedoraAdapter` finds the line first) and `LdpAdapter`
 * (any Linked Data Platform server, e.g. Community Solid Server). Kinds are chosen in `create-adapter.ts`.
 *
 * Obligations of every implementation:
 * - Every request goes through `RepositoryHttpClient`: confined to the view's origin and root path, with
 *   the view's Basic credentials, timeouts and response size limits. URIs passed in are absolute and
 *   already confined by the caller; the adapter refuses any other.
 * - Upstream failures throw `UpstreamFailedError` whose message names the upstream status and URL, never
 *   the credentials. A missing resource throws `UpstreamFailedError` too (the interface answers 200 ERROR).
 * - Transactions, versions and fixity are optional facets (`transactions`, `versions`, `fixity`): a kind
 *   that lacks one leaves it undefined, and callers ask for it with `requireFacet`, which throws
 *   `CapabilityUnsupportedError` naming the feature. The kind's declaration in `repository-kinds.ts` lists
 *   its facets; the contract suite checks declaration and adapter agree. A `tx` given to a kind without
 *   transactions is a `CapabilityUnsupportedError` too, never a silent no-op.
 * - Every SPARQL Update sent is generated from terms (sparqljs Generator); text from a request is never
 *   pasted into a query. `runUpdate` receives an already parsed and vetted update.
 * - `tx`, when given, is the transaction the request acts in; reads and writes see its state.
 * - URIs outside the view's root (other hosts, `../`, `%2e%2e`, `%2F`, credentials in the URI) are refused
 *   with a `BadRequestError` before any request is sent; a link the repository answers outside the root
 *   (Location, describedby) is an `UpstreamFailedError`.
 * - The exact upstream requests of every method, per kind, are listed in `src/repository-adapters/README.md`.
 */
/** The five flags of a context and of a view type; derived from facets by `featuresOf`/`featuresFrom`. */
export interface RepositoryFeatures {
  readonly versioning: boolean;
  readonly verifying: boolean;
  readonly transacting: boolean;
  readonly queryable: boolean;
  readonly fixity: boolean;
}

export type RepositoryKind = 'FEDORA' | 'LDP';

/** A transaction as the adapter knows it: its id (the UUID part of `tx:<id>`). */
export interface TransactionRef {
  readonly id: string;
}

export interface TransactionInfo {
  readonly id: string;
  /** Epoch milliseconds at which the repository will roll the transaction back by itself. */
  readonly expiresAt: number;
}

/** What the context builder needs about one resource. */
export interface ResourceDescription {
  /** The resource's IRI (never the transaction-scoped form). */
  readonly uri: string;
  /** True for a binary (non-RDF source); `quads` then describe it (its description, e.g. fcr:metadata). */
  readonly isBinary: boolean;
  /** The resource's triples as the repository serves them, server-managed ones included. */
  readonly quads: readonly Quad[];
  /** IRIs of contained resources (ldp:contains). */
  readonly children: readonly string[];
  /** The container's IRI, when the repository says (fedora:hasParent or derived from the path). */
  readonly parent?: string | undefined;
  /**
   * The entity tag to pass as `ifMatch` to `updateTriples`, as the repository sent it (a weak `W/` kept);
   * undefined when it sends none. It is the ETag of the document `updateTriples` PATCHes: the resource's
   * own GET, or for a binary its description's GET (FEDORA: fcr:metadata). LDP servers whose descriptions
   * carry no ETag (Community Solid Server's `.meta`) get the resource's own, which changes with them.
   * Inside a transaction, the ETag the repository answers in it. Any write, and on most repositories
   * a child created or deleted, changes it.
   */
  readonly etag?: string | undefined;
}

/** Conditions a write is sent under. */
export interface WriteConditions {
  /**
   * An ETag `describe` reported: the write is sent with `If-Match` and, when the resource has changed
   * since, throws `PreconditionFailedError` and writes nothing.
   */
  readonly ifMatch?: string | undefined;
}

export interface NewBinary {
  readonly content: Readable;
  readonly filename: string;
  readonly contentType: string;
}

export interface BinaryContent {
  readonly content: Readable;
  readonly contentType: string;
  readonly filename?: string | undefined;
  readonly size?: number | undefined;
}

export interface FixityResult {
  readonly status: 'SUCCESS' | 'BAD_CHECKSUM' | 'BAD_SIZE';
  /** e.g. `urn:sha-512:<hex>` */
  readonly messageDigest: string;
  /** Bytes, as text. */
  readonly size: string;
}

export interface VersionInfo {
  /** The label if the repository keeps one, else the memento's timestamp segment. */
  readonly name: string;
  /** ISO-8601 instant. */
  readonly time: string;
  /** The memento's IRI. */
  readonly uri: string;
}

export interface VerificationResult {
  readonly ok: boolean;
  /** Present when not ok: e.g. `Authentication failed. Status 401`. */
  readonly message?: string | undefined;
}

/** A binary's digest the caller knows; a Fedora repository verifies the upload against it. */
export interface UploadDigest {
  readonly algorithm: 'sha1' | 'sha-256' | 'sha-512';
  /** Lower- or upper-case hex. */
  readonly hex: string;
}

/**
 * Named creation: with `name`, the resource is created at exactly `<parent>/<name>` (the name encoded as
 * one segment; LDP containers end with `/`) by a PUT with `If-None-Match: *`, or a `TargetExistsError`
 * (`named-children.ts`) is thrown when something is there, and nothing is written. Without `name` the
 * repository names it. A `name` that is not one plain segment is a BadRequestError before any request.
 */
export interface CreateOptions {
  readonly name?: string;
}

export interface UploadOptions extends CreateOptions {
  /**
   * FEDORA: sent as `Digest` so that the repository refuses bytes that do not match (an
   * UpstreamFailedError, status 409, nothing kept). 4.x verifies SHA-1 only; other algorithms are not
   * sent there. LDP servers do not check digests: never sent.
   */
  readonly digest?: UploadDigest;
}

/** A predicate/object pair for a new child; the subject is the child being created. */
export interface ChildStatement {
  readonly predicate: string;
  readonly object: Term;
}

/** Transactions (Fedora `fcr:tx`); `tx` arguments elsewhere act inside one. */
export interface TransactionFacet {
  begin(): Promise<TransactionInfo>;
  refresh(tx: TransactionRef): Promise<TransactionInfo>;
  commit(tx: TransactionRef): Promise<void>;
  rollback(tx: TransactionRef): Promise<void>;
}

/** Versions (Fedora mementos). */
export interface VersionFacet {
  /** Versions oldest first. */
  list(uri: string): Promise<VersionInfo[]>;
  /**
   * `label` is sent as `Slug` when not blank (the embedded repository keeps it; Fedora 6 may refuse it).
   * Fedora 4: the label is the version's name (blank: `version-<yyyyMMddHHmmss>`; labels 4.x refuses are a
   * BadRequestError). Fedora 5: no `Slug` is sent and the name is the memento's segment.
   */
  create(uri: string, label: string): Promise<VersionInfo>;
  /** Restores the resource a memento belongs to from the memento; answers the resource's IRI. */
  restore(versionUri: string): Promise<string>;
  /** Fedora 6/7 answer 405 (mementos cannot be deleted): an UpstreamFailedError saying so. 4.x/5.x delete. */
  delete(versionUri: string): Promise<void>;
}

/** Fixity checks of binaries. */
export interface FixityFacet {
  check(uri: string, tx?: TransactionRef): Promise<FixityResult>;
}

/** The optional facets, by the feature name `CapabilityUnsupportedError` gives when one is absent. */
export type Capability = 'transactions' | 'versions' | 'fixity';

export interface RepositoryAdapter {
  readonly kind: RepositoryKind;
  /**
   * FEDORA only: the Fedora line spoken (pinned by the view, or detected on first use, which this call
   * may trigger). Features are the same on every line.
   */
  dialect?(): Promise<FedoraDialect>;

  /**
   * Reads a resource. FEDORA: one GET (binaries: plus one GET of their describedby). LDP: one GET
   * (binaries: plus one GET of their describedby); statements a container's representation carries about
   * its children (CSS adds them) are left out of `quads`.
   */
  describe(uri: string, tx?: TransactionRef): Promise<ResourceDescription>;
  /**
   * Creates ONE child container of `parentUri` carrying the statements; answers the child's IRI. With
   * `options.name`, at exactly that IRI or a TargetExistsError (see `CreateOptions`).
   */
  createChild(
    parentUri: string,
    statements: readonly ChildStatement[],
    tx?: TransactionRef,
    options?: CreateOptions,
  ): Promise<string>;
  /**
   * Deletes then inserts triples about `uri` (both may be empty); generated as one SPARQL Update
   * (`DELETE DATA {…} ; INSERT DATA {…}`), sent to the resource or, for binaries and LDP containers, to
   * its description. Nothing to change sends nothing. Statements to remove may not hold blank nodes
   * (BadRequestError). Costs one PATCH when the adapter has described `uri` before, else a HEAD first.
   * With `conditions.ifMatch` the PATCH carries `If-Match`; a 412 throws `PreconditionFailedError`.
   * LDP descriptions without ETags (CSS `.meta`, which ignores If-Match) cost two HEADs first and the
   * resource's ETag is compared by the adapter (see README.md: a write in between is not caught).
   */
  updateTriples(
    uri: string,
    remove: readonly Quad[],
    add: readonly Quad[],
    tx?: TransactionRef,
    conditions?: WriteConditions,
  ): Promise<void>;
  /**
   * Runs a vetted SPARQL Update (already parsed; `<>` means `uri`) against the resource's graph. The
   * adapter parses it again and sends the generator's output with absolute IRIs; LOAD/CLEAR/DROP/…,
   * GRAPH, WITH, USING and SERVICE are a BadRequestError; LDP refuses WHERE clauses beyond basic graph
   * patterns with a CapabilityUnsupportedError.
   */
  runUpdate(uri: string, update: string, tx?: TransactionRef): Promise<void>;
  /**
   * Uploads a binary as a new child of `parentUri`, streaming; answers the binary's IRI. The filename
   * and content type are kept (LDP: the filename as `ebucore:filename` in the binary's description).
   * With `options.name`, at exactly that IRI or a TargetExistsError (see `UploadOptions`).
   */
  uploadBinary(
    parentUri: string,
    binary: NewBinary,
    tx?: TransactionRef,
    options?: UploadOptions,
  ): Promise<string>;
  /** Whether a resource is at `uri` (one HEAD): 2xx true, 404/410 false, any other answer throws. */
  exists(uri: string, tx?: TransactionRef): Promise<boolean>;
  /** Streams a binary (the caller must consume or destroy `content`); a non-binary is a BadRequestError. */
  downloadBinary(uri: string, tx?: TransactionRef): Promise<BinaryContent>;
  /**
   * Deletes the resource (recursively where the repository can; LDP servers that refuse to delete a
   * non-empty container get its children deleted first, at most 16 levels and 1000 resources).
   */
  delete(uri: string, tx?: TransactionRef): Promise<void>;
  /** Absent when the kind has no transactions (LDP). */
  readonly transactions?: TransactionFacet;
  /** Absent when the kind keeps no versions (LDP). */
  readonly versions?: VersionFacet;
  /** Absent when the kind cannot check fixity (LDP). */
  readonly fixity?: FixityFacet;

  /**
   * Verification (interface §4.7, DECISIONS.md §6). Never throws: `{ ok: false, message }` names why —
   * ping: `Ping failed: GET <root> failed: connect ECONNREFUSED …` / `… timed out after 30 s`; auth:
   * `Authentication failed. Status <code>`; content: `<root> is not a Fedora repository root: …` /
   * `<root> is not a Linked Data Platform container: …` / `Content check failed: <upstream failure>`.
   */
  ping(): Promise<VerificationResult>;
  checkAuth(): Promise<VerificationResult>;
  checkContent(): Promise<VerificationResult>;
}
