import { median } from '../shared/median.js';
import { cpuMs, peakRssKiB, resetPeakRss, rssNowKiB } from '../shared/proc-stat.js';
import { TIMEOUT_MS } from './settings.js';

/** What one size of one scenario measured, or why it could not. */
export interface SizeResult {
  readonly size: number;
  /** Measured requests that completed (the warm-up not counted). */
  readonly requests: number;
  /** Latency of the unmeasured first request: with caches cold, it shows what a change costs. */
  readonly firstMs?: number;
  readonly medianMs?: number;
  /** The server's user + system CPU time over the measured requests ÷ their number. */
  readonly cpuMsPerRequest?: number;
  /** Server RSS before the size's first request, and its peak during them minus that. */
  readonly rssBeforeMiB?: number;
  readonly rssGrowthMiB?: number;
  /**
   * When the measured requests ran, in CLOCK_MONOTONIC microseconds — the clock of V8's profiles, so
   * `bench/scale/profile-top.ts` can cut a service's --cpu-prof profile down to one size.
   */
  readonly clockUs?: readonly [number, number];
  /** Set when the size failed (timeout, error status, the service gone) or was skipped. */
  readonly failure?: string;
}

/** One request of a scenario: the answer's body; throws when the answer is not a success. */
export type Send = (signal: AbortSignal) => Promise<string>;
/** Checks the first answer of a size in detail: a reason when it is wrong, else undefined. */
export type Verify = (body: string) => string | undefined;

/** The server under measurement: its pid for /proc and whether it is still running. */
export interface Measured {
  readonly pid: number;
  exited(): string | undefined;
}

const MIB = 1024;
const MIN_MEASURED_MS = 2000;
const MAX_REQUESTS = 400;
const monotonicUs = () => Number(process.hrtime.bigint() / 1000n);
const round = (value: number, digits: number) => Number(value.toFixed(digits));

async function timed(send: Send, verify?: Verify): Promise<number> {
  const started = performance.now();
  const body = await send(AbortSignal.timeout(TIMEOUT_MS));
  const elapsed = performance.now() - started;
  const wrong = verify?.(body);
  if (wrong !== undefined) throw new Error(`wrong answer: ${wrong}`);
  return elapsed;
}

/**
 * One warm-up request (its answer checked by `verify`), then at least `count` sequential ones. Peak memory comes from the kernel's VmHWM mark,
 * reset before the warm-up; where the bench may not reset it, from sampling VmRSS every 20 ms. A failure
 * ends the size and is reported for it, with whatever was measured before.
 */
export async function measureSize(
  server: Measured,
  size: number,
  count: number,
  send: Send,
  options: { verify?: Verify | undefined; extend: boolean },
): Promise<SizeResult> {
  const { pid } = server;
  const before = rssNowKiB(pid);
  const exact = resetPeakRss(pid);
  let sampled = before;
  const sampler = exact
    ? undefined
    : setInterval(() => {
        sampled = Math.max(sampled, rssNowKiB(pid));
      }, 20);
  const latencies: number[] = [];
  let firstMs: number | undefined;
  let failure: string | undefined;
  let cpuBefore = 0;
  let clockStart = 0;
  try {
    firstMs = await timed(send, options.verify);
    cpuBefore = cpuMs(pid);
    clockStart = monotonicUs();
    // Cheap requests run on past `count` (unless each one grows the data), up to MIN_MEASURED_MS or
    // MAX_REQUESTS: CPU time comes in 10 ms ticks, so a figure per request needs enough of them.
    const started = performance.now();
    while (
      latencies.length < count ||
      (options.extend && performance.now() - started < MIN_MEASURED_MS && latencies.length < MAX_REQUESTS)
    ) {
      latencies.push(await timed(send));
    }
  } catch (error) {
    const exited = server.exited();
    failure = exited !== undefined ? `the service ${exited}` : describeError(error);
  } finally {
    clearInterval(sampler);
  }
  const clockEnd = monotonicUs();
  const alive = server.exited() === undefined;
  const peak = alive ? (exact ? peakRssKiB(pid) : Math.max(sampled, rssNowKiB(pid))) : undefined;
  const cpu = alive && latencies.length > 0 ? (cpuMs(pid) - cpuBefore) / latencies.length : undefined;
  return {
    size,
    requests: latencies.length,
    ...(firstMs === undefined ? {} : { firstMs: round(firstMs, 1) }),
    ...(latencies.length === 0 ? {} : { medianMs: round(median(latencies), 2) }),
    ...(cpu === undefined ? {} : { cpuMsPerRequest: round(cpu, 2) }),
    rssBeforeMiB: round(before / MIB, 1),
    ...(peak === undefined ? {} : { rssGrowthMiB: round(Math.max(0, peak - before) / MIB, 1) }),
    ...(latencies.length === 0 ? {} : { clockUs: [clockStart, clockEnd] as const }),
    ...(failure === undefined ? {} : { failure }),
  };
}

export function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return `timed out after ${TIMEOUT_MS / 1000} s`;
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return `${error.message.slice(0, 300)}${cause}`;
  }
  return String(error);
}

/** A size not measured, with the reason (over a cap, set-up failed, an earlier size failed). */
export const skipped = (size: number, why: string): SizeResult => ({ size, requests: 0, failure: why });
