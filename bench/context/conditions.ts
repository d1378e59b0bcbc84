import type { ContextReport } from '../context-report.js';
import {
  ADD_TARGETS,
  CHILDREN,
  CONNECTIONS,
  duration,
  METADATA,
  RDF_ACCEPT,
  runs,
  warmup,
} from './settings.js';

/** The report before any figure: the machine and the conditions every figure was measured under. */
export function emptyReport(machine: Record<string, string | number>, autocannon: string): ContextReport {
  return {
    date: new Date().toISOString(),
    machine,
    settings: {
      autocannon,
      connections: CONNECTIONS,
      durationSeconds: duration,
      runs,
      warmupSeconds: warmup,
      service:
        'node .bench-build/src/main.js (tsc’s output, as npm start runs it), LOG_LEVEL=info, SQLite in a fresh temporary data directory, ' +
        'signed in as admin (Bearer token on every request)',
      embedded:
        'the service’s own /rest/ (same process as the service), HTTP Basic; bare requests go straight to it',
      css: 'Community Solid Server 7.2 in a child process (test/contract/css-config.json: memory backend, allow-all, loopback)',
      data:
        `everything created through the API: views with the dc and dcterms schemas, a container with ` +
        `${METADATA.length} metadata triples (15 dc, 5 dcterms) and ${CHILDREN} empty child containers`,
      add:
        `POST …/metadata with dc:description "bench-add <n>" (n never repeats); every run writes to ${ADD_TARGETS} ` +
        'fresh containers shaped like the render one (round robin), so every side starts from the same state',
      latency:
        'per operation: the sum of autocannon’s per-request times (fractional ms) over one pass through ' +
        'the sequence on a connection; p50/p99 over all operations of a run, then the median over runs',
      counting:
        'a loopback proxy (bench/context-proxy.ts) in front of the repository records every request of ONE ' +
        'operation sent through a second view whose root is the proxy; never used under load',
      order:
        'per repository: render (warm-up, then bare/service alternating), then add (bare, service, PATCH only)',
      processes:
        'autocannon and the counting proxy in the parent process; service and CSS each in a child; all share the CPUs',
    },
    summary: [],
    counts: [],
    legend:
      'In the request lines `<container>` stands for the path of the container the operation is about and ' +
      `\`<RDF>\` for the adapter's Accept list \`${RDF_ACCEPT}\`.`,
    setup: [],
    comparisons: [],
    goalHolds: false,
  };
}
