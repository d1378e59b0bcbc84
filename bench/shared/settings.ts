import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The project's root: every bench runs its children and reads node_modules from here. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** Where every bench writes its Markdown and JSON report. */
export const RESULTS = path.join(ROOT, 'bench', 'results');

/** An integer setting from the environment (BENCH_DURATION, BENCH_RUNS, …), `fallback` when unset. */
export function envInt(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min) throw new Error(`${name} must be an integer ≥ ${min}`);
  return Number(raw);
}
