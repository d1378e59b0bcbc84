import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config/config.js';
import { BinaryStoreUnavailable } from './embedded-repository/binaries/s3-errors.js';

/** Process entry: configuration, listen, and a graceful close on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }
  const app = await buildApp(config);
  let closing = false;
  const close = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down: finishing in-flight requests');
    // If a request hangs, do not hang with it.
    const timer = setTimeout(() => {
      app.log.error('shutdown took longer than 10 s, exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    app.close().then(
      () => {
        app.log.info('closed cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'error while closing');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => {
    close('SIGTERM');
  });
  process.on('SIGINT', () => {
    close('SIGINT');
  });
  process.on('unhandledRejection', (reason) => {
    app.log.fatal({ err: reason }, 'unhandled rejection');
    close('unhandledRejection');
  });
  await app.listen({ port: config.port, host: config.host });
  const where = config.database.kind === 'sqlite' ? config.database.file : 'PostgreSQL';
  app.log.info(
    `Scriptorium is serving on http://${config.host}:${app.server.address() && typeof app.server.address() === 'object' ? String((app.server.address() as { port: number }).port) : String(config.port)} (database: ${where}; open the workbench at /ui/, the API reference at /docs)`,
  );
}

main().catch((error: unknown) => {
  // A store that cannot be reached is the operator's to fix: one line that says what is wrong, no stack.
  const why =
    error instanceof BinaryStoreUnavailable
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`Scriptorium failed to start: ${why}\n`);
  process.exit(1);
});
