import { startChildServer, type ChildServer } from '../child-server.js';
import { ROOT } from './settings.js';

/**
 * Starts the service (`node --import tsx src/main.ts`) on a loopback port with its production log
 * level and the data directory given; `env` adds what the bench needs (accounts, the embedded
 * repository, limits).
 */
export function startService(dataDir: string, env: Readonly<Record<string, string>>): Promise<ChildServer> {
  return startChildServer(
    'scriptorium',
    'src/main.ts',
    { HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', SCRIPTORIUM_DATA_DIR: dataDir, ...env },
    ROOT,
  );
}
