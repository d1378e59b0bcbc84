import { createRequire } from 'node:module';
import net from 'node:net';
import path from 'node:path';
import { freePort } from './shared/free-port.js';
import { ROOT } from './shared/settings.js';

/**
 * Child process of `bench/context.ts`: ONE Community Solid Server 7.2 with the contract tests'
 * configuration (`test/contract/css-config.json`: memory backend, no accounts, every request allowed —
 * never for production), listening on loopback only. Prints a Fastify-style "Server listening at" JSON
 * line so `startChildServer` finds its URL; stops on SIGTERM.
 */
/** CSS listens on every interface for a bare port; while it starts, such `listen` calls get loopback. */
async function onLoopback(start: () => Promise<void>): Promise<void> {
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = net.Server.prototype.listen;
  const patched = function (this: net.Server, ...args: unknown[]): net.Server {
    const apply = (a: unknown[]) => (original as (...x: unknown[]) => net.Server).apply(this, a);
    if (typeof args[0] === 'number' && (args.length === 1 || typeof args[1] === 'function')) {
      return apply([args[0], '127.0.0.1', ...args.slice(1)]);
    }
    return apply(args);
  };
  net.Server.prototype.listen = patched as typeof net.Server.prototype.listen;
  try {
    await start();
  } finally {
    net.Server.prototype.listen = original;
  }
}

const requested = Number(process.env.PORT ?? '0');
const port = requested > 0 ? requested : await freePort();
const baseUrl = `http://127.0.0.1:${port}/`;
const require = createRequire(import.meta.url);
const mainModulePath = path.dirname(require.resolve('@solid/community-server/package.json'));
const { AppRunner } = await import('@solid/community-server');
const app = await new AppRunner().create({
  config: path.join(ROOT, 'test', 'contract', 'css-config.json'),
  loaderProperties: { mainModulePath, logLevel: 'error' },
  shorthand: { port, baseUrl, loggingLevel: 'error' },
});
await onLoopback(() => app.start());
process.stdout.write(
  `${JSON.stringify({ level: 30, msg: `Server listening at http://127.0.0.1:${port}` })}\n`,
);

process.once('SIGTERM', () => {
  void app.stop().finally(() => process.exit(0));
});
