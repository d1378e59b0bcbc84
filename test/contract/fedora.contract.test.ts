import fs from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { resolveRepositoryCredentials } from '../../src/embedded-repository/credentials.js';
import { FEDORA_DIALECTS } from '../../src/shared/fedora-dialect.js';
import { buildTestApp } from '../support/test-app.js';
import { describeRepositoryAdapter } from './repository-adapter.contract.js';

/**
 * The adapter contract for the FEDORA kind, against the embedded repository over real HTTP, once per
 * Fedora line: the repository answers as 4.x, 5.x or 6.x/7.x (`SCRIPTORIUM_REPOSITORY_DIALECT`, its
 * compatibility mode) and the adapter speaks the same line. The app runs on the database under test
 * (SQLite or PostgreSQL pass), listening on a loopback port, with the repository credentials it
 * generated in its own data directory.
 */
for (const dialect of FEDORA_DIALECTS) {
  describeRepositoryAdapter(
    `FEDORA adapter (${dialect}) against the embedded repository answering as ${dialect}`,
    {
      kind: 'FEDORA',
      dialect,
      detects: dialect,
      async start() {
        const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'scriptorium-contract-'));
        const testApp = await buildTestApp({
          dataDir,
          embeddedRepository: true,
          repositoryPassword: undefined,
          repositoryDialect: dialect,
        });
        await testApp.app.listen({ port: 0, host: '127.0.0.1' });
        const { port } = testApp.app.server.address() as AddressInfo;
        const credentials = resolveRepositoryCredentials(testApp.config);
        const rootUri = `http://127.0.0.1:${port}/rest/`;
        return {
          view: { rootUri, username: credentials.username, password: credentials.password },
          wrongCredentials: {
            rootUri,
            username: credentials.username,
            password: `${credentials.password}-wrong`,
          },
          close: async () => {
            await testApp.close();
            await fs.rm(dataDir, { recursive: true, force: true });
          },
        };
      },
    },
  );
}
