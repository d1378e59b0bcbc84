import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';

/**
 * Starts the jobs' worker thread from `job-work.worker`: the compiled `.js` beside this file (`npm start`
 * runs `dist/`), or, when this file runs as TypeScript (tsx, vitest, the benches), the `.ts` source
 * through tsx's loader, registered inside the worker first: Node 20 loads a worker's entry before hooks
 * given by `--import` are in place.
 */
export function startJobWorker(): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./job-work.worker.js', here));
  const entry = new URL('./job-work.worker.ts', here).href;
  const tsx = tsxApiUrl(here);
  const bootstrap = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true });
}

/** tsx's ESM API module (its `import` export), found from this file as Node would find it. */
function tsxApiUrl(from: string): string {
  const manifest = createRequire(from).resolve('tsx/package.json');
  const exported = (createRequire(from)('tsx/package.json') as TsxManifest).exports['./esm/api'].import
    .default;
  return pathToFileURL(join(dirname(manifest), exported)).href;
}

interface TsxManifest {
  readonly exports: { readonly './esm/api': { readonly import: { readonly default: string } } };
}
