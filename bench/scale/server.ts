import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ChildServer } from '../child-server.js';
import { Api } from '../context/api.js';
import { pidListeningOn } from '../repository/proc.js';
import { signIn } from '../scenarios.js';
import { startService } from '../shared/service.js';
import { profilerEnv } from './cpu-profile.js';
import type { Measured } from './measure.js';

/** A fresh service for one scenario: its own SQLite data directory, embedded repository on. */
export interface ScaleService extends Measured {
  readonly api: Api;
  readonly url: string;
  /** HTTP Basic header of the embedded repository (/rest). */
  readonly basic: Readonly<Record<string, string>>;
  readonly repositoryUser: string;
  readonly repositoryPassword: string;
}

const running = new Set<() => Promise<void>>();
let closing = false;

/** Whether the bench is being interrupted (then it writes no report). */
export const closingDown = () => closing;

/** Stops every service still running (on the way out and on Ctrl-C) and lets no new one start. */
export async function stopAll(): Promise<void> {
  closing = true;
  await Promise.all([...running].map((stop) => stop()));
}

/**
 * Runs `body` against a service of its own, so one scenario's data, caches and memory never weigh on
 * the next, and a scenario that brings the service down leaves the others their own.
 */
export async function withService<T>(
  body: (service: ScaleService) => Promise<T>,
  env: Readonly<Record<string, string>> = {},
): Promise<T> {
  const profiler = await profilerEnv(process.env.BENCH_SCALE_CPU_PROF);
  if (closing) throw new Error('interrupted');
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-scale-'));
  const adminPassword = randomBytes(18).toString('base64url');
  const repositoryUser = 'fedoraAdmin';
  const repositoryPassword = randomBytes(18).toString('base64url');
  let starting: Promise<ChildServer> | undefined;
  // Waits for a service still starting, so Ctrl-C during its start does not leave it running.
  const stop = async () => {
    const child = await starting?.catch(() => undefined);
    await child?.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  running.add(stop);
  try {
    starting = startService(dataDir, {
      SCRIPTORIUM_ADMIN_USERNAME: 'admin',
      SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
      SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
      SCRIPTORIUM_REPOSITORY_USERNAME: repositoryUser,
      SCRIPTORIUM_REPOSITORY_PASSWORD: repositoryPassword,
      ...env,
      ...profiler,
    });
    const child = await starting;
    const auth = await signIn(child.url, 'admin', adminPassword);
    if (auth.authorization === undefined) throw new Error('this build has no sign-in (POST /auth/login)');
    const basic = `Basic ${Buffer.from(`${repositoryUser}:${repositoryPassword}`).toString('base64')}`;
    const server = child;
    return await body({
      api: new Api(server.url, auth),
      url: server.url,
      pid: pidListeningOn(Number(new URL(server.url).port)),
      exited: () => server.exited(),
      basic: { authorization: basic },
      repositoryUser,
      repositoryPassword,
    });
  } finally {
    running.delete(stop);
    await stop();
  }
}
