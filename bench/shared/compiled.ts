import { spawn } from 'node:child_process';
import path from 'node:path';
import { ROOT } from './settings.js';

/** Where `compileServers` writes tsc's output (git, lint and format ignore it). */
const BUILD_DIR = '.bench-build';

/**
 * Compiles the service and the bench's own servers with tsc (of the checkout at `root`: another checkout is a
 * baseline to compare against, e.g. `BENCH_LOAD_BASELINE`) (`bench/tsconfig.servers.json`: the
 * project's compiler settings, tests left out), so that every server runs as `npm start` runs the
 * service: plain Node on tsc's output, without a loader. Under `tsx` the service spent about 25 µs more
 * CPU per apply request (esbuild's `keepNames` names every closure as it is created, on every request).
 */
export async function compileServers(root = ROOT): Promise<void> {
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const child = spawn(process.execPath, [tsc, '-p', path.join('bench', 'tsconfig.servers.json')], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', resolve);
  });
  if (code !== 0) throw new Error(`tsc -p bench/tsconfig.servers.json exited with ${String(code)}`);
}

/** The compiled entry of a source file, relative to the project's root: `src/main.ts` → `.bench-build/src/main.js`. */
export function compiledEntry(source: string): string {
  return path.join(BUILD_DIR, source.replace(/\.ts$/, '.js'));
}
