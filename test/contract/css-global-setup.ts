import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Base URL of the Community Solid Server started once for the test run (ends with `/`). */
    cssBaseUrl: string;
  }
}

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Starts ONE Community Solid Server 7.2 for the whole test run (memory backend, no accounts, every
 * request allowed — never for production) on a free loopback port, for the LDP contract runner
 * (`test/contract/ldp.contract.test.ts`). Start-up takes ≈5 s (Components.js instantiation).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const css = await startCommunitySolidServer(path.join(here, 'css-config.json'));
  project.provide('cssBaseUrl', css.baseUrl);
  return () => css.stop();
}

/**
 * A Community Solid Server on a free loopback port with this configuration (`rootFilePath` for a file
 * backend). Also used by tests that need a server of their own.
 */
export async function startCommunitySolidServer(
  config: string,
  rootFilePath?: string,
): Promise<{ baseUrl: string; stop: () => Promise<void> }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}/`;
  const require = createRequire(import.meta.url);
  const mainModulePath = path.dirname(require.resolve('@solid/community-server/package.json'));
  const { AppRunner } = await import('@solid/community-server');
  const app = await new AppRunner().create({
    config,
    loaderProperties: { mainModulePath, logLevel: 'error' },
    shorthand: {
      port,
      baseUrl,
      loggingLevel: 'error',
      ...(rootFilePath === undefined ? {} : { rootFilePath }),
    },
  });
  await onLoopback(() => app.start());
  return { baseUrl, stop: () => app.stop() };
}

/** A port that was free on 127.0.0.1 a moment ago. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => {
        if (address !== null && typeof address === 'object') resolve(address.port);
        else reject(new Error('no port'));
      });
    });
  });
}

/**
 * CSS listens on every interface for a bare port; an allow-all server must not be reachable from
 * elsewhere, so while it starts, `listen(port)` calls are given the loopback host.
 */
async function onLoopback(start: () => Promise<void>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = net.Server.prototype.listen;
  const patched = function (this: net.Server, ...args: unknown[]): net.Server {
    if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) {
      return (original as (...a: unknown[]) => net.Server).apply(this, [
        args[0],
        '127.0.0.1',
        ...args.slice(1),
      ]);
    }
    return (original as (...a: unknown[]) => net.Server).apply(this, args);
  };
  net.Server.prototype.listen = patched as typeof net.Server.prototype.listen;
  try {
    await start();
  } finally {
    net.Server.prototype.listen = original;
  }
}
