import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { loadConfig } from '../src/config/config.js';
import { SqliteDataVersion } from '../src/db/data-version.js';
import { EndOfTurn } from '../src/shared/end-of-turn.js';
import { capConnections, connectionOptions } from '../src/http/connection-limits.js';
import { registerSecurityHeaders } from '../src/http/security-headers.js';

/**
 * What every request to the service must carry besides its own work, done the cheapest way this
 * floor can: the "obligations floor" of `engine-floor-server.ts` (BENCH_FLOOR_OBLIGATIONS=1).
 *
 * - the service's connection limits (slowloris timeouts, the connection cap) and a request id of our
 *   own, never the client's (the same Fastify options the service sets, from its default configuration);
 * - the security headers and `x-request-id` on every answer (the service's own hook);
 * - the sign-in check with revocation seen at once: the bearer token looked up in memory (one session,
 *   BENCH_FLOOR_TOKEN, the header value the bench sends), its expiry and role checked, and, on SQLite,
 *   a `PRAGMA data_version` of the service's own database file (BENCH_FLOOR_SQLITE_FILE) newer than the
 *   request: the only way a process hears at once of another one's commit to the file (bench/PROFILE.md,
 *   fifth pass). Read the service's way (db/data-version.ts): one read at the end of a turn serves every
 *   request received in it. On PostgreSQL the service hears of other instances' writes by LISTEN/NOTIFY,
 *   in memory, so there is nothing to read and this floor reads nothing; its requests still go on at the
 *   end of their turn, together, as the service's do (EndOfTurn).
 *
 * No database query, no cache, no layering: whatever the service spends over this floor is its own
 * structure, not something the requirements make it do.
 */
export interface Obligations {
  readonly fastifyOptions: FastifyServerOptions;
  /** Registers the sign-in check (a preHandler of every route) and the security headers. */
  register(app: FastifyInstance): void;
}

const ADMIN = 'ROLE_ADMIN';
const SESSION_SECONDS = 3600;

export function floorObligations(env: NodeJS.ProcessEnv): Obligations {
  // The defaults of the service's configuration (timeouts, connection cap); the data directory is not used.
  const config = loadConfig({ SCRIPTORIUM_DATA_DIR: '/nonexistent' });
  const sessions = new Map([
    [env.BENCH_FLOOR_TOKEN ?? '', { role: ADMIN, expiresAt: Date.now() + SESSION_SECONDS * 1000 }],
  ]);
  const dataVersion = sqliteDataVersion(env.BENCH_FLOOR_SQLITE_FILE);
  // Without a file to read (PostgreSQL), requests still go on at the end of their turn, as the service's do.
  const endOfTurn = new EndOfTurn();
  return {
    fastifyOptions: {
      genReqId: () => randomUUID(),
      requestIdHeader: false,
      return503OnClosing: true,
      ...connectionOptions(config),
    },
    register(app) {
      capConnections(app, config);
      registerSecurityHeaders(app);
      app.addHook('onRequest', (_request, _reply, done) => {
        dataVersion?.requestStarted();
        done();
      });
      app.addHook('preHandler', (request, reply, done) => {
        const check = () => {
          dataVersion?.currentNow();
          const session = sessions.get(request.headers.authorization ?? '');
          if (session === undefined || session.expiresAt <= Date.now() || session.role !== ADMIN) {
            void reply.code(401).send({ meta: { status: 'UNAUTHORIZED' }, payload: {} });
            return;
          }
          done();
        };
        if (dataVersion === undefined) endOfTurn.add(check);
        else dataVersion.whenFresh(check);
      });
    },
  };
}

/** The service's own SQLite signal on the file; none without a file (PostgreSQL). */
function sqliteDataVersion(file: string | undefined): SqliteDataVersion | undefined {
  if (file === undefined || file === '') return undefined;
  // Read-only: a read-only connection still sees every other connection's commit in `data_version`.
  return new SqliteDataVersion(new Database(file, { readonly: true, fileMustExist: true }));
}
