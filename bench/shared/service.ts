import { startChildServer, type ChildServer } from '../child-server.js';
import { compiledEntry, compileServers } from './compiled.js';
import { ROOT } from './settings.js';

/** Compiled once per checkout and bench process, before the first start. */
const compiling = new Map<string, Promise<void>>();

/**
 * Starts the service on a loopback port with its production log level and the data directory given;
 * `env` adds what the bench needs (accounts, the embedded repository, limits). It runs as `npm start`
 * runs it: tsc's output under plain Node (shared/compiled.ts), compiled before the first start. `entry`:
 * the source whose compiled output runs (a bench's own entry that wraps the service, e.g. with a floor).
 */
export async function startService(
  dataDir: string,
  env: Readonly<Record<string, string>>,
  entry = 'src/main.ts',
  /** The checkout whose service runs (another one: a baseline). */
  root = ROOT,
): Promise<ChildServer> {
  let compiled = compiling.get(root);
  if (compiled === undefined) {
    compiled = compileServers(root);
    compiling.set(root, compiled);
  }
  await compiled;
  return startChildServer(
    'scriptorium',
    compiledEntry(entry),
    { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SCRIPTORIUM_DATA_DIR: dataDir, ...env },
    root,
  );
}
