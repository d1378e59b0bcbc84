import { describeError, measureSize, skipped, type Send, type SizeResult, type Verify } from './measure.js';
import type { ScaleService } from './server.js';
import { requestsFor } from './settings.js';

/** One scenario's figures over its sizes, as the report shows them. */
export interface ScenarioResult {
  readonly key: string;
  readonly title: string;
  /** What the size counts: children, metadata triples, rows, operators. */
  readonly unit: string;
  readonly sizes: SizeResult[];
  readonly notes: string[];
}

/** A request measured at every size of a series. */
export interface Probe {
  readonly result: ScenarioResult;
  send(size: number): Send;
  verify?(size: number): Verify;
  /** Each request adds data (so the bench sends only the set number, never more). */
  readonly writes?: boolean;
}

export function scenario(key: string, title: string, unit: string, notes: string[] = []): ScenarioResult {
  return { key, title, unit, sizes: [], notes };
}

const fmt = (n: number) => n.toLocaleString('en-US').replace(/,/g, ' ');

/**
 * Grows the data to each size in turn (`grow`, ascending sizes, the same data growing) and measures
 * every probe there. Sizes over `cap` are skipped; a failed set-up or a service that went down skips
 * what is left, and each skipped or failed size says why instead of ending the bench.
 */
export async function runSeries(
  service: ScaleService,
  sizes: readonly number[],
  cap: { value: number; name: string },
  grow: (size: number) => Promise<void>,
  probes: readonly Probe[],
): Promise<void> {
  let stopped: string | undefined;
  for (const size of sizes) {
    const skip = (why: string) => {
      for (const probe of probes) probe.result.sizes.push(skipped(size, why));
    };
    if (size > cap.value) {
      skip(`skipped: over ${cap.name}=${cap.value}`);
      continue;
    }
    if (stopped !== undefined) {
      skip(`not run: ${stopped}`);
      continue;
    }
    console.log(`   size ${fmt(size)}: setting up`);
    try {
      await grow(size);
    } catch (error) {
      const exited = service.exited();
      stopped = `set-up of size ${fmt(size)} failed: ${exited === undefined ? describeError(error) : `the service ${exited}`}`;
      skip(stopped);
      console.log(`   ✗ ${stopped}`);
      continue;
    }
    for (const probe of probes) {
      if (service.exited() !== undefined) {
        probe.result.sizes.push(skipped(size, `not run: the service ${service.exited()}`));
        continue;
      }
      const result = await measureSize(service, size, requestsFor(size), probe.send(size), {
        verify: probe.verify?.(size),
        extend: probe.writes !== true,
      });
      probe.result.sizes.push(result);
      console.log(`   ${probe.result.key} @ ${fmt(size)}: ${summary(result)}`);
    }
    if (service.exited() !== undefined) stopped = `the service ${service.exited()}`;
  }
}

function summary(r: SizeResult): string {
  const figures =
    r.medianMs === undefined
      ? ''
      : `median ${r.medianMs} ms over ${r.requests} (first ${r.firstMs} ms), ` +
        `CPU ${r.cpuMsPerRequest ?? '?'} ms/req, RSS +${r.rssGrowthMiB ?? '?'} MiB`;
  return [figures, r.failure === undefined ? '' : `✗ ${r.failure}`].filter(Boolean).join(' · ');
}
