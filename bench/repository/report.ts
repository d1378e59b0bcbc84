import fs from 'node:fs';
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { runProblems } from '../report.js';
import { median } from '../shared/median.js';
import { RESULTS } from '../shared/settings.js';
import { CONNECTIONS, duration, runs, uploadMiB } from './settings.js';
import type { SmallResult } from './throughput.js';
import { s3ReportLines } from './s3-report.js';
import type { S3Series } from './s3-transfers.js';
import { uploadFloorMs, type DiskFloor, type TransferResult } from './transfers.js';

/** Writes bench/results/repository.md and .json and prints the Markdown. */
export async function writeRepositoryReport(
  small: readonly SmallResult[],
  large: { disk: DiskFloor; results: TransferResult[] },
  s3: S3Series | undefined,
): Promise<void> {
  const lines = [
    '# Embedded repository benchmark',
    '',
    `${new Date().toISOString()} · Node ${process.version} · ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? '?'} · ` +
      `${CONNECTIONS} connections, ${duration} s per run, ${runs} runs (medians)`,
    '',
    'Scriptorium: `node .bench-build/src/main.js` (tsc’s output, as `npm start` runs it), SQLite, LOG_LEVEL=info, HTTP Basic on every request. ' +
      'Community Solid Server 7.2: memory backend, allow-all authorization, log level warn. Both in child processes; ' +
      'autocannon in the parent; all share the CPUs.',
    '',
  ];
  if (small.length === 0) lines.push('Operations (create, PATCH, GET): not run (BENCH_PARTS).');
  else {
    lines.push(
      '| operation | Scriptorium req/s | CSS req/s | ratio (goal ≥ 5×) | Scriptorium p50 / p99 ms | CSS p50 / p99 ms | problems |',
      '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    );
  }
  const json: Record<string, unknown> = { small: [], large, s3 };
  for (const s of small) {
    const a = median(s.scriptorium.map((f) => f.reqPerSec));
    const b = median(s.css.map((f) => f.reqPerSec));
    const problems = [
      ...s.scriptorium.map((f) => runProblems(f)),
      ...s.css.map((f) => runProblems(f)),
    ].filter((p) => p !== '');
    lines.push(
      `| ${s.scenario} | ${a.toFixed(0)} | ${b.toFixed(0)} | ${(a / b).toFixed(2)}× | ` +
        `${median(s.scriptorium.map((f) => f.p50Ms))} / ${median(s.scriptorium.map((f) => f.p99Ms))} | ` +
        `${median(s.css.map((f) => f.p50Ms))} / ${median(s.css.map((f) => f.p99Ms))} | ${problems.join('; ') || 'clean'} |`,
    );
    (json.small as unknown[]).push({ ...s, ratio: a / b });
  }
  const floors = (large.results[0]?.runs ?? []).map((r) => uploadFloorMs(r.disk).toFixed(0));
  lines.push(
    '',
    `${uploadMiB} MiB binary, ${runs} runs; disk floor (medians): write+fsync ${large.disk.writeMs.toFixed(0)} ms, ` +
      `read ${large.disk.readMs.toFixed(0)} ms, \`sha512sum\` ${large.disk.sha512sumMs.toFixed(0)} ms (same bytes). ` +
      'The floor is sampled again in every run, just before the servers’ transfers, and each ratio is the median of ' +
      'the runs’ own ratios (the machine is shared, so its speed drifts between runs). An upload writes, fsyncs and ' +
      `computes SHA-512 of every byte: its floor is the slower of write+fsync and \`sha512sum\` (per run: ${floors.join(', ')} ms). ` +
      'Fixity: GET <binary>/fcr:fixity (re-reads the file, SHA-512 and SHA-256); RSS growth: peak during the ' +
      `${uploadMiB} MiB uploads − idle before them.`,
    '',
    '| server | upload ms | upload ÷ slower of sha512sum and write+fsync (goal ≤ 1.5×) | download ms | download ÷ disk read (goal ≤ 1.5×) | ' +
      'fixity ms | fixity ÷ sha512sum (goal ≤ 1.3×) | RSS idle MiB | peak RSS 10 MiB upload | ' +
      `peak RSS ${uploadMiB} MiB upload | RSS growth MiB (goal < 64) |`,
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  );
  for (const r of large.results) {
    const fixity =
      r.fixityMs === undefined || r.fixityRatio === undefined
        ? '— | —'
        : `${r.fixityMs.toFixed(0)} | ${r.fixityRatio.toFixed(2)}×`;
    lines.push(
      `| ${r.target} | ${r.uploadMs.toFixed(0)} | ${r.uploadRatio.toFixed(2)}× | ${r.downloadMs.toFixed(0)} | ` +
        `${r.downloadRatio.toFixed(2)}× | ${fixity} | ${r.idleRssMiB.toFixed(0)} | ` +
        `${r.smallUploadPeakRssMiB.toFixed(0)} | ${r.peakRssMiB.toFixed(0)} | ${(r.peakRssMiB - r.idleRssMiB).toFixed(0)} |`,
    );
  }
  lines.push('', ...s3ReportLines(s3));
  fs.mkdirSync(RESULTS, { recursive: true });
  await writeFile(path.join(RESULTS, 'repository.md'), `${lines.join('\n')}\n`);
  await writeFile(path.join(RESULTS, 'repository.json'), `${JSON.stringify(json, null, 2)}\n`);
  console.log(`\n${lines.join('\n')}\nWrote bench/results/repository.md and repository.json`);
}
