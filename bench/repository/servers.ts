import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { freePort } from '../shared/free-port.js';
import { startService } from '../shared/service.js';
import { ROOT } from '../shared/settings.js';
import { request } from './http.js';
import { pidListeningOn } from './proc.js';
import { AUTH, PASSWORD, type Target } from './settings.js';

/** The two servers under test, each in its own child process. */

export async function startScriptorium(dataDir: string): Promise<Target> {
  const child = await startService(dataDir, {
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
    SCRIPTORIUM_REPOSITORY_PASSWORD: PASSWORD,
    SCRIPTORIUM_BODY_LIMIT: String(8 * 1024 * 1024),
  });
  const port = Number(new URL(child.url).port);
  return {
    name: 'Scriptorium /rest',
    base: `${child.url}/rest/`,
    pid: pidListeningOn(port),
    headers: { authorization: AUTH },
    patchUrl: (container) => container,
    stop: () => child.stop(),
  };
}

/** A CSS configuration: the default set with memory storage, allow-all authorization, no accounts. */
async function cssConfig(dir: string): Promise<string> {
  const pkg = path.join(ROOT, 'node_modules', '@solid', 'community-server');
  const defaults = JSON.parse(await readFile(path.join(pkg, 'config', 'default.json'), 'utf8')) as {
    '@context': string;
    import: string[];
  };
  const replace: [RegExp, string][] = [
    [/^css:config\/app\/init\//, 'css:config/app/init/initialize-root.json'],
    [/^css:config\/http\/notifications\//, 'css:config/http/notifications/disabled.json'],
    [/^css:config\/identity\/handler\//, 'css:config/identity/handler/disabled.json'],
    [/^css:config\/identity\/oidc\//, 'css:config/identity/oidc/disabled.json'],
    [/^css:config\/ldp\/authorization\//, 'css:config/ldp/authorization/allow-all.json'],
    [/^css:config\/storage\/backend\//, 'css:config/storage/backend/memory.json'],
    [/^css:config\/storage\/key-value\//, 'css:config/storage/key-value/memory.json'],
    [/^css:config\/util\/resource-locker\//, 'css:config/util/resource-locker/memory.json'],
    [/^css:config\/util\/auxiliary\//, 'css:config/util/auxiliary/acl.json'],
  ];
  const imports = defaults.import.map(
    (entry) => replace.find(([pattern]) => pattern.test(entry))?.[1] ?? entry,
  );
  const file = path.join(dir, 'css-memory.json');
  await writeFile(
    file,
    JSON.stringify({ '@context': defaults['@context'], import: [...new Set(imports)] }, null, 2),
  );
  return file;
}

/**
 * Community Solid Server from its own bin script (not bench/context-css.ts): the process measured
 * for memory must be CSS itself, with its default configuration made memory-only.
 */
export async function startCss(dir: string): Promise<Target> {
  const port = await freePort();
  const config = await cssConfig(dir);
  const bin = path.join(ROOT, 'node_modules', '@solid', 'community-server', 'bin', 'server.js');
  const child: ChildProcess = spawn(
    process.execPath,
    [bin, '-c', config, '-p', String(port), '-l', 'warn', '-b', `http://127.0.0.1:${port}/`],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const deadline = Date.now() + 60_000;
  for (;;) {
    const status = await request('GET', `http://127.0.0.1:${port}/`, {}).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`Community Solid Server did not start:\n${stderr}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    name: 'Community Solid Server 7.2 (memory)',
    base: `http://127.0.0.1:${port}/`,
    pid: child.pid ?? 0,
    headers: {},
    patchUrl: (container) => `${container}.meta`,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
