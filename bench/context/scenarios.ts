import type { Comparison } from '../context-report.js';
import type { Api, View } from './api.js';
import type { LiteralCounter } from './counting.js';
import { bareLabel, describe, measure } from './measure.js';
import type { Repository } from './repositories.js';
import { bareAdd, bareRender, serviceAdd, serviceRender } from './sides.js';
import {
  ADD_TARGETS,
  ADDED_PREDICATE,
  CHILDREN,
  CONNECTIONS,
  duration,
  METADATA,
  runs,
  warmup,
} from './settings.js';

/** What the measured scenarios of one repository work on. */
export interface ScenarioContext {
  readonly api: Api;
  readonly repo: Repository;
  readonly view: View;
  readonly literals: LiteralCounter;
}

/**
 * 1. Render: warm-up, then bare and service runs alternating. Where a render needs more than one bare
 * request (the embedded repository: the resource and its fcr:versions), the bare GET of the resource
 * alone is measured too (issue 10 compares the render with "a bare GET of the same resource"): two
 * comparisons sharing the service runs.
 */
export async function benchRender(
  { api, repo, view }: ScenarioContext,
  container: string,
): Promise<Comparison[]> {
  const service = serviceRender(api, repo, view, container);
  const bare = bareRender(repo, container);
  const single = bare.requests.length > 1 ? bareRender(repo, container, true) : undefined;
  const renderComparison = (baseline: string): Comparison => ({
    repository: repo.label,
    operation: `render context (${METADATA.length} metadata triples, ${CHILDREN} children)`,
    baseline,
    goal: true,
    service: [],
    bare: [],
    checks: [],
  });
  const comparison = renderComparison(bareLabel(repo, false));
  const singleComparison =
    single === undefined
      ? undefined
      : renderComparison('GET <container> only (a bare GET of the same resource)');
  if (warmup > 0) {
    console.log(`warm-up ${warmup} s: render`);
    await measure(bare, warmup);
    await measure(service, warmup);
  }
  for (let run = 1; run <= runs; run++) {
    process.stdout.write(`run ${run}/${runs}: render · bare upstream … `);
    const bareRun = await measure(bare, duration);
    console.log(describe(bareRun.figures));
    process.stdout.write(`run ${run}/${runs}: render · service … `);
    const serviceRun = await measure(service, duration);
    console.log(describe(serviceRun.figures));
    comparison.bare.push(bareRun.figures);
    comparison.service.push(serviceRun.figures);
    if (single !== undefined && singleComparison !== undefined) {
      process.stdout.write(`run ${run}/${runs}: render · bare GET only … `);
      const singleRun = await measure(single, duration);
      console.log(describe(singleRun.figures));
      singleComparison.bare.push(singleRun.figures);
      singleComparison.service.push(serviceRun.figures);
    }
  }
  return singleComparison === undefined ? [comparison] : [comparison, singleComparison];
}

/** Triples added to `targets` (literals starting with `prefix`), read back through the service. */
async function added({ api, view }: ScenarioContext, targets: string[], prefix: string) {
  let total = 0;
  for (const target of targets) {
    const context = await api.context(view, target);
    total += context.metadata.filter(
      (t) => t.predicate === ADDED_PREDICATE && t.object.startsWith(`"${prefix} `),
    ).length;
  }
  return total;
}

/** Every acknowledged write must show up as a triple; a few more may come from unseen in-flight ones. */
function check(what: string, triples: number, acknowledged: number) {
  const ok = triples >= acknowledged && triples <= acknowledged + CONNECTIONS;
  const text =
    `${what}: ${triples} triples added for ${acknowledged} acknowledged writes ` +
    `(up to ${CONNECTIONS} more may be unseen in-flight requests)`;
  console.log(`   ${ok ? 'check' : '⚠ CHECK FAILED'}: ${text}`);
  return { ok, text };
}

const addComparison = (repo: Repository, baseline: string): Comparison => ({
  repository: repo.label,
  operation: 'add metadata triple (new literal each)',
  baseline,
  goal: true,
  service: [],
  bare: [],
  checks: [],
});

/**
 * 2. Add a metadata triple: against the PATCH + re-read the answer needs, and against the PATCH alone.
 * Every run of every side writes to a fresh set of targets from `newTargets`.
 */
export async function benchAdd(
  scenario: ScenarioContext,
  countTargets: string[],
  newTargets: () => Promise<string[]>,
): Promise<Comparison[]> {
  const { api, repo, view, literals } = scenario;
  const sequence = addComparison(repo, bareLabel(repo, true));
  const patchOnly = addComparison(
    repo,
    `${repo.key === 'css' ? 'PATCH <container>.meta' : 'PATCH <container>'} only (the brief’s baseline)`,
  );
  if (warmup > 0) {
    console.log(`warm-up ${warmup} s: add`);
    await measure(bareAdd(repo, literals, countTargets, true), warmup);
    await measure(serviceAdd(api, repo, view, literals, countTargets), warmup);
    await measure(bareAdd(repo, literals, countTargets, false), warmup);
  }
  for (let run = 1; run <= runs; run++) {
    const bareTargets = await newTargets();
    process.stdout.write(`run ${run}/${runs}: add · bare upstream (PATCH + re-read) … `);
    const bare = await measure(bareAdd(repo, literals, bareTargets, true), duration);
    console.log(describe(bare.figures));
    sequence.checks.push(
      check(`run ${run} bare`, await added(scenario, bareTargets, 'bench-bare'), bare.okByIndex[0]!),
    );

    const serviceTargets = await newTargets();
    process.stdout.write(`run ${run}/${runs}: add · service … `);
    const service = await measure(serviceAdd(api, repo, view, literals, serviceTargets), duration);
    console.log(describe(service.figures));
    const serviceCheck = check(
      `run ${run} service`,
      await added(scenario, serviceTargets, 'bench-add'),
      service.successes,
    );
    sequence.checks.push(serviceCheck);
    patchOnly.checks.push(serviceCheck);

    const patchTargets = await newTargets();
    process.stdout.write(`run ${run}/${runs}: add · bare upstream (PATCH only) … `);
    const patch = await measure(bareAdd(repo, literals, patchTargets, false), duration);
    console.log(describe(patch.figures));
    patchOnly.checks.push(
      check(`run ${run} PATCH only`, await added(scenario, patchTargets, 'bench-bare'), patch.okByIndex[0]!),
    );

    sequence.bare.push(bare.figures);
    sequence.service.push(service.figures);
    patchOnly.bare.push(patch.figures);
    patchOnly.service.push(service.figures);
    const growth = (ops: number) => (ops / ADD_TARGETS).toFixed(0);
    sequence.growth = [
      ...(sequence.growth ?? []),
      `run ${run}: each target gained ≈${growth(service.figures.ops)} triples (service), ` +
        `≈${growth(bare.figures.ops)} (bare PATCH + re-read), ≈${growth(patch.figures.ops)} (PATCH only)`,
    ];
  }
  return [sequence, patchOnly];
}
