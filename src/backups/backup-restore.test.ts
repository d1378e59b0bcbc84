import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  appOn,
  bytesOf,
  cliEnv,
  dataDirConfig,
  filesUnder,
  removeAll,
  runCli,
  tempDir,
  writeNumbered,
} from '../../test/support/backups/backup-fixture.js';
import { STAND_IN_CREDENTIALS, startS3StandIn } from '../../test/support/binary-stores/s3-stand-in.js';
import { repo } from '../../test/support/repository-client.js';
import type { TestApp } from '../../test/support/test-app.js';
import { BackupError, binaryPath, MANIFEST_FILE, readManifest } from './backup-manifest.js';
import { takeBackup } from './backup.js';
import { restoreBackup } from './restore.js';

/**
 * Backup and restore of the embedded SQLite database with its binaries (issue 33, DECISIONS.md §17), the
 * steps driven one at a time: writes between the binaries' listing and the snapshot are in the backup,
 * writes after the snapshot are not, and every refusal leaves the target untouched.
 */
const sha512 = (bytes: Buffer): string => createHash('sha512').update(bytes).digest('hex');
const quiet = (): void => undefined;

let source: TestApp;
let sourceDir: string;
/** A backup taken with write 4 between listing and snapshot, write 5 after the snapshot. */
let backupDir: string;

beforeAll(async () => {
  sourceDir = tempDir('backup-source');
  source = await appOn(sourceDir);
  for (let n = 1; n <= 3; n++) await writeNumbered(source, n);
  backupDir = path.join(tempDir('backup-target'), 'nightly');
  await takeBackup({
    config: dataDirConfig(sourceDir),
    dir: backupDir,
    report: quiet,
    onStep: async (step) => {
      await writeNumbered(source, step === 'binaries-listed' ? 4 : 5);
    },
  });
});
afterAll(async () => {
  await source.close();
  removeAll();
});

/** A copy of the backup to damage. */
function copyOfBackup(): string {
  const copy = path.join(tempDir('backup-copy'), 'copy');
  fs.cpSync(backupDir, copy, { recursive: true });
  return copy;
}

describe('backup of the embedded SQLite database', () => {
  it('holds the snapshot point: writes before it with their binaries (also those uploaded during the copy), none after', async () => {
    const manifest = await readManifest(backupDir);
    const digests = manifest.binaries.items.map((b) => b.sha512).sort();
    expect(digests).toEqual([1, 2, 3, 4].map((n) => sha512(bytesOf(n))).sort());
    expect(manifest.binaries.bytes).toBe([1, 2, 3, 4].reduce((sum, n) => sum + bytesOf(n).length, 0));
    // Write 5 was stored after the snapshot: neither in the database nor among the binaries.
    expect(fs.existsSync(binaryPath(backupDir, sha512(bytesOf(5))))).toBe(false);
    expect(manifest.source).toMatchObject({ database: 'sqlite', binaryStore: 'local' });
    expect(manifest.source.migration).toMatch(/^\d{3}-/);
    expect(manifest.files).toContain('secret');
    expect(fs.statSync(backupDir).mode & 0o777).toBe(0o700);
    for (const file of filesUnder(backupDir))
      expect(fs.statSync(path.join(backupDir, file)).mode & 0o777).toBe(0o600);

    const target = tempDir('restored');
    await restoreBackup({ config: dataDirConfig(target), dir: backupDir, force: false, report: quiet });
    expect(fs.readFileSync(path.join(target, 'secret'))).toEqual(
      fs.readFileSync(path.join(sourceDir, 'secret')),
    );
    const restored = await appOn(target);
    try {
      for (const n of [1, 2, 3, 4]) {
        const got = await repo(restored.app, 'GET', `/load/${n}`);
        expect(got.statusCode).toBe(200);
        expect(got.rawPayload.equals(bytesOf(n))).toBe(true);
      }
      expect((await repo(restored.app, 'GET', '/load/5')).statusCode).toBe(404);
    } finally {
      await restored.close();
    }
  });

  it('fails loudly, without a manifest, when a binary the snapshot references is gone from the store', async () => {
    const dir = path.join(tempDir('backup-missing'), 'b');
    let lost = '';
    const taking = takeBackup({
      config: dataDirConfig(sourceDir),
      dir,
      report: quiet,
      onStep: async (step) => {
        if (step !== 'binaries-listed') return;
        await writeNumbered(source, 6);
        // Its content vanishes before step 3 can copy it (a damaged store).
        lost = sha512(bytesOf(6));
        fs.rmSync(path.join(sourceDir, 'binaries', lost.slice(0, 2), lost.slice(2, 4), lost));
      },
    });
    await expect(taking).rejects.toThrow(BackupError);
    await expect(taking).rejects.toThrow(new RegExp(`${lost}.*incomplete.*retry`));
    expect(fs.existsSync(path.join(dir, MANIFEST_FILE))).toBe(false);
    await repo(source.app, 'DELETE', '/load/6');
  });

  it('refuses a target directory that exists and is not empty, writing nothing into it', async () => {
    const dir = tempDir('backup-busy');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'mine');
    await expect(takeBackup({ config: dataDirConfig(sourceDir), dir, report: quiet })).rejects.toThrow(
      /exists and is not empty/,
    );
    expect(filesUnder(dir)).toEqual(['notes.txt']);
  });
});

