import autocannon from 'autocannon';
import type { OpFigures } from '../context-report.js';
import { figures, runProblems } from '../report.js';
import { SUCCESS_PREFIX } from '../scenarios.js';
import type { BareRequest, Repository } from './repositories.js';
import { checkChildren } from './servers.js';
import { CONNECTIONS } from './settings.js';

/** One side of a comparison: the service, or the bare upstream requests the same operation needs. */
export interface Side {
  readonly key: 'service' | 'bare' | 'patch';
  readonly label: string;
  readonly origin: string;
  /** One operation: these requests in order (the service: one request). */
  readonly requests: autocannon.Request[];
  readonly verifyBody?: (body: string | Buffer | undefined) => boolean;
}

export interface Measured {
  figures: OpFigures;
  /** 2xx responses per request of the sequence. */
  okByIndex: number[];
  successes: number;
}

export const isSuccess = (body: string | Buffer | undefined) =>
  typeof body === 'string' && body.startsWith(SUCCESS_PREFIX);

const quantile = (sorted: readonly number[], q: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/**
 * One autocannon run. Operation latency is the sum of the request durations autocannon measures
 * (fractional milliseconds) over one pass through the sequence on one connection; operations/s is
 * completed sequences per second.
 */
export async function measure(side: Side, seconds: number): Promise<Measured> {
  const n = side.requests.length;
  const latencies: number[] = [];
  const okByIndex = new Array<number>(n).fill(0);
  const result = await autocannon({
    url: side.origin,
    connections: CONNECTIONS,
    duration: seconds,
    requests: side.requests,
    ...(side.verifyBody === undefined ? {} : { verifyBody: side.verifyBody }),
    setupClient: (client) => {
      const state = { index: -1, sum: 0 };
      client.setRequests(
        side.requests.map((request, i) => ({
          ...request,
          onResponse: (status: number) => {
            state.index = i;
            if (status >= 200 && status < 300) okByIndex[i]!++;
          },
        })),
      );
      client.on('response', (_status: number, _bytes: number, responseTime: number) => {
        if (state.index === 0) state.sum = 0;
        state.sum += responseTime;
        if (state.index === n - 1) latencies.push(state.sum);
      });
    },
  });
  checkChildren(side.label);
  latencies.sort((a, b) => a - b);
  const requests = figures(result);
  const mean = latencies.reduce((sum, v) => sum + v, 0) / Math.max(1, latencies.length);
  return {
    figures: {
      opsPerSec: latencies.length / result.duration,
      p50Ms: quantile(latencies, 0.5),
      p99Ms: quantile(latencies, 0.99),
      meanMs: mean,
      ops: latencies.length,
      requests,
    },
    okByIndex,
    successes: requests.responses - requests.non2xx - requests.notSuccess,
  };
}

export const describe = (f: OpFigures) =>
  `${f.opsPerSec.toFixed(0)} op/s, p50 ${f.p50Ms.toFixed(2)} ms, p99 ${f.p99Ms.toFixed(2)} ms` +
  (runProblems(f.requests) === '' ? '' : `  ⚠ ${runProblems(f.requests)}`);

export function bareRequest(request: BareRequest): autocannon.Request {
  return {
    method: request.method,
    path: request.path,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
  };
}

/** `GET <container> + GET <container>/fcr:versions`, with the PATCH first for the add operation. */
export function bareLabel(repo: Repository, withPatch: boolean): string {
  const sample = 'http://x/c';
  const name = (r: BareRequest) =>
    `${r.method} ${r.path.endsWith('/fcr:versions') ? '<container>/fcr:versions' : r.path.endsWith('.meta') ? '<container>.meta' : '<container>'}`;
  const parts = [...(withPatch ? [repo.patch(sample, '')] : []), ...repo.render(sample)];
  return parts.map(name).join(' + ');
}
