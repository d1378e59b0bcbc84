import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from './settings.js';

/** The installed autocannon's version, for the report's conditions. */
export async function autocannonVersion(): Promise<string> {
  const manifest = await readFile(path.join(ROOT, 'node_modules/autocannon/package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/** The machine a report's figures were measured on. */
export function machineFacts(): Record<string, string | number> {
  const cpus = os.cpus();
  return {
    node: process.version,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpuCount: cpus.length,
    totalMemoryGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)),
    // Other work on the machine skews every figure; a 1-minute load well above 0 before the bench
    // starts means a noisy run (during it, the bench itself keeps two to three threads busy).
    loadAverageAtStart: os.loadavg()[0]!.toFixed(2),
  };
}
