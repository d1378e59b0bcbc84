import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appOn,
  bytesOf,
  cliEnv,
  removeAll,
  runCli,
  tempDir,
  writeNumbered,
} from '../../test/support/backups/backup-fixture.js';
import { repo } from '../../test/support/repository-client.js';
import { readManifest } from './backup-manifest.js';

/**
 * Issue 33's "done when": a backup taken under load restores and verifies. A writer keeps storing numbered
 * binaries (write n: /rest/load/<n> with bytes derived from n, one request each, one after the other)
 * while `scriptorium backup` runs in a child process on the same SQLite file and binaries directory; the
 * backup is restored into a fresh data directory by `scriptorium restore` (which checks every binary's
 * SHA-512), and an app started on it serves exactly writes 1..k for some k, each with its own bytes.
 */
afterAll(() => {
  removeAll();
});

const PRELOADED = 120;

describe('a backup taken under load', () => {
  it('restores to a consistent point in time with every binary verified and served', async () => {
    const sourceDir = tempDir('load-source');
    const source = await appOn(sourceDir);
    let written = 0;
    const load = { writing: true };
    let writer: Promise<void> = Promise.resolve();
    try {
      for (let n = 1; n <= PRELOADED; n++) await writeNumbered(source, ++written);
      writer = (async () => {
        while (load.writing) await writeNumbered(source, ++written);
      })();
      // Awaited below; a failed write must not surface as an unhandled rejection before that.
      writer.catch(() => undefined);
      const backupDir = path.join(tempDir('load-backup'), 'backup');
      const writtenAtStart = written;
      const backup = await runCli(['backup', backupDir], cliEnv(sourceDir));
      const writtenAtEnd = written;
      load.writing = false;
      await writer;
      expect(backup.stderr).toBe('');
      expect(backup.status).toBe(0);
      expect(backup.stdout).toMatch(/binaries copied \d+\/\d+/);
      expect(backup.stdout).toMatch(/^Backup complete in .*: database .*, \d+ binaries/m);
      // The load really ran during the backup.
      expect(writtenAtEnd).toBeGreaterThan(writtenAtStart);

      const targetDir = tempDir('load-restored');
      const restore = await runCli(['restore', backupDir], cliEnv(targetDir));
      expect(restore.stderr).toBe('');
      expect(restore.status).toBe(0);
      const manifest = await readManifest(backupDir);
      expect(restore.stdout).toContain(
        `backup verified: database SHA-256 and ${manifest.binaries.count} binaries' SHA-512 match the manifest`,
      );

      const restored = await appOn(targetDir);
      try {
        const present: number[] = [];
        for (let n = 1; n <= written; n++) {
          const got = await repo(restored.app, 'GET', `/load/${n}`);
          if (got.statusCode === 404) continue;
          expect(got.statusCode).toBe(200);
          // No resource without its binary, and the bytes are write n's.
          expect(got.rawPayload.equals(bytesOf(n))).toBe(true);
          present.push(n);
        }
        // A consistent point in time: exactly writes 1..k, nothing after, k taken while the writer ran.
        const k = present.length;
        expect(present).toEqual(Array.from({ length: k }, (_, i) => i + 1));
        expect(k).toBeGreaterThanOrEqual(writtenAtStart);
        expect(k).toBeLessThanOrEqual(writtenAtEnd);
        // Exactly the snapshot's binaries are in the backup, one per write.
        expect(manifest.binaries.items.map((b) => b.sha512).sort()).toEqual(
          present.map((n) => createHash('sha512').update(bytesOf(n)).digest('hex')).sort(),
        );
        expect(fs.readFileSync(path.join(targetDir, 'secret'))).toEqual(
          fs.readFileSync(path.join(sourceDir, 'secret')),
        );
        process.stdout.write(
          `backup under load: ${writtenAtStart} writes before, ${writtenAtEnd - writtenAtStart} during the backup; ` +
            `snapshot at write ${k}\n${backup.stdout}`,
        );
      } finally {
        await restored.close();
      }
    } finally {
      load.writing = false;
      await writer.catch(() => undefined);
      await source.close();
    }
  }, 120_000);
});
