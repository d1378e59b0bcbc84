import type { KeyedQueue } from '../../shared/keyed-queue.js';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FedoraDialect } from '../../shared/fedora-dialect.js';
import type { BinaryStore } from '../binaries/binary-store.js';
import type { IriMapper } from '../rdf/terms.js';
import type { SparqlUpdateRunner } from '../sparql/update-runner.js';
import type { ResourceRecord } from '../store/record.js';
import type { RepositoryStore } from '../store/repository.store.js';
import type { AuditWho } from './audit-entries.js';
import { RepositoryError } from './errors.js';
import { MOUNT } from './paths.js';
import { ACCEPT_PATCH, ACCEPT_POST, link } from './render.js';

// What every handler module shares: the request context, the services behind it and small helpers.

export interface RepositorySettings {
  /** Largest RDF or SPARQL body, in bytes. */
  readonly rdfBodyLimit: number;
  readonly maxBinaryBytes: number;
  readonly txTimeoutMs: number;
  /** Which Fedora line the repository answers as (FEDORA_6 unless configured otherwise). */
  readonly dialect: FedoraDialect;
  /** Told of every fixity check that found a binary's size or digest wrong (metrics, DECISIONS.md §17). */
  readonly onFixityFailure?: () => void;
}

/** The services the handler modules work with, passed first to each of them. */
export interface RepositoryDeps {
  readonly store: RepositoryStore;
  readonly binaries: BinaryStore;
  readonly settings: RepositorySettings;
  readonly log: FastifyBaseLogger;
  /** Runs SPARQL Updates in worker threads, with a time and a solution limit. */
  readonly updates: SparqlUpdateRunner;
  /** Writes to one path in this process, one at a time (write-steps.ts `retrying`). */
  readonly writers: KeyedQueue;
}

/** One request as the handler modules see it. */
export interface Ctx {
  readonly request: FastifyRequest;
  readonly reply: FastifyReply;
  /** The repository root as this client addresses it, without the trailing slash. */
  readonly base: string;
  readonly mapper: IriMapper;
  readonly txId: string | null;
  readonly user: string;
  readonly now: number;
  /** Who the ledger records for this request's changes (audit-entries.ts). */
  readonly who: AuditWho;
}

// Request state of the /rest scope, as Fastify decorators (repositoryPlugin declares them, null first).
declare module 'fastify' {
  interface FastifyRequest {
    /** The user a request authenticated as (set by the plugin's Basic auth hook). */
    repositoryUser: string | null;
  }
  interface FastifyReply {
    /** The Expires header the plugin's onSend hook must give back (a transaction start). */
    repositoryExpires: string | null;
  }
}

/** `segment` under `iri` (fcr:metadata, fcr:versions, a memento), whether or not `iri` ends in a slash. */
export function sub(iri: string, segment: string): string {
  return `${iri.replace(/\/$/, '')}/${segment}`;
}

/** A request header as one string (repeated headers joined as HTTP allows). */
export function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) return true;
  }
  return false;
}

export function allowOf(record: ResourceRecord): string {
  if (record.kind === 'binary') return 'GET, HEAD, OPTIONS, PUT, DELETE';
  return record.path === ''
    ? 'GET, HEAD, OPTIONS, POST, PUT, PATCH'
    : 'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE';
}

/** The repository root as the client addressed it (scheme and Host of the request) plus /rest. */
export function baseOf(request: FastifyRequest): string {
  const host = request.host;
  if (host === '' || !/^[A-Za-z0-9.\-[\]:]+$/.test(host))
    throw RepositoryError.badRequest('Missing or malformed Host header');
  return `${request.protocol}://${host}${MOUNT}`;
}

/** The resource at `path` as this request sees it; 410 (with the tombstone link) or 404 otherwise. */
export async function visible(deps: RepositoryDeps, ctx: Ctx, path: string): Promise<ResourceRecord> {
  const record = await deps.store.get(path, ctx.txId);
  if (record !== undefined) return record;
  const gone = await deps.store.goneAt(path, ctx.txId);
  if (gone !== undefined) {
    throw new RepositoryError(410, 'The resource has been deleted', {
      headers: { link: link(sub(ctx.mapper.external(gone), 'fcr:tombstone'), 'hasTombstone') },
    });
  }
  throw RepositoryError.notFound();
}

/** The answer to OPTIONS: what the target allows and accepts. */
export function sendOptions(ctx: Ctx, allow: string, container: boolean): unknown {
  ctx.reply.header('allow', allow);
  ctx.reply.header('accept-patch', ACCEPT_PATCH);
  if (container) ctx.reply.header('accept-post', ACCEPT_POST);
  ctx.reply.header('accept-external-content-handling', '');
  return ctx.reply.code(200).send();
}

/**
 * Deletes content files no record references any more, in the background after the write that let go of
 * them; a failure only logs (the start-up sweep collects what is left).
 */
export function release(deps: RepositoryDeps, digests: readonly string[]): void {
  if (digests.length === 0) return;
  void (async () => {
    const referenced = await deps.store.referencedDigests(digests);
    await deps.binaries.remove(digests.filter((d) => !referenced.has(d)));
  })().catch((error: unknown) => {
    deps.log.warn({ err: error }, 'could not collect unreferenced binary content');
  });
}
