import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Profiling the service of a scale run (BENCH_SCALE_CPU_PROF=<dir>). Node refuses --cpu-prof in
 * NODE_OPTIONS and the shared child-server starts `node --import tsx <entry>` without extra flags, so the
 * service gets `--require` of a small preload instead: it starts V8's profiler through node:inspector and
 * writes `<dir>/scale-<pid>.cpuprofile` when the process exits (the service exits on SIGTERM).
 */
const PRELOAD = `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const inspector = require('node:inspector');
const dir = process.env.BENCH_SCALE_CPU_PROF_DIR;
const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 1000 });
session.post('Profiler.start');
process.on('exit', () => {
  // The same-thread session answers synchronously, so the profile is written before the process ends.
  session.post('Profiler.stop', (error, result) => {
    if (!error) fs.writeFileSync(path.join(dir, 'scale-' + process.pid + '.cpuprofile'), JSON.stringify(result.profile));
  });
});
`;

/** The environment that makes a service profile itself into `dir`, or none when `dir` is unset. */
export async function profilerEnv(dir: string | undefined): Promise<Record<string, string>> {
  if (dir === undefined || dir === '') return {};
  const absolute = path.resolve(dir);
  await mkdir(absolute, { recursive: true });
  // Next to the profiles it writes, so nothing is left in the temporary directory.
  const preload = path.join(absolute, 'scale-preload.cjs');
  await writeFile(preload, PRELOAD);
  return { NODE_OPTIONS: `--require ${preload}`, BENCH_SCALE_CPU_PROF_DIR: absolute };
}