describe('restore', () => {
  it('refuses a backup with one byte of a binary changed, naming it, and touches nothing', async () => {
    const copy = copyOfBackup();
    const damaged = sha512(bytesOf(2));
    const file = binaryPath(copy, damaged);
    const bytes = fs.readFileSync(file);
    bytes[100] = bytes[100]! ^ 1;
    fs.writeFileSync(file, bytes);
    const target = tempDir('restore-tampered');
    await expect(
      restoreBackup({ config: dataDirConfig(target), dir: copy, force: true, report: quiet }),
    ).rejects.toThrow(new RegExp(`Binary ${damaged} is damaged`));
    expect(filesUnder(target)).toEqual([]);
  });

  it('refuses a backup whose database file was changed', async () => {
    const copy = copyOfBackup();
    fs.appendFileSync(path.join(copy, 'scriptorium.sqlite'), Buffer.from([0]));
    const target = tempDir('restore-tampered-db');
    await expect(
      restoreBackup({ config: dataDirConfig(target), dir: copy, force: false, report: quiet }),
    ).rejects.toThrow(/scriptorium\.sqlite does not match the manifest/);
    expect(filesUnder(target)).toEqual([]);
  });

  it('refuses a directory without a manifest (an unfinished backup)', async () => {
    const copy = copyOfBackup();
    fs.rmSync(path.join(copy, MANIFEST_FILE));
    const target = tempDir('restore-no-manifest');
    await expect(
      restoreBackup({ config: dataDirConfig(target), dir: copy, force: false, report: quiet }),
    ).rejects.toThrow(/holds no manifest\.json/);
    expect(filesUnder(target)).toEqual([]);
  });

  it('refuses a manifest of another format version', async () => {
    const copy = copyOfBackup();
    const file = path.join(copy, MANIFEST_FILE);
    fs.writeFileSync(
      file,
      JSON.stringify({ ...JSON.parse(fs.readFileSync(file, 'utf8')), formatVersion: 2 }),
    );
    await expect(
      restoreBackup({ config: dataDirConfig(tempDir('r')), dir: copy, force: false, report: quiet }),
    ).rejects.toThrow(/format version is 2/);
  });

  it('refuses an existing database without --force; with it, keeps the old one aside', async () => {
    const target = tempDir('restore-existing');
    const existing = await appOn(target);
    await writeNumbered(existing, 99);
    await existing.close();
    const database = path.join(target, 'scriptorium.sqlite');
    const before = fs.readFileSync(database);

    await expect(
      restoreBackup({ config: dataDirConfig(target), dir: backupDir, force: false, report: quiet }),
    ).rejects.toThrow(/scriptorium\.sqlite already exists.*--force/);
    expect(fs.readFileSync(database).equals(before)).toBe(true);

    const lines: string[] = [];
    await restoreBackup({
      config: dataDirConfig(target),
      dir: backupDir,
      force: true,
      report: (line) => lines.push(line),
    });
    expect(lines.filter((line) => line.startsWith('moved aside: '))).toHaveLength(2);
    const aside = fs
      .readdirSync(target)
      .filter((name) => name.startsWith('scriptorium.sqlite.before-restore-'));
    expect(aside).toHaveLength(1);
    expect(fs.readFileSync(path.join(target, aside[0]!)).equals(before)).toBe(true);
    // The different secret of the replaced data directory is kept aside too.
    expect(fs.readdirSync(target).filter((name) => name.startsWith('secret.before-restore-'))).toHaveLength(
      1,
    );
    const restored = await appOn(target);
    try {
      expect((await repo(restored.app, 'GET', '/load/99')).statusCode).toBe(404);
      expect((await repo(restored.app, 'GET', '/load/4')).rawPayload.equals(bytesOf(4))).toBe(true);
    } finally {
      await restored.close();
    }
  });
});

