#!/usr/bin/env node
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config/config.js';
import { JOB_USAGE, runJobCommand, type JobCliIo } from './curation-jobs/job-cli.js';
import { connectDatabase } from './db/connect.js';
import { migrateToLatest } from './db/migrations/migrate.js';
import { runSearchCommand, SEARCH_USAGE } from './search/search-cli.js';
import { runScheduleCommand, SCHEDULE_USAGE } from './schedules/schedule-cli.js';
import { runSpreadsheetCommand, SPREADSHEET_USAGE } from './spreadsheets/spreadsheet-cli.js';
import { EXPORT_BAG_USAGE, runExportBagCommand } from './exports/export-cli.js';
import { COPY_USAGE, runCopyCommand } from './copies/copy-cli.js';
import { BACKUP_USAGE, runBackupCommand } from './backups/backup-cli.js';
import { ValidationFailedError } from './shared/errors.js';
import { checkBody } from './shared/body-check.js';
import { NewUserBody } from './users/user.schema.js';
import { UserService } from './users/user.service.js';
import { UserStore } from './users/user.store.js';

const USAGE = `Usage:
  scriptorium users add --username <name> --role <ROLE_ADMIN|ROLE_CURATOR|ROLE_USER>
                        [--first-name <text>] [--last-name <text>] [--email <address>]
      The password is read from standard input (first line), or asked for when run in a terminal.
  scriptorium users list
      Users work on the database the environment configures (DATABASE_URL, or SQLite under
      SCRIPTORIUM_DATA_DIR).
${JOB_USAGE}
${SCHEDULE_USAGE}
${SEARCH_USAGE}
${SPREADSHEET_USAGE}
${EXPORT_BAG_USAGE}
${COPY_USAGE}
${BACKUP_USAGE}`;

function out(text: string): void {
  process.stdout.write(`${text}\n`);
}

/** Reads the password without echoing it in a terminal, or the first line of piped input. */
async function readPassword(): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stdout, terminal: process.stdin.isTTY });
  if (process.stdin.isTTY) {
    process.stdout.write('Password: ');
    // Mute the echo of typed characters.
    (rl as unknown as { _writeToOutput: (s: string) => void })._writeToOutput = () => undefined;
  }
  try {
    for await (const line of rl) return line;
    return '';
  } finally {
    rl.close();
    if (process.stdin.isTTY) process.stdout.write('\n');
  }
}

function normalizeRole(role: string): string {
  const upper = role.toUpperCase();
  return upper.startsWith('ROLE_') ? upper : `ROLE_${upper}`;
}

async function run(argv: string[]): Promise<number> {
  // The commands that talk to the running service through its API.
  const io: JobCliIo = {
    env: process.env,
    fetch,
    readPassword,
    write: (text) => process.stdout.write(text),
    interactive: process.stdout.isTTY,
    pollMs: 500,
    onInterrupt: (listener) => process.once('SIGINT', listener),
  };
  if (argv[0] === 'job') return runJobCommand(argv.slice(1), io);
  if (argv[0] === 'schedule') return runScheduleCommand(argv.slice(1), io);
  if (argv[0] === 'search' || argv[0] === 'reindex') return runSearchCommand(argv[0], argv.slice(1), io);
  if (argv[0] === 'export-bag') return runExportBagCommand(argv.slice(1), io);
  if (argv[0] === 'copy') return runCopyCommand(argv.slice(1), io);
  if (argv[0] === 'backup' || argv[0] === 'restore')
    return runBackupCommand(argv[0], argv.slice(1), {
      env: process.env,
      write: (text) => process.stdout.write(text),
      writeError: (text) => process.stderr.write(text),
    });
  if (argv[0] === 'export' || argv[0] === 'import') return runSpreadsheetCommand(argv[0], argv.slice(1), io);
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      username: { type: 'string' },
      role: { type: 'string' },
      'first-name': { type: 'string' },
      'last-name': { type: 'string' },
      email: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [area, command] = positionals;
  if (values.help === true || area !== 'users' || (command !== 'add' && command !== 'list')) {
    out(USAGE);
    return values.help === true ? 0 : 2;
  }
  const config = loadConfig(process.env);
  const { db, dialect } = connectDatabase(config.database);
  try {
    await migrateToLatest(db, dialect);
    const users = new UserService(new UserStore(db), () => Promise.resolve());
    if (command === 'list') {
      for (const user of await users.list())
        out(`${String(user.id).padStart(4)}  ${user.role.padEnd(13)} ${user.username}`);
      return 0;
    }
    if (values.username === undefined || values.role === undefined) {
      out(USAGE);
      return 2;
    }
    const user = await users.create(
      checkBody(NewUserBody, {
        username: values.username,
        role: normalizeRole(values.role),
        password: await readPassword(),
        firstName: values['first-name'],
        lastName: values['last-name'],
        email: values.email,
      }),
    );
    out(`Created user ${user.username} (id ${user.id}, ${user.role})`);
    return 0;
  } finally {
    await db.destroy();
  }
}

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    if (error instanceof ValidationFailedError) {
      for (const [category, messages] of Object.entries(error.results.messages)) {
        for (const text of Object.values(messages)) process.stderr.write(`${category}: ${text}\n`);
      }
    } else if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
    } else {
      process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    }
    process.exitCode = 1;
  },
);
