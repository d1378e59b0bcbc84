import { Api } from './context/api.js';
import { cleanUp, startServers, stopOnInterrupt } from './context/servers.js';
import { closeAgent, expect2xx, inPool } from './jobs/bare.js';
import { settle, startJob, writePhase } from './jobs/jobs-api.js';
import { GOAL, summarize, writeJobsReport, type Row } from './jobs/report.js';
import { cssTarget, embeddedTarget, seedBinaries, seedCollection, type Target } from './jobs/targets.js';
import { signIn } from './scenarios.js';
import { machineFacts } from './shared/machine.js';
import { envInt } from './shared/settings.js';

/**
 * `npm run bench:jobs` (issue 12): a MAPPING dry run and its apply over RECORDS resources on the embedded
 * repository and on Community Solid Server, and a FIXITY job over BINARIES binaries of 1 MiB (embedded), each
 * against its floor — the same upstream requests sent bare by this process at the job's concurrency. Two
 * identical collections per repository: the jobs work on one, the floor on the other, alternating which goes
 * first; every run applies and then undoes, so both collections are back as seeded for the next run.
 * Settings: BENCH_JOB_RECORDS (default 1000), BENCH_JOB_BINARIES (default 200), BENCH_RUNS (default 3),
 * BENCH_JOB_ONLY (embedded or css: that repository only).
 * Writes bench/results/jobs.{md,json}.
 */
const RECORDS = envInt('BENCH_JOB_RECORDS', 1000, 1);
const BINARIES = envInt('BENCH_JOB_BINARIES', 200, 1);
const RUNS = envInt('BENCH_RUNS', 3, 1);
/**
 * Unmeasured runs before the measured ones (job and floor alike), as the HTTP benches warm up for 2 s: the
 * first job of a fresh process pays for compiling its code paths, which the floor's requests (served
 * during seeding) have already paid.
 */
const WARMUP = envInt('BENCH_JOB_WARMUP', 1, 0);
/** BENCH_JOB_ONLY=embedded|css: one repository only, for quick A/B runs while profiling. */
const ONLY = { embedded: 'embedded', css: 'community solid server' }[process.env.BENCH_JOB_ONLY ?? ''];
/** The service's default SCRIPTORIUM_JOB_CONCURRENCY: the floor uses the same. */
const CONCURRENCY = 4;
const MIB = 1024 * 1024;

stopOnInterrupt();

