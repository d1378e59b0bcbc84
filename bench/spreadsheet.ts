import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { connectDatabase } from '../src/db/connect.js';
import type { SqlDialect } from '../src/db/database.js';
import type { ChildServer } from './child-server.js';
import { Api } from './context/api.js';
import { signIn } from './scenarios.js';
import { SERIES } from './search/corpus.js';
import { CORPUS_ROOT, seedRepository } from './search/seed.js';
import { benchDatabase, type BenchDatabase } from './shared/bench-database.js';
import { freePort } from './shared/free-port.js';
import { machineFacts } from './shared/machine.js';
import { startService } from './shared/service.js';
import { envInt } from './shared/settings.js';
import {
  exportTo,
  importPreview,
  mappingPreview,
  walkFloor,
  withPeakRss,
  type Measured,
} from './spreadsheet/phases.js';
import { GOAL, summarize, writeSpreadsheetReport, type PhaseRow } from './spreadsheet/report.js';
import { editTitles, FROM, TITLE_COLUMN, TO } from './spreadsheet/sheets.js';

/**
 * `npm run bench:spreadsheet` (issue 29): on the embedded repository, SQLite then PostgreSQL, at 10 000 and
 * 100 000 records of the search bench's corpus (titles in English, dates, one to three subjects, pcdm types;
 * bench/search/corpus.ts) written straight into the repository's table (bench/search/seed.ts), each phase
 * beside its floor in the same run:
 * - export: GET …/export of the corpus's SUBTREE streamed into a file, beside the walk alone — the same
 *   SUBTREE walk (scopeEntries, the job concurrency, in process on /rest) inside the service, keeping nothing;
 * - import preview: the exported sheet uploaded as a SPREADSHEET job (unchanged; and with 1 % of the titles
 *   changed), beside a MAPPING preview of the same resources whose one operator changes the same titles.
 * Rows per second and the service's peak RSS. The service is compiled and runs in a child process
 * (bench/spreadsheet/floor-service.ts: src/main.ts's app plus the walk floor's route).
 * Settings: `--quick` (or BENCH_SHEET_QUICK=1): 1 000 records; BENCH_SHEET_SIZES (default 10000,100000),
 * BENCH_SHEET_ENGINES (sqlite,postgres), BENCH_RUNS (measured runs up to 10 000 records, default 3),
 * BENCH_SHEET_LARGE_RUNS (above, default 1). Writes bench/results/spreadsheet.{md,json}.
 */
const QUICK = process.argv.includes('--quick') || process.env.BENCH_SHEET_QUICK === '1';
const SIZES = (process.env.BENCH_SHEET_SIZES ?? (QUICK ? '1000' : '10000,100000')).split(',').map(Number);
const ENGINES = (process.env.BENCH_SHEET_ENGINES ?? 'sqlite,postgres').split(',') as SqlDialect[];
const RUNS = envInt('BENCH_RUNS', 3, 1);
const LARGE_RUNS = envInt('BENCH_SHEET_LARGE_RUNS', 1, 1);
/** Records the unmeasured warm-up goes through, in whole series. */
const WARM_RECORDS = 1000;

interface Service {
  readonly server: ChildServer;
  readonly api: Api;
  readonly viewId: number;
  readonly prefix: string;
  readonly base: string;
  /** The floor's control server in the service process (floor-service.ts). */
  readonly floorUrl: string;
}

/** Starts the service on the database: the first start makes the schema, the repository's root and the view. */
async function start(target: BenchDatabase, env: Record<string, string>, password: string): Promise<Service> {
  const server = await startService(target.dataDir, env, 'bench/spreadsheet/floor-service.ts');
  const api = new Api(server.url, await signIn(server.url, 'admin', password));
  const views = (await api.call('GET', '/repository-view')).payload.LinkedList as {
    id: number;
    type: string;
    rootUri: string;
  }[];
  const base = `${env.SCRIPTORIUM_PUBLIC_URL}/rest/`;
  const view = views.find((v) => v.rootUri === base);
  if (view === undefined) {
    await server.stop();
    throw new Error('the default view on the embedded repository is missing');
  }
  return {
    server,
    api,
    viewId: view.id,
    prefix: `/repository-view-context/${view.type}/${view.id}`,
    base,
    floorUrl: `http://127.0.0.1:${env.BENCH_FLOOR_PORT}`,
  };
}

function phaseRow(engine: string, resources: number, phase: string, floor: string): PhaseRow {
  return {
    engine,
    resources,
    phase,
    floor,
    rows: 0,
    floorRows: 0,
    ms: [],
    floorMs: [],
    peakRssMiB: [],
    floorPeakRssMiB: [],
    uploadMs: [],
    problems: [],
  };
}