describe('on S3 (s3rver, a stand-in for S3)', () => {
  it('backs up from one bucket and restores into another, every binary rewritten and served', async () => {
    const s3 = await startS3StandIn();
    // The service's S3 client takes its credentials from the environment (the stand-in's one identity).
    const saved = { ...process.env };
    Object.assign(process.env, {
      AWS_ACCESS_KEY_ID: STAND_IN_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: STAND_IN_CREDENTIALS.secretAccessKey,
    });
    try {
      const from = s3.config(await s3.bucket());
      const to = s3.config(await s3.bucket(), 'restored');
      const dataDir = tempDir('s3-source');
      const app = await appOn(dataDir, from);
      for (const n of [1, 2, 3]) await writeNumbered(app, n);
      const dir = path.join(tempDir('s3-backup'), 'b');
      const manifest = await takeBackup({ config: dataDirConfig(dataDir, from), dir, report: quiet }).finally(
        () => app.close(),
      );
      expect(manifest.source.binaryStore).toBe('s3');
      expect(manifest.binaries.count).toBe(3);
      const target = tempDir('s3-restored');
      await restoreBackup({ config: dataDirConfig(target, to), dir, force: false, report: quiet });
      const restored = await appOn(target, to);
      try {
        for (const n of [1, 2, 3])
          expect((await repo(restored.app, 'GET', `/load/${n}`)).rawPayload.equals(bytesOf(n))).toBe(true);
      } finally {
        await restored.close();
      }
    } finally {
      process.env = saved;
      await s3.stop();
    }
  });
});

describe('the backup and restore commands', () => {
  it('print their help with --help', async () => {
    for (const command of ['backup', 'restore']) {
      const help = await runCli([command, '--help'], cliEnv(tempDir('help')));
      expect(help.status).toBe(0);
      expect(help.stdout).toContain('scriptorium backup <dir>');
      expect(help.stdout).toContain('Stop the service first');
    }
  });

  it('refuse a PostgreSQL database, pointing to the README, without creating the directory', async () => {
    const dir = path.join(tempDir('pg'), 'backup');
    const run = await runCli(
      ['backup', dir],
      cliEnv(tempDir('pg-data'), { DATABASE_URL: 'postgres://nobody@127.0.0.1:9/none' }),
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('pg_dump');
    expect(run.stderr).toContain('"Backups on PostgreSQL"');
    expect(run.stderr).not.toContain('nobody');
    expect(fs.existsSync(dir)).toBe(false);
    const postgres = { kind: 'postgres', url: 'postgres://nobody@127.0.0.1:9/none' } as const;
    await expect(
      restoreBackup({
        config: { ...dataDirConfig(tempDir('r')), database: postgres },
        dir: backupDir,
        force: true,
        report: quiet,
      }),
    ).rejects.toThrow(/pg_restore.*"Backups on PostgreSQL"/);
  });
});