async function main(): Promise<void> {
  const facts = { date: new Date().toISOString(), ...machineFacts() };
  const { service, css, adminPassword, repositoryUser, repositoryPassword } = await startServers();
  const api = new Api(service.url, await signIn(service.url, 'admin', adminPassword));
  const schemas = (await api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const dublinCore = schemas
    .filter((s) => ['dc', 'dcterms'].includes(s.abbreviation))
    .map((s) => ({ id: s.id }));
  const operator = (
    await api.call('POST', '/operators', {
      type: 'DATE_NORMALIZATION_OP',
      name: 'ISO dates',
      field: 'dcterms:date',
      value: 'yyyy-MM-dd',
    })
  ).payload;
  const operatorId = (Object.values(operator)[0] as { id: number }).id;

  const rows: Row[] = [];
  const targets = [
    embeddedTarget(service.url, repositoryUser, repositoryPassword),
    cssTarget(`${css.url}/`),
  ].filter((target) => ONLY === undefined || target.label.toLowerCase().startsWith(ONLY));
  for (const target of targets) {
    const viewId = await createView(api, target, dublinCore);
    console.log(`\n== ${target.label}: seeding 2 × ${RECORDS} records`);
    const a = await seedCollection(target, RECORDS);
    const b = await seedCollection(target, RECORDS);
    const dry: Row = row(target, 'MAPPING dry run (preview)', true);
    const apply: Row = row(target, 'MAPPING apply', true);
    const undo: Row = row(target, 'MAPPING undo', false);
    for (let run = -WARMUP; run < RUNS; run++) {
      const jobFirst = run % 2 === 0;
      const jobSide = async () => {
        const created = await startJob(api, {
          repositoryViewId: viewId,
          contextUri: a.uri,
          scope: 'CHILDREN',
          kind: 'MAPPING',
          operators: [operatorId],
        });
        const previewed = await settle(api, created.id, 'PREVIEWED');
        if (previewed.progress.changed !== RECORDS)
          throw new Error(`the preview changes ${previewed.progress.changed} resources, not ${RECORDS}`);
        dry.jobMs.push(previewed.finished! - previewed.started!);
        apply.jobMs.push(await writePhase(api, created.id, 'apply'));
        undo.jobMs.push(await writePhase(api, created.id, 'undo'));
      };
      const floorSide = async () => {
        dry.floorMs.push(
          await timed(() =>
            target.floorRun(
              b.uri,
              b.records.map((r) => r.uri),
              CONCURRENCY,
            ),
          ),
        );
        apply.floorMs.push(await timed(() => target.floorWrite(b.records, 'apply', CONCURRENCY)));
        undo.floorMs.push(await timed(() => target.floorWrite(b.records, 'undo', CONCURRENCY)));
      };
      if (jobFirst) await jobSide().then(floorSide);
      else await floorSide().then(jobSide);
      if (run < 0) {
        console.log(
          `   warm-up: preview ${ms(dry, 0)} · apply ${ms(apply, 0)} · undo ${ms(undo, 0)} (job / floor)`,
        );
        for (const r of [dry, apply, undo]) forget(r);
        continue;
      }
      console.log(
        `   run ${run + 1}: preview ${ms(dry, run)} · apply ${ms(apply, run)} · undo ${ms(undo, run)} (job / floor)`,
      );
    }
    rows.push(dry, apply, undo);

    if (target.type === 'FEDORA') {
      console.log(`== ${target.label}: ${BINARIES} binaries of 1 MiB`);
      const binaries = await seedBinaries(target, BINARIES, MIB);
      const fixity: Row = row(target, `FIXITY (${BINARIES} × 1 MiB)`, true);
      const uris = await childrenOf(target, binaries);
      for (let run = -WARMUP; run < RUNS; run++) {
        const jobSide = async () => {
          const created = await startJob(api, {
            repositoryViewId: viewId,
            contextUri: binaries,
            scope: 'CHILDREN',
            kind: 'FIXITY',
          });
          const done = await settle(api, created.id, 'COMPLETED');
          if (done.progress.failed !== 0) throw new Error(`fixity failed: ${done.message}`);
          fixity.jobMs.push(done.finished! - done.started!);
        };
        const floorSide = async () => {
          fixity.floorMs.push(await timed(() => floorFixity(target, binaries, uris)));
        };
        if (run % 2 === 0) await jobSide().then(floorSide);
        else await floorSide().then(jobSide);
        if (run < 0) {
          console.log(`   warm-up: fixity ${ms(fixity, 0)} (job / floor)`);
          forget(fixity);
          continue;
        }
        console.log(`   run ${run + 1}: fixity ${ms(fixity, run)} (job / floor)`);
      }
      rows.push({ ...fixity, resources: BINARIES });
    }
  }

  for (const r of rows) {
    const s = summarize(r);
    console.log(
      `${r.repository} · ${r.operation}: ${(s.job / 1000).toFixed(2)} s, ${s.perSecond.toFixed(0)} resources/s, ` +
        `${s.ratio.toFixed(2)}× the floor${r.judged ? (s.ratio <= GOAL ? ' (met)' : ' (MISSED)') : ''}`,
    );
  }
  await writeJobsReport(rows, facts, [
    `service: node .bench-build/src/main.js (tsc’s output, as npm start runs it), SQLite, LOG_LEVEL=info, SCRIPTORIUM_JOB_CONCURRENCY default (${CONCURRENCY})`,
    'Community Solid Server 7.2: memory backend, allow-all authorization, in a child process',
    `data: two collections of ${RECORDS} records per repository (title + date \`03/dd/2001\`), seeded with bare PUTs (CSS: PUT, then PATCH of .meta); ` +
      `one operator (DATE_NORMALIZATION_OP, dcterms:date → yyyy-MM-dd) changes every record`,
    'job time: preview and fixity from the job’s own started → finished; apply and undo from just before the ' +
      'POST …/apply|undo to the job’s finished (the jobs are followed by polling every 50 ms)',
    'floor, embedded: GET the container and every record (preview); POST fcr:tx, GET every record in it, PATCH ' +
      'every record in it, commit (apply, undo); fixity: GET the container, then per binary GET (head only), ' +
      'GET fcr:metadata, GET fcr:fixity',
    'floor, CSS: GET the container and every record (preview); per record HEAD and PATCH of its .meta (apply, ' +
      'undo: CSS ignores If-Match on .meta, so the adapter compares the ETag with a HEAD)',
    `runs: ${RUNS} measured after ${WARMUP} unmeasured warm-up run(s) (the first job of a fresh process compiles its code paths; the floor's were compiled while seeding), job and floor alternating which goes first; everything on one 2-CPU machine`,
  ]);
  console.log('\nwritten: bench/results/jobs.md, bench/results/jobs.json');
}

function row(target: Target, operation: string, judged: boolean): Row {
  return { repository: target.label, operation, resources: RECORDS, jobMs: [], floorMs: [], judged };
}

/** Drops a warm-up run's figures. */
function forget(r: Row): void {
  r.jobMs.length = 0;
  r.floorMs.length = 0;
}

function ms(r: Row, run: number): string {
  return `${((r.jobMs[run] ?? NaN) / 1000).toFixed(2)}/${((r.floorMs[run] ?? NaN) / 1000).toFixed(2)} s`;
}

async function timed(work: () => Promise<void>): Promise<number> {
  const began = performance.now();
  await work();
  return performance.now() - began;
}

async function createView(api: Api, target: Target, schemas: { id: number }[]): Promise<number> {
  const created = await api.call('POST', '/repository-view', {
    type: target.type,
    name: `Jobs bench ${target.key} ${Date.now()}`,
    rootUri: target.root,
    username: target.username ?? null,
    password: target.password ?? null,
    schemas,
  });
  return (created.payload.RepositoryView as { id: number }).id;
}

async function childrenOf(target: Target, container: string): Promise<string[]> {
  const answer = await expect2xx('GET', container, { ...target.headers, accept: 'application/n-triples' });
  return [...answer.body.matchAll(/<[^>]+> <http:\/\/www\.w3\.org\/ns\/ldp#contains> <([^>]+)>/g)].map(
    (m) => m[1]!,
  );
}

async function floorFixity(target: Target, container: string, binaries: readonly string[]): Promise<void> {
  const accept = { ...target.headers, accept: 'text/turtle' };
  await expect2xx('GET', container, accept);
  await inPool(binaries, CONCURRENCY, async (uri) => {
    await expect2xx('GET', uri, target.headers, undefined, true);
    await expect2xx('GET', `${uri}/fcr:metadata`, accept);
    await expect2xx('GET', `${uri}/fcr:fixity`, accept);
  });
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(async () => {
    closeAgent();
    await cleanUp();
  });
