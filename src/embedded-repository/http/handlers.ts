import { ACTOR_RELAY_HEADER, type ActorRelay } from '../../audit/audit-actor.js';
import { KeyedQueue } from '../../shared/keyed-queue.js';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { BinaryStore } from '../binaries/binary-store.js';
import { IriMapper } from '../rdf/terms.js';
import type { SparqlUpdateRunner } from '../sparql/update-runner.js';
import type { RepositoryStore } from '../store/repository.store.js';
import type { AuditWho } from './audit-entries.js';
import { constraints } from './constraints.js';
import {
  allowOf,
  baseOf,
  release,
  sendOptions,
  visible,
  type Ctx,
  type RepositoryDeps,
  type RepositorySettings,
} from './context.js';
import { description } from './descriptions.js';
import { RepositoryError } from './errors.js';
import { fixity } from './fixity.js';
import {
  asGone,
  pathTransaction,
  pathTransactionAction,
  startPathTransaction,
  TxIriMapper,
} from './path-transactions.js';
import { parseRequest, type Target } from './paths.js';
import { getResource } from './resource-reads.js';
import { deleteResource, patch, post, put } from './resource-writes.js';
import { tombstone } from './tombstones.js';
import { transactionEndpoint, transactionOf } from './transactions.js';
import { memento, versions } from './versions.js';

/**
 * The embedded repository's request handling: one entry point that parses the target and dispatches by
 * what it names and the method to the module for that target (resource reads and writes, descriptions,
 * versions, transactions, fixity, tombstones). Every answer is an LDP/Fedora answer; failures are
 * RepositoryErrors that the plugin's error handler writes as plain text with the right status.
 */
export class RepositoryHandlers {
  private readonly deps: RepositoryDeps;

  constructor(
    store: RepositoryStore,
    binaries: BinaryStore,
    settings: RepositorySettings,
    log: FastifyBaseLogger,
    /** Runs SPARQL Updates in worker threads, with a time and a solution limit. */
    updates: SparqlUpdateRunner,
    /** Redeems the service's actor of a request made by one of its own views (audit-actor.ts). */
    private readonly relay?: ActorRelay,
  ) {
    this.deps = { store, binaries, settings, log, updates, writers: new KeyedQueue() };
  }

  async handle(request: FastifyRequest, reply: FastifyReply): Promise<unknown> {
    const deps = this.deps;
    const { target, pathTx } = parseRequest(request.raw.url ?? '', deps.settings.dialect);
    const base = baseOf(request);
    const method = request.method;
    const who = this.who(request, base);
    if (deps.settings.dialect !== 'FEDORA_6') {
      // Fedora 4.x/5.x: transactions in the path; an Atomic-ID header means nothing to them.
      if (target.kind === 'txEndpoint') return startPathTransaction(deps, reply, base, method);
      if (target.kind === 'txAction')
        return pathTransactionAction(deps, reply, target.id, target.action, method, who, base);
    } else if (target.kind === 'txEndpoint' || target.kind === 'tx') {
      return transactionEndpoint(deps, request, reply, base, target, method, who);
    }
    if (target.kind === 'constraints') return constraints(reply, method);
    if (target.kind === 'tx' || target.kind === 'txAction') throw RepositoryError.notFound();
    if (pathTx !== null) {
      const txId = await pathTransaction(deps, pathTx);
      // Every IRI of the answer is tx-prefixed: the context's base is the transaction's.
      const ctx = context(request, reply, `${base}/tx:${txId}`, new TxIriMapper(base, txId), txId, who);
      return dispatch(deps, ctx, target, method).catch((error: unknown) => {
        throw asGone(error);
      });
    }
    const txId = deps.settings.dialect === 'FEDORA_6' ? await transactionOf(deps, request, base) : null;
    const ctx = context(request, reply, base, who.mapper, txId, who);
    if (ctx.txId !== null) reply.header('atomic-id', `${base}/fcr:tx/${ctx.txId}`);
    return dispatch(deps, ctx, target, method);
  }

  /**
   * Who the ledger records for a request: the service's actor when the relay header redeems to one (a
   * request of the service's own, through a view), else the Basic-auth user. Taken from the request
   * itself, never from the async context the handler happens to run in. A header that redeems to
   * nothing (guessed, replayed, released) is ignored.
   */
  private who(request: FastifyRequest, base: string): AuditWho {
    return {
      actor: this.relay?.redeem(request.headers[ACTOR_RELAY_HEADER]),
      username: request.repositoryUser,
      requestId: request.id,
      mapper: new IriMapper(base),
    };
  }

  /** Removes content files no longer referenced (after expired transactions were reaped, say). */
  release(digests: readonly string[]): void {
    release(this.deps, digests);
  }
}

type ResourceTarget = Exclude<Target, { kind: 'txEndpoint' | 'tx' | 'txAction' | 'constraints' }>;

function context(
  request: FastifyRequest,
  reply: FastifyReply,
  base: string,
  mapper: IriMapper,
  txId: string | null,
  who: AuditWho,
): Ctx {
  const user = request.repositoryUser ?? 'anonymous';
  return { request, reply, base, mapper, txId, user, now: Date.now(), who };
}

/** Dispatches by what the target names. */
function dispatch(deps: RepositoryDeps, ctx: Ctx, target: ResourceTarget, method: string): Promise<unknown> {
  switch (target.kind) {
    case 'resource':
      return resource(deps, ctx, target.path, method);
    case 'metadata':
      return description(deps, ctx, target.path, method);
    case 'versions':
      return versions(deps, ctx, target.path, method);
    case 'memento':
      return memento(deps, ctx, target.path, target.memento, method);
    case 'fixity':
      return fixity(deps, ctx, target.path, method);
    case 'tombstone':
      return tombstone(deps, ctx, target.path, method);
  }
}

/** A resource itself (container or binary): reads here, writes in resource-writes.ts. */
async function resource(deps: RepositoryDeps, ctx: Ctx, path: string, method: string): Promise<unknown> {
  switch (method) {
    case 'GET':
    case 'HEAD':
      return getResource(deps, ctx, path, method === 'HEAD');
    case 'OPTIONS': {
      const record = await visible(deps, ctx, path);
      return sendOptions(ctx, allowOf(record), record.kind === 'container');
    }
    case 'POST':
      return post(deps, ctx, path);
    case 'PUT':
      return put(deps, ctx, path);
    case 'PATCH':
      return patch(deps, ctx, path, false);
    case 'DELETE':
      return deleteResource(deps, ctx, path);
    default:
      throw RepositoryError.notAllowed(
        `${method} is not supported`,
        'GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE',
      );
  }
}