function record<T>(row: PhaseRow, side: 'phase' | 'floor', measured: Measured<T>): void {
  (side === 'phase' ? row.ms : row.floorMs).push(measured.ms);
  (side === 'phase' ? row.peakRssMiB : row.floorPeakRssMiB).push(measured.peakRssMiB);
}

const check = (row: PhaseRow, ok: boolean, problem: string) => {
  if (!ok && !row.problems.includes(problem)) row.problems.push(problem);
};

async function measureSize(engine: SqlDialect, size: number): Promise<PhaseRow[]> {
  const target = await benchDatabase(engine, 'spreadsheet');
  if (target === undefined) return [];
  const port = await freePort();
  const password = randomBytes(18).toString('base64url');
  const env = {
    ...target.env,
    PORT: String(port),
    BENCH_FLOOR_PORT: String(await freePort()),
    SCRIPTORIUM_PUBLIC_URL: `http://127.0.0.1:${port}`,
    SCRIPTORIUM_ADMIN_USERNAME: 'admin',
    SCRIPTORIUM_ADMIN_PASSWORD: password,
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
    // The seeded rows are queued for the search feed; indexing them would run beside every measurement.
    SCRIPTORIUM_SEARCH_FEED: 'off',
    SCRIPTORIUM_JOB_MAX_RESOURCES: '10000000',
    SCRIPTORIUM_SPREADSHEET_MAX_ROWS: '10000000',
  };
  let service: Service | undefined;
  try {
    service = await start(target, env, password);
    await service.server.stop();
    service = undefined;
    const { db } = connectDatabase(target.config);
    const seeded = await seedRepository(db, size);
    await db.destroy();
    console.log(`   seeded ${seeded} resources`);
    service = await start(target, env, password);
    const s = service;
    const operator = (
      await s.api.call('POST', '/operators', {
        type: 'REGEX_REPLACE_OP',
        name: `${FROM} → ${TO}`,
        field: 'dcterms:title',
        regex: FROM,
        value: TO,
      })
    ).payload;
    const operatorId = (Object.values(operator)[0] as { id: number }).id;
    const corpus = `${s.base}${CORPUS_ROOT}`;
    const exported = path.join(target.dataDir, 'export.csv');
    const edited = path.join(target.dataDir, 'edited.csv');
    const pid = s.server.pid;

    // Warm-up, unmeasured: every phase over about 1 000 records (whole series), so each code path is
    // compiled and hot before the clock runs (the first job of a fresh process pays for compiling).
    const warmSeries = Math.min(SERIES, Math.max(1, Math.ceil(WARM_RECORDS / (size / SERIES))));
    const warm = path.join(target.dataDir, 'warm.csv');
    for (let i = 0; i < warmSeries; i++) {
      const series = `${corpus}/s${i}`;
      await exportTo(s.api, s.prefix, series, warm);
      await walkFloor(s.floorUrl, series);
      await importPreview(s.api, s.viewId, series, warm);
      await mappingPreview(s.api, s.viewId, series, [operatorId]);
    }
    console.log(`   warmed up on ${warmSeries} series`);

    const exporting = phaseRow(engine, size, 'export', 'SUBTREE walk (describes only)');
    const unchanged = phaseRow(engine, size, 'import preview (unchanged)', 'MAPPING preview (changes 1 %)');
    const changed = phaseRow(engine, size, 'import preview (1 % changed)', 'MAPPING preview (changes 1 %)');
    const runs = size <= 10_000 ? RUNS : LARGE_RUNS;
    for (let run = 0; run < runs; run++) {
      const phaseFirst = run % 2 === 0;
      const exportSide = async () => {
        const measured = await withPeakRss(pid, () => exportTo(s.api, s.prefix, corpus, exported));
        record(exporting, 'phase', measured);
      };
      const walkSide = async () => {
        const measured = await withPeakRss(pid, () => walkFloor(s.floorUrl, corpus));
        record(exporting, 'floor', measured);
        exporting.floorRows = measured.value;
      };
      if (phaseFirst) await exportSide().then(walkSide);
      else await walkSide().then(exportSide);
      const sheet = await editTitles(exported, edited);
      exporting.rows = sheet.rows;
      check(
        exporting,
        sheet.rows === exporting.floorRows,
        `the sheet has ${sheet.rows} rows, the walk ${exporting.floorRows}`,
      );
      check(exporting, sheet.changed === Math.ceil((size - 7) / 100), `${sheet.changed} titles hold ${FROM}`);

      const mappingSide = async () => {
        const measured = await withPeakRss(pid, () => mappingPreview(s.api, s.viewId, corpus, [operatorId]));
        for (const row of [unchanged, changed]) {
          record(row, 'floor', measured);
          row.floorRows = measured.value.progress.done;
          check(
            row,
            measured.value.progress.changed === sheet.changed,
            `the MAPPING preview changes ${measured.value.progress.changed}`,
          );
        }
      };
      const importSide = async () => {
        for (const [row, file, expected] of [
          [unchanged, exported, 0],
          [changed, edited, sheet.changed],
        ] as const) {
          const measured = await withPeakRss(pid, () => importPreview(s.api, s.viewId, corpus, file));
          record(row, 'phase', measured);
          row.uploadMs.push(measured.value.uploadMs);
          row.rows = sheet.rows;
          const { progress } = measured.value;
          check(
            row,
            progress.changed === expected && progress.failed === 0,
            `the preview changes ${progress.changed}, fails ${progress.failed} (expected ${expected}, 0)`,
          );
        }
      };
      if (phaseFirst) await importSide().then(mappingSide);
      else await mappingSide().then(importSide);
      const line = (row: PhaseRow) =>
        `${row.phase} ${Math.round(row.ms.at(-1)!)} ms / ${Math.round(row.floorMs.at(-1)!)} ms`;
      console.log(`   run ${run + 1}: ${[exporting, unchanged, changed].map(line).join(' · ')}`);
    }
    return [exporting, unchanged, changed];
  } finally {
    await service?.server.stop();
    await target.drop();
  }
}

