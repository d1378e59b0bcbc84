import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LockHeld, ParentMissing, RevisionConflict, TransactionUnusable } from '../store/errors.js';
import type { AuditEntry } from '../../audit/audit-event.js';
import { counted, requestEntry, type AuditWho } from './audit-entries.js';
import { header, release, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { httpDate } from './headers.js';
import type { Target } from './paths.js';
import { link, TX_COMMIT_REL } from './render.js';

// Transactions (fcr:tx): the Atomic-ID a request names, and the endpoint that starts, keeps alive,
// commits and rolls back.

/** The transaction named by Atomic-ID (full URI or bare id), refreshed; 409 when it cannot be used. */
export async function transactionOf(
  deps: RepositoryDeps,
  request: FastifyRequest,
  base: string,
): Promise<string | null> {
  const value = header(request, 'atomic-id')?.trim();
  if (value === undefined || value === '') return null;
  const id = value.includes('/') ? (value.replace(/\/$/, '').split('/').at(-1) ?? '') : value;
  if (
    !/^[A-Za-z0-9-]{1,64}$/.test(id) ||
    (value.includes('/') && !value.startsWith(`${base}/fcr:tx/`) && !value.includes('/fcr:tx/'))
  ) {
    throw RepositoryError.conflict(`Atomic-ID ${value.slice(0, 100)} does not name a transaction`, false);
  }
  try {
    await deps.store.touchTransaction(id, Date.now(), Date.now() + deps.settings.txTimeoutMs);
  } catch (error) {
    if (error instanceof TransactionUnusable) throw RepositoryError.conflict(error.message, false);
    throw error;
  }
  return id;
}

/** fcr:tx (POST starts one) and fcr:tx/{id} (GET status, POST keep alive, PUT commit, DELETE roll back). */
export async function transactionEndpoint(
  deps: RepositoryDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  base: string,
  target: Extract<Target, { kind: 'txEndpoint' | 'tx' }>,
  method: string,
  who: AuditWho,
): Promise<unknown> {
  const now = Date.now();
  const expiresAt = now + deps.settings.txTimeoutMs;
  if (target.kind === 'txEndpoint') {
    if (method === 'OPTIONS') return reply.header('allow', 'POST, OPTIONS').code(200).send();
    if (method !== 'POST') throw RepositoryError.notAllowed('Start a transaction with POST', 'POST, OPTIONS');
    const id = randomUUID();
    await deps.store.beginTransaction(id, now, expiresAt);
    const uri = `${base}/fcr:tx/${id}`;
    reply.repositoryExpires = httpDate(expiresAt);
    reply.header('location', uri);
    reply.header('atomic-expires', httpDate(expiresAt));
    reply.header('link', link(uri, TX_COMMIT_REL));
    return reply.code(201).type('text/plain; charset=utf-8').send(uri);
  }
  const id = target.id;
  const answer = (error: unknown): never => {
    if (error instanceof TransactionUnusable) {
      throw new RepositoryError(error.reason === 'unknown' ? 404 : 410, error.message);
    }
    throw error;
  };
  switch (method) {
    case 'GET':
    case 'HEAD': {
      const info = await deps.store.transaction(id);
      if (info === undefined) throw RepositoryError.notFound('Unknown transaction');
      if (info.state !== 'open' || info.expires <= now)
        throw new RepositoryError(410, `Transaction ${id} is no longer open`);
      reply.header('atomic-expires', httpDate(info.expires));
      return reply.code(204).send();
    }
    case 'POST': {
      await deps.store.touchTransaction(id, now, expiresAt).catch(answer);
      reply.header('atomic-expires', httpDate(expiresAt));
      return reply.code(204).send();
    }
    case 'PUT': {
      await commitWhole(deps, who, { id, iri: `${base}/fcr:tx/${id}` }, now, answer);
      return reply.code(204).send();
    }
    case 'DELETE': {
      const outcome = await rollBack(deps, who, { id, iri: `${base}/fcr:tx/${id}` }, now).catch(answer);
      release(deps, outcome.released);
      if (outcome.expired) throw new RepositoryError(410, `Transaction ${id} had expired`);
      return reply.code(204).send();
    }
    case 'OPTIONS':
      return reply.header('allow', 'GET, HEAD, POST, PUT, DELETE, OPTIONS').code(200).send();
    default:
      throw RepositoryError.notAllowed(
        'Not a transaction operation',
        'GET, HEAD, POST, PUT, DELETE, OPTIONS',
      );
  }
}

/**
 * Commits a transaction whole or not at all: a conflict (a change outside the transaction, a vanished
 * parent, a lock) rolls it back and is 409 (Fedora 6 and, through path-transactions.ts, 4.x/5.x alike);
 * any other failure goes to `otherwise`, which answers it in the caller's terms.
 */
export async function commitWhole(
  deps: RepositoryDeps,
  who: AuditWho,
  tx: TransactionNames,
  now: number,
  otherwise: (error: unknown) => never,
): Promise<void> {
  const { id } = tx;
  try {
    // The held events of its writes go to the ledger with the commit's own, in the commit's database
    // transaction: they appear only if it commits, at its time.
    let closing: AuditEntry[] = [];
    const released = await deps.store.commit(id, now, (events) => {
      closing = [requestEntry(who, 'transaction.commit', { transaction: tx.iri, events })];
      return closing;
    });
    counted(who, closing);
    release(deps, released);
  } catch (error) {
    if (!(error instanceof RevisionConflict || error instanceof ParentMissing || error instanceof LockHeld))
      otherwise(error);
    const { released } = await rollBack(deps, who, tx, Date.now(), 'conflict').catch(() => ({
      released: [] as string[],
    }));
    release(deps, released);
    throw RepositoryError.conflict(
      error instanceof RevisionConflict
        ? `Commit conflict on ${error.path}: it changed outside the transaction`
        : error.message,
      false,
    );
  }
}

/** A transaction as the ledger names it: its id, and its IRI as the client addressed it. */
export interface TransactionNames {
  readonly id: string;
  readonly iri: string;
}

/**
 * Rolls a transaction back: its held events are dropped (nothing they describe happened) and the
 * rollback is recorded, in the same database transaction.
 */
export async function rollBack(
  deps: RepositoryDeps,
  who: AuditWho,
  tx: TransactionNames,
  now: number,
  reason?: string,
): Promise<{ released: string[]; expired: boolean }> {
  let closing: AuditEntry[] = [];
  const outcome = await deps.store.rollback(tx.id, now, (events, expired) => {
    const why = expired ? 'expired' : reason;
    closing = [
      requestEntry(who, 'transaction.rollback', {
        transaction: tx.iri,
        events,
        ...(why === undefined ? {} : { reason: why }),
      }),
    ];
    return closing;
  });
  counted(who, closing);
  return outcome;
}
