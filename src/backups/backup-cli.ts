import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config/config.js';
import { BackupError } from './backup-manifest.js';
import { takeBackup } from './backup.js';
import { restoreBackup } from './restore.js';

export const BACKUP_USAGE = `  scriptorium backup <dir>
      Backs up the embedded SQLite database and the binaries it references into <dir> (new or empty) while
      the service runs: a consistent point in time, every binary's SHA-512 checked as it is copied, with
      the data directory's secret; manifest.json is written last. Same environment as the service
      (SCRIPTORIUM_DATA_DIR, SCRIPTORIUM_BINARY_STORE). On PostgreSQL use pg_dump (see README.md).
  scriptorium restore <dir> [--force]
      Restores such a backup into the configured data directory and binary store. Stop the service first.
      Checks the database's SHA-256 and every binary's SHA-512 against the manifest before touching
      anything; refuses when a database exists unless --force, which moves it aside (never deletes it;
      but its binaries are not kept: back the current state up first if it may be needed).`;

export interface BackupCliIo {
  readonly env: NodeJS.ProcessEnv;
  readonly write: (text: string) => void;
  readonly writeError: (text: string) => void;
}

/** `scriptorium backup|restore …`; answers the exit code (0 done, 1 refused or failed, 2 usage). */
export async function runBackupCommand(
  command: 'backup' | 'restore',
  argv: readonly string[],
  io: BackupCliIo,
): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: { force: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (error) {
    io.writeError(`${error instanceof Error ? error.message : String(error)}\n${BACKUP_USAGE}\n`);
    return 2;
  }
  const { positionals, values } = parsed;
  if (values.help === true) {
    io.write(`Usage:\n${BACKUP_USAGE}\n`);
    return 0;
  }
  const [given] = positionals;
  if (given === undefined || positionals.length !== 1 || (command === 'backup' && values.force === true)) {
    io.writeError(
      `scriptorium ${command} takes one directory${command === 'backup' ? '' : ' and --force'}\n${BACKUP_USAGE}\n`,
    );
    return 2;
  }
  const dir = path.resolve(given);
  const config = loadConfig(io.env);
  const report = (line: string): void => {
    io.write(`${line}\n`);
  };
  try {
    if (command === 'backup') await takeBackup({ config, dir, report });
    else await restoreBackup({ config, dir, force: values.force === true, report });
    return 0;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    io.writeError(`${message}\n`);
    // A backup that failed on something unforeseen (a full disk, a store gone) still has no manifest.
    if (command === 'backup' && !(error instanceof BackupError))
      io.writeError(`The backup in ${dir} is incomplete (it has no manifest): remove it and retry.\n`);
    return 1;
  }
}