async function main(): Promise<void> {
  const facts: Record<string, string | number> = { date: new Date().toISOString(), ...machineFacts() };
  console.log(
    `Scriptorium spreadsheet bench · ${String(facts.node)} · ${String(facts.cpuCount)} CPUs · load ${String(facts.loadAverageAtStart)}`,
  );
  const rows: PhaseRow[] = [];
  for (const engine of ENGINES)
    for (const size of SIZES) {
      console.log(`\n== ${engine}, ${size} records`);
      rows.push(...(await measureSize(engine, size)));
    }
  for (const row of rows) {
    const s = summarize(row);
    console.log(
      `${row.engine} ${row.resources} · ${row.phase}: ${s.rowsPerSecond} rows/s, ${s.ratio}× ${row.floor}` +
        `${s.ratio <= GOAL ? '' : ' (over the target)'}; peak RSS ${s.peakRssMiB} / ${s.floorPeakRssMiB} MiB` +
        (row.problems.length === 0 ? '' : ` — ${row.problems.join('; ')}`),
    );
  }
  await writeSpreadsheetReport(rows, facts, [
    `data: the search bench's corpus (bench/search/corpus.ts) under /rest/${CORPUS_ROOT}: the records spread over 100 series ` +
      'containers, so a SUBTREE holds the records + 101 resources; each record has a title (@en), a date on 85 %, 1–3 subjects and a pcdm type',
    'service: compiled (tsc), in a child process, SQLite or PostgreSQL, LOG_LEVEL=info, the embedded repository on, the search feed off ' +
      '(the seeded rows stay queued: indexing them would run beside every measurement), SCRIPTORIUM_JOB_CONCURRENCY default (4)',
    'export: from the request to the last byte written to a file by this process; floor: the same SUBTREE walk inside the service ' +
      '(scopeEntries over the view’s adapter, answered in process, at the job concurrency), keeping nothing (bench/spreadsheet/floor-service.ts)',
    `import preview: from just before the multipart upload to the job’s finished (upload ms: the part until the job was created — the ` +
      `sheet parsed, checked and staged); the unchanged sheet is the export itself; the 1 % sheet writes "${TO}" for "${FROM}" in the ` +
      `${TITLE_COLUMN} cells that hold it; floor: a MAPPING preview of the same SUBTREE whose one operator (REGEX_REPLACE_OP on ` +
      `dcterms:title) makes the same change, from the POST to the job’s finished`,
    'peak RSS: the service’s VmHWM, reset (clear_refs) before each phase, else VmRSS sampled every 20 ms',
    `runs: ${RUNS} measured runs up to 10 000 records, ${LARGE_RUNS} above, after one unmeasured warm-up of every phase over about 1 000 records (whole series); ` +
      'phase and floor alternate which goes first',
  ]);
  console.log('\nWrote bench/results/spreadsheet.{md,json}');
  if (rows.some((row) => row.problems.length > 0)) process.exitCode = 1;
}

await main();
