import type { FastifyInstance } from 'fastify';
import type { ActorRelay } from '../audit/audit-actor.js';
import type { BinaryStore } from './binaries/binary-store.js';
import type { RepositoryCredentials } from './credentials.js';
import type { RepositorySettings } from './http/context.js';
import { RepositoryHandlers } from './http/handlers.js';
import { MOUNT } from './http/paths.js';
import { repositoryPlugin } from './http/plugin.js';
import type { SparqlUpdateRunner } from './sparql/update-runner.js';
import type { StorageStartup } from './storage-startup.js';
import type { RepositoryStore } from './store/repository.store.js';

/** The embedded repository's parts, built (and closed) by app.ts. */
export interface EmbeddedRepository {
  readonly store: RepositoryStore;
  readonly binaries: BinaryStore;
  readonly updates: SparqlUpdateRunner;
  readonly credentials: RepositoryCredentials;
  readonly settings: RepositorySettings;
  /** Hands the service's actor to /rest across its own views' requests (audit-actor.ts). */
  readonly relay?: ActorRelay;
}

/**
 * The embedded repository (issue 4) as a route module for app.ts: mounts the LDP plugin at /rest over the
 * parts app.ts built. `release` removes the content files of reaped transactions once the routes are
 * registered (the handlers log through the app's logger).
 */
export function embeddedRepositoryRoutes(repository: EmbeddedRepository, startup: StorageStartup) {
  let handlers: RepositoryHandlers | undefined;
  const routes = async (app: FastifyInstance): Promise<void> => {
    const { store, binaries, updates, credentials, settings, relay } = repository;
    handlers = new RepositoryHandlers(store, binaries, settings, app.log, updates, relay);
    handlers.release(startup.released);
    if (startup.leftovers > 0 || startup.swept > 0) {
      app.log.info(
        { temporaryFiles: startup.leftovers, unreferencedFiles: startup.swept },
        'embedded repository: cleaned up binaries',
      );
    }
    if (credentials.passwordFile !== undefined) {
      app.log.info(
        { username: credentials.username, passwordFile: credentials.passwordFile },
        'embedded repository: HTTP Basic password kept in the data directory',
      );
    }
    await app.register(repositoryPlugin(handlers, credentials), { prefix: MOUNT });
  };
  const release = (digests: readonly string[]): void => {
    handlers?.release(digests);
  };
  return { routes, release };
}
