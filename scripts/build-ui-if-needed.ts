import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm start` builds the workbench when its sources changed since the last build (or there is none):
 * a hash of every file under ui/ (the browser tests aside) and of the lock file, kept next to the build.
 */
const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = path.join(root, 'dist', 'ui');
const stampFile = path.join(outDir, '.source-hash');

function sourceFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'e2e' ? [] : sourceFiles(full);
      return [full];
    })
    .sort();
}

const hash = createHash('sha256');
for (const file of [...sourceFiles(path.join(root, 'ui')), path.join(root, 'package-lock.json')]) {
  hash.update(path.relative(root, file)).update('\0').update(fs.readFileSync(file)).update('\0');
}
const sourceHash = hash.digest('hex');
const built =
  fs.existsSync(path.join(outDir, 'index.html')) &&
  fs.existsSync(stampFile) &&
  fs.readFileSync(stampFile, 'utf8') === sourceHash;

if (built) {
  process.stdout.write('workbench: up to date (dist/ui)\n');
} else {
  process.stdout.write('workbench: building dist/ui …\n');
  const result = spawnSync(
    process.execPath,
    [
      path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
      'build',
      '--config',
      'ui/vite.config.ts',
      '--logLevel',
      'warn',
    ],
    { cwd: root, stdio: 'inherit', env: { ...process.env, SCRIPTORIUM_UI_OUT_DIR: outDir } },
  );
  if (result.status !== 0) process.exit(result.status ?? 1);
  fs.writeFileSync(stampFile, sourceHash);
}
