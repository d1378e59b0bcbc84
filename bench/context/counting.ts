import type { CountingProxy, ProxiedRequest } from '../context-proxy.js';
import type { OperationCount } from '../context-report.js';
import type { Api, View } from './api.js';
import { pathOf, type Repository } from './repositories.js';
import { ADDED_PREDICATE, COUNT_REPEATS, RDF_ACCEPT } from './settings.js';

/**
 * Counting upstream requests: one operation at a time through a view whose root is the counting
 * proxy, compared with the minimum the operation needs. Never used under load.
 */

interface Expected {
  method: string;
  path: string;
}

/** Numbers the added literals (`bench-add <n>`, `bench-bare <n>`) so no literal repeats in a run. */
export interface LiteralCounter {
  service: number;
  bare: number;
}

/** The requests the proxy saw during `operation`, once the service has answered. */
async function countOnce(proxy: CountingProxy, operation: () => Promise<unknown>): Promise<ProxiedRequest[]> {
  proxy.reset();
  await operation();
  await new Promise((resolve) => setTimeout(resolve, 100)); // anything sent after the answer, too
  return [...proxy.log];
}

function countOperation(
  repo: Repository,
  operation: string,
  seen: ProxiedRequest[][],
  minimum: Expected[],
  note: string,
  container: string,
): OperationCount {
  const first = seen[0] ?? [];
  // Readable lines: the container's path as <container>, the adapter's RDF Accept list as <RDF>.
  const containerPath = pathOf(container).replace(/\/$/, '');
  const short = (text: string) =>
    text.split(containerPath).join('<container>').split(RDF_ACCEPT).join('<RDF>');
  const stable = seen.every((s) => s.length === first.length);
  const remaining = [...minimum];
  const extra: ProxiedRequest[] = [];
  for (const request of first) {
    const at = remaining.findIndex((m) => m.method === request.method && m.path === request.path);
    if (at >= 0) remaining.splice(at, 1);
    else extra.push(request);
  }
  return {
    repository: repo.label,
    operation,
    perOperation: seen.map((s) => s.length),
    stable,
    minimum: minimum.length,
    minimumNote: note,
    requests: first.map((r) =>
      short(`${r.method} ${r.path} → ${r.status}${r.note === '' ? '' : ` (${r.note})`}`),
    ),
    extra: extra.map((r) => short(`${r.method} ${r.path}`)),
    missing: remaining.map((r) => short(`${r.method} ${r.path}`)),
  };
}

/** Where the counted operations go: the proxied view and the repository's URIs made relative to it. */
export interface Counted {
  readonly api: Api;
  readonly repo: Repository;
  readonly proxy: CountingProxy;
  readonly view: View;
}

const relative = (repo: Repository, uri: string) => uri.slice(repo.root.length);

export async function countRender(
  { api, repo, proxy, view }: Counted,
  container: string,
): Promise<OperationCount> {
  const seen: ProxiedRequest[][] = [];
  for (let i = 0; i < COUNT_REPEATS; i++) {
    seen.push(await countOnce(proxy, () => api.context(view, relative(repo, container))));
  }
  const minimum = repo.render(container).map((r) => ({ method: r.method, path: r.path }));
  return countOperation(repo, 'render context', seen, minimum, repo.minimumNotes.render, container);
}

export async function countAdd(
  { api, repo, proxy, view }: Counted,
  target: string,
  literals: LiteralCounter,
): Promise<OperationCount> {
  const seen: ProxiedRequest[][] = [];
  for (let i = 0; i < COUNT_REPEATS; i++) {
    seen.push(
      await countOnce(proxy, () =>
        api.context(view, relative(repo, target), '/metadata', 'POST', {
          subject: relative(repo, target),
          predicate: ADDED_PREDICATE,
          object: `"bench-add ${++literals.service}"`,
        }),
      ),
    );
  }
  const minimum = [repo.patch(target, ''), ...repo.render(target)].map((r) => ({
    method: r.method,
    path: r.path,
  }));
  return countOperation(repo, 'add metadata triple', seen, minimum, repo.minimumNotes.add, target);
}

export function logCounts(counts: readonly OperationCount[]): void {
  for (const count of counts) {
    console.log(
      `   upstream requests per ${count.operation}: ${count.perOperation.join(', ')} (minimum ${count.minimum})` +
        (count.extra.length === 0 ? '' : `; beyond it: ${count.extra.join(', ')}`),
    );
  }
}
