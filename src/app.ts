import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import type { Config } from './config/config.js';
import { connectDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrations/migrate.js';
import { healthRoutes } from './health/health.routes.js';
import { OpenAuthorizer, type Authorizer } from './http/access.js';
import { createHttpServer } from './http/server.js';
import { internalMetadataRoutes } from './internal-metadata/internal-metadata.routes.js';
import { InternalMetadataService } from './internal-metadata/internal-metadata.service.js';
import { InternalMetadataStore } from './internal-metadata/internal-metadata.store.js';
import { operatorApplyRoutes } from './operators/operator-apply.routes.js';
import { OperatorApplyService } from './operators/operator-apply.service.js';
import { operatorRoutes } from './operators/operator.routes.js';
import { OperatorService } from './operators/operator.service.js';
import { OperatorStore } from './operators/operator.store.js';

export interface AppOptions {
  readonly logger?: FastifyServerOptions['logger'];
}

/**
 * The composition root: opens the database, runs migrations, builds stores and services with plain
 * constructors and hands them to the HTTP server. Returns the app without listening (main.ts listens,
 * tests use inject()).
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const { db, dialect } = connectDatabase(config.database);
  try {
    await migrateToLatest(db, dialect);
  } catch (error) {
    await db.destroy();
    throw error;
  }

  const internalMetadata = new InternalMetadataService(new InternalMetadataStore(db));
  const operatorStore = new OperatorStore(db);
  const operators = new OperatorService(operatorStore);
  // No repository views exist yet, so APPLICATION_TYPE_OP finds no view type.
  const apply = new OperatorApplyService(
    operatorStore,
    () => internalMetadata.requiredFields(),
    () => Promise.resolve(undefined),
  );
  const authorizer: Authorizer = new OpenAuthorizer();

  const app = await createHttpServer({
    config,
    authorizer,
    logger: options.logger,
    routes: [
      healthRoutes(db),
      internalMetadataRoutes(internalMetadata),
      operatorRoutes(operators),
      operatorApplyRoutes(apply),
    ],
  });
  app.addHook('onClose', async () => {
    await db.destroy();
  });
  return app;
}
