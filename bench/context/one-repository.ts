import { startCountingProxy } from '../context-proxy.js';
import type { Comparison, OperationCount } from '../context-report.js';
import type { Api } from './api.js';
import { checkShape, createBenchContainer, createContainer, createView, targetSets } from './containers.js';
import { countAdd, countRender, logCounts, type LiteralCounter } from './counting.js';
import type { Repository } from './repositories.js';
import { benchAdd, benchRender } from './scenarios.js';
import { proxies } from './servers.js';
import { DC } from './settings.js';

export interface RepositoryResult {
  comparisons: Comparison[];
  counts: OperationCount[];
  setup: string[];
}

/**
 * Everything measured on one repository, in this order: the views and the render container, the
 * upstream request counts through the proxied view, then render and add under load.
 */
export async function benchRepository(
  api: Api,
  repo: Repository,
  schemaIds: number[],
): Promise<RepositoryResult> {
  console.log(`\n== ${repo.label} at ${repo.root}`);
  const proxy = await startCountingProxy(repo.origin);
  proxies.push(proxy);
  const stamp = Date.now().toString(36);
  const view = await createView(api, repo, `Context bench ${repo.key} ${stamp}`, repo.root, schemaIds);
  const proxiedRoot = `${proxy.origin}${new URL(repo.root).pathname}`;
  const counted = await createView(
    api,
    repo,
    `Context bench ${repo.key} counted ${stamp}`,
    proxiedRoot,
    schemaIds,
  );
  const relative = (uri: string) => uri.slice(repo.root.length);
  const setup: string[] = [
    `${repo.label}: view ${view.id} on ${repo.root}; view ${counted.id} on the counting proxy ${proxiedRoot} ` +
      '(same repository, used only to count one operation at a time)',
  ];

  const started = performance.now();
  const home = await createContainer(api, view, repo.root, [
    { predicate: `${DC}title`, object: `"Context bench ${stamp}"` },
  ]);
  const container = await createBenchContainer(api, view, home);
  const made = ((performance.now() - started) / 1000).toFixed(1);
  setup.push(
    checkShape(await api.context(view, container), `render container ${container} (set up in ${made} s)`),
  );
  setup.push(
    checkShape(
      await api.context(counted, relative(container)),
      'the same container through the counting proxy',
    ),
  );
  setup.forEach((line) => {
    console.log(`   ${line}`);
  });

  // Counting: one operation at a time through the proxied view.
  const literals: LiteralCounter = { service: 0, bare: 0 };
  const countedAt = { api, repo, proxy, view: counted };
  const counts: OperationCount[] = [await countRender(countedAt, container)];
  const newTargets = targetSets(api, view, home);
  const countTargets = await newTargets();
  counts.push(await countAdd(countedAt, countTargets[0]!, literals));
  logCounts(counts);

  const scenario = { api, repo, view, literals };
  const comparisons: Comparison[] = await benchRender(scenario, container);
  comparisons.push(...(await benchAdd(scenario, countTargets, newTargets)));
  return { comparisons, counts, setup };
}
