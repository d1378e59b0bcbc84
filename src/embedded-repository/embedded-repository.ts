import type { Kysely } from 'kysely';
import type { AuditLog } from '../audit/audit-log.js';
import type { ActorRelay } from '../audit/audit-actor.js';
import type { Config } from '../config/config.js';
import type { Database, SqlDialect } from '../db/database.js';
import { binaryStoreOf } from './binaries/binary-store-of.js';
import { resolveRepositoryCredentials } from './credentials.js';
import type { EmbeddedRepository } from './repository.routes.js';
import { SparqlUpdateRunner } from './sparql/update-runner.js';
import { RepositoryStore } from './store/repository.store.js';

/**
 * The embedded Fedora-compatible repository at /rest (LDP answers, HTTP Basic auth; issue 4), built from the
 * configuration; undefined when `SCRIPTORIUM_EMBEDDED_REPOSITORY` turns it off.
 */
export function embeddedRepositoryOf(
  config: Config,
  db: Kysely<Database>,
  dialect: SqlDialect,
  audit: AuditLog,
  relay: ActorRelay,
  /** Told of every failed fixity check (the service's metrics). */
  onFixityFailure?: () => void,
): EmbeddedRepository | undefined {
  if (!config.embeddedRepository) return undefined;
  return {
    // Records its own writes in the ledger, in each write's database transaction.
    store: new RepositoryStore(db, dialect, audit),
    binaries: binaryStoreOf(config.binaryStore),
    // Worker threads start with the first update and stop on close.
    updates: new SparqlUpdateRunner({
      timeoutMs: config.repositoryUpdateTimeoutMs,
      maxSolutions: config.repositoryUpdateMaxSolutions,
    }),
    credentials: resolveRepositoryCredentials(config),
    settings: {
      rdfBodyLimit: config.bodyLimit,
      maxBinaryBytes: config.repositoryMaxBinaryBytes,
      txTimeoutMs: config.repositoryTxTimeoutSeconds * 1000,
      dialect: config.repositoryDialect,
      ...(onFixityFailure !== undefined && { onFixityFailure }),
    },
    relay,
  };
}
