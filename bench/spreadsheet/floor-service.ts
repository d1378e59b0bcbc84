import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { scopeEntries } from '../../src/curation-jobs/work/scope-entries.js';
import { resolveRepositoryCredentials } from '../../src/embedded-repository/credentials.js';
import { AgentPool } from '../../src/repository-adapters/agent-pool.js';
import { createAdapter } from '../../src/repository-adapters/create-adapter.js';
import { InProcessRepository } from '../../src/repository-adapters/in-process-repository.js';

/**
 * The service as `npm start` runs it (src/main.ts: the same app, configuration and listening), plus one
 * route for the spreadsheet bench's export floor: `GET /bench-floor/walk?contextUri=` walks the context's
 * SUBTREE exactly as a job or an export does — `scopeEntries` over a FEDORA adapter on this process's own
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

app.get<{ Querystring: { contextUri: string } }>('/bench-floor/walk', async (request, reply) => {
  const { contextUri } = request.query;
  const adapter = createAdapter(
    {
      type: 'FEDORA',
      rootUri: new URL('/rest/', contextUri).toString(),
      username: credentials.username,
      password: credentials.password,
    },
    { agents, local },
  );
  const target = { adapter, schemas: [], rootUri: new URL('/rest/', contextUri).toString() };
  const began = performance.now();
  let described = 0;
  let failed = 0;
  for await (const entry of scopeEntries(
    target,
    { contextUri, scope: 'SUBTREE' },
    { concurrency: config.jobConcurrency },
  )) {
    if ('error' in entry) failed += 1;
    else described += 1;
  }
  const ms = performance.now() - began;
  return reply.type('application/json').send(JSON.stringify({ ms, described, failed }));
});

local.attach(app);
app.addHook('onClose', async () => {
  local.detach();
  await agents.close();
});
const close = () => {
  void app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
};
process.on('SIGTERM', close);
process.on('SIGINT', close);
await app.listen({ port: config.port, host: config.host });
