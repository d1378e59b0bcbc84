import { randomUUID } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { IriMapper } from '../rdf/terms.js';
import { TransactionUnusable } from '../store/errors.js';
import { release, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { httpDate } from './headers.js';
import type { AuditWho } from './audit-entries.js';
import { commitWhole, rollBack } from './transactions.js';
import type { TxAction } from './paths.js';

// Transactions in the path, as Fedora 4.x and 5.x have them (fedora-api.md §1.6, left column):
// POST /rest/fcr:tx starts one at /rest/tx:<id>; requests inside go to /rest/tx:<id>/<path> and see
// tx-prefixed IRIs; POST …/fcr:tx refreshes, …/fcr:tx/fcr:commit commits, …/fcr:tx/fcr:rollback rolls
// back. A transaction that is unknown, expired or finished is 410 Gone everywhere (SessionMissingException).
// The transaction store is the one Fedora 6's Atomic-ID surface uses; only the HTTP surface differs.

const TX_ID = /^[A-Za-z0-9-]{1,64}$/;

/**
 * IRIs inside a path transaction: shown under `<root>/tx:<id>`, and read back from either that form or
 * the plain `<root>` form (a client may name other resources by their IRI outside the transaction).
 */
export class TxIriMapper extends IriMapper {
  private readonly plain: IriMapper;

  constructor(root: string, txId: string) {
    super(`${root}/tx:${txId}`);
    this.plain = new IriMapper(root);
  }

  /** A plain repository IRI in its tx-prefixed form; any other IRI as it is. */
  txForm(iri: string): string {
    const root = this.plain.base;
    const tx = this.base;
    if (iri === tx || iri.startsWith(`${tx}/`) || iri.startsWith(`${tx}#`)) return iri;
    return iri === root || iri.startsWith(`${root}/`) || iri.startsWith(`${root}#`)
      ? `${tx}${iri.slice(root.length)}`
      : iri;
  }

  override toInternal(iri: string): string {
    const mapped = super.toInternal(iri);
    return mapped === iri ? this.plain.toInternal(iri) : mapped;
  }
}

function gone(id: string, detail?: string): RepositoryError {
  return new RepositoryError(410, detail ?? `Transaction ${id.slice(0, 64)} is unknown or no longer open`);
}

/** The transaction a path names, checked open and kept alive; 410 when it cannot be used. */
export async function pathTransaction(deps: RepositoryDeps, id: string): Promise<string> {
  if (!TX_ID.test(id)) throw gone(id);
  const now = Date.now();
  try {
    await deps.store.touchTransaction(id, now, now + deps.settings.txTimeoutMs);
  } catch (error) {
    if (error instanceof TransactionUnusable) throw gone(id, error.message);
    throw error;
  }
  return id;
}

/** A transaction that turned unusable while a request inside it ran is 410 here too, not 409. */
export function asGone(error: unknown): unknown {
  return error instanceof TransactionUnusable ? gone(error.id, error.message) : error;
}

/** POST /rest/fcr:tx: 201, Location <root>/tx:<id>, Expires. */
export async function startPathTransaction(
  deps: RepositoryDeps,
  reply: FastifyReply,
  root: string,
  method: string,
): Promise<unknown> {
  if (method === 'OPTIONS') return reply.header('allow', 'POST, OPTIONS').code(200).send();
  if (method !== 'POST') throw RepositoryError.notAllowed('Start a transaction with POST', 'POST, OPTIONS');
  const now = Date.now();
  const expiresAt = now + deps.settings.txTimeoutMs;
  const id = randomUUID();
  await deps.store.beginTransaction(id, now, expiresAt);
  const uri = `${root}/tx:${id}`;
  // The plugin's onSend hook writes it (the security headers would otherwise overwrite Expires).
  reply.repositoryExpires = httpDate(expiresAt);
  reply.header('location', uri);
  return reply.code(201).type('text/plain; charset=utf-8').send(uri);
}

/** POST …/tx:<id>/fcr:tx (refresh, 204 + Expires), …/fcr:commit and …/fcr:rollback (204). */
export async function pathTransactionAction(
  deps: RepositoryDeps,
  reply: FastifyReply,
  id: string,
  action: TxAction,
  method: string,
  who: AuditWho,
  root: string,
): Promise<unknown> {
  if (method === 'OPTIONS') return reply.header('allow', 'POST, OPTIONS').code(200).send();
  if (method !== 'POST')
    throw RepositoryError.notAllowed('Transactions are driven with POST', 'POST, OPTIONS');
  if (!TX_ID.test(id)) throw gone(id);
  const now = Date.now();
  try {
    switch (action) {
      case 'refresh': {
        const expiresAt = now + deps.settings.txTimeoutMs;
        await deps.store.touchTransaction(id, now, expiresAt);
        reply.repositoryExpires = httpDate(expiresAt);
        return await reply.code(204).send();
      }
      case 'commit':
        await commitWhole(deps, who, { id, iri: `${root}/tx:${id}` }, now, (error) => {
          throw error;
        });
        return await reply.code(204).send();
      case 'rollback': {
        const outcome = await rollBack(deps, who, { id, iri: `${root}/tx:${id}` }, now);
        release(deps, outcome.released);
        if (outcome.expired) throw gone(id, `Transaction ${id} had expired`);
        return await reply.code(204).send();
      }
    }
  } catch (error) {
    throw asGone(error);
  }
}
