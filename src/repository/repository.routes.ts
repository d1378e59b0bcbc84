import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../config/config.js';
import type { Database, SqlDialect } from '../db/database.js';
import { BinaryStore } from './binaries/binary-store.js';
import { resolveRepositoryCredentials } from './credentials.js';
import { RepositoryHandlers } from './http/handlers.js';
import { MOUNT } from './http/paths.js';
import { repositoryPlugin } from './http/plugin.js';
import { SparqlUpdateRunner } from './sparql/update-runner.js';
import { RepositoryStore } from './store/repository.store.js';

const REAP_INTERVAL_MS = 5_000;

/**
 * The embedded repository (issue 4) as a route module for app.ts: prepares its storage (root container,
 * binaries directory without crash leftovers, expired transactions rolled back) and mounts the LDP
 * plugin at /rest.
 */
export async function embeddedRepositoryRoutes(config: Config, db: Kysely<Database>, dialect: SqlDialect) {
  const store = new RepositoryStore(db, dialect);
  const binaries = new BinaryStore(path.join(config.dataDir, 'binaries'));
  const credentials = resolveRepositoryCredentials(config);
  const leftovers = await binaries.init();
  await store.ensureRoot(Date.now(), credentials.username);
  const released = await store.reapExpired(Date.now());
  const swept = await binaries.sweep(await store.allDigests());

  return async (app: FastifyInstance): Promise<void> => {
    const updates = new SparqlUpdateRunner({
      timeoutMs: config.repositoryUpdateTimeoutMs,
      maxSolutions: config.repositoryUpdateMaxSolutions,
    });
    const handlers = new RepositoryHandlers(
      store,
      binaries,
      {
        rdfBodyLimit: config.bodyLimit,
        maxBinaryBytes: config.repositoryMaxBinaryBytes,
        txTimeoutMs: config.repositoryTxTimeoutSeconds * 1000,
      },
      app.log,
      updates,
    );
    handlers.release(released);
    if (leftovers > 0 || swept > 0) {
      app.log.info(
        { temporaryFiles: leftovers, unreferencedFiles: swept },
        'embedded repository: cleaned up binaries',
      );
    }
    if (credentials.passwordFile !== undefined) {
      app.log.info(
        { username: credentials.username, passwordFile: credentials.passwordFile },
        'embedded repository: HTTP Basic password kept in the data directory',
      );
    }
    const reaper = setInterval(() => {
      store.reapExpired(Date.now()).then(
        (digests) => {
          handlers.release(digests);
        },
        (error: unknown) => {
          app.log.warn({ err: error }, 'embedded repository: could not reap expired transactions');
        },
      );
    }, REAP_INTERVAL_MS);
    reaper.unref();
    app.addHook('onClose', async () => {
      clearInterval(reaper);
      await updates.close();
    });
    await app.register(repositoryPlugin(handlers, credentials), { prefix: MOUNT });
  };
}
