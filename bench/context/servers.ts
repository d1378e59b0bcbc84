import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startChildServer, type ChildServer } from '../child-server.js';
import type { CountingProxy } from '../context-proxy.js';
import { startService } from '../shared/service.js';
import { ROOT } from '../shared/settings.js';

/**
 * The processes of the context bench: the service (with its embedded repository) and Community Solid
 * Server in children, the counting proxies in this process. Everything started is stopped by `cleanUp`,
 * on the way out and on Ctrl-C.
 */
export const children: ChildServer[] = [];
export const proxies: CountingProxy[] = [];
let dataDir: string | undefined;

export async function cleanUp(): Promise<void> {
  await Promise.all([...children.map((c) => c.stop()), ...proxies.map((p) => p.close())]);
  if (dataDir !== undefined) await rm(dataDir, { recursive: true, force: true });
}

export function stopOnInterrupt(): void {
  process.once('SIGINT', () => {
    console.log('\ninterrupted: stopping the servers');
    void cleanUp().finally(() => process.exit(130));
  });
}

/** Throws when a child ended during `what` (its figures would be meaningless). */
export function checkChildren(what: string): void {
  for (const child of children) {
    const exited = child.exited();
    if (exited !== undefined) throw new Error(`${child.name} ${exited} during ${what}`);
  }
}

export interface Servers {
  service: ChildServer;
  css: ChildServer;
  adminPassword: string;
  repositoryUser: string;
  repositoryPassword: string;
}

/** The service on a fresh SQLite data directory with its embedded repository on, then CSS. */
export async function startServers(): Promise<Servers> {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-context-'));
  const adminPassword = randomBytes(18).toString('base64url');
  const repositoryUser = 'fedoraAdmin';
  const repositoryPassword = randomBytes(18).toString('base64url');
  const service = await startService(dataDir, {
    SCRIPTORIUM_ADMIN_USERNAME: 'admin',
    SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
    SCRIPTORIUM_REPOSITORY_USERNAME: repositoryUser,
    SCRIPTORIUM_REPOSITORY_PASSWORD: repositoryPassword,
  });
  children.push(service);
  const css = await startChildServer('Community Solid Server', 'bench/context-css.ts', { PORT: '0' }, ROOT);
  children.push(css);
  console.log(`service at ${service.url}, Community Solid Server at ${css.url}/`);
  return { service, css, adminPassword, repositoryUser, repositoryPassword };
}
