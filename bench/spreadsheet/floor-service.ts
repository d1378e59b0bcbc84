import http from 'node:http';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { scopeEntries } from '../../src/curation-jobs/work/scope-entries.js';
import { resolveRepositoryCredentials } from '../../src/embedded-repository/credentials.js';
import { AgentPool } from '../../src/repository-adapters/agent-pool.js';
import { createAdapter } from '../../src/repository-adapters/create-adapter.js';
import { InProcessRepository } from '../../src/repository-adapters/in-process-repository.js';

/**
 * The service as `npm start` runs it (src/main.ts: the same app, configuration and listening), plus a
 * control server for the spreadsheet bench's export floor (loopback, port BENCH_FLOOR_PORT, apart from the
 * app): `GET /?contextUri=` walks the context's SUBTREE exactly as a job or an export does — `scopeEntries` over a FEDORA adapter on this process's own
 * `/rest/`, answered in process, at the configured job concurrency — keeping nothing, and answers how long
 * it took and how many resources it described. The floor thus runs in the very process, on the very data
 * and transport, whose export it is compared with; only the CSV is missing from it.
 * Compiled with the service (bench/tsconfig.servers.json) and started like it (bench/shared/service.ts).
 */
const config = loadConfig(process.env);
const app = await buildApp(config);
const local = new InProcessRepository({ publicUrl: config.publicUrl, mount: '/rest/' });
const agents = new AgentPool();
const credentials = resolveRepositoryCredentials(config);

/** The walk alone, as a job or an export walks: every resource described, nothing kept. */
async function walk(contextUri: string): Promise<{ ms: number; described: number; failed: number }> {
  const rootUri = new URL('/rest/', contextUri).toString();
  const adapter = createAdapter(
    { type: 'FEDORA', rootUri, username: credentials.username, password: credentials.password },
    { agents, local },
  );
  const began = performance.now();
  let described = 0;
  let failed = 0;
  for await (const entry of scopeEntries(
    { adapter, schemas: [], rootUri },
    { contextUri, scope: 'SUBTREE' },
    { concurrency: config.jobConcurrency },
  )) {
    if ('error' in entry) failed += 1;
    else described += 1;
  }
  return { ms: performance.now() - began, described, failed };
}

// The floor's trigger listens apart from the app (loopback, BENCH_FLOOR_PORT), so the app is the service's own.
const control = http.createServer((request, response) => {
  const contextUri = new URL(request.url ?? '/', 'http://floor').searchParams.get('contextUri');
  if (contextUri === null) {
    response.writeHead(400).end('contextUri?');
    return;
  }
  walk(contextUri).then(
    (result) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
    (error: unknown) => response.writeHead(500).end(String(error)),
  );
});

local.attach(app);
app.addHook('onClose', async () => {
  local.detach();
  await agents.close();
  control.close();
});
const close = () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
control.listen(Number(process.env.BENCH_FLOOR_PORT), '127.0.0.1');
await app.listen({ port: config.port, host: config.host });
