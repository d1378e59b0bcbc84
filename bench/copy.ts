import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import { Api } from './context/api.js';
import { checkChildren, children, stopOnInterrupt } from './context/servers.js';
import { closeAgent, inPool } from './jobs/bare.js';
import { settle, startJob, writePhase } from './jobs/jobs-api.js';
import {
  childIri,
  closeFloorAgent,
  deleteLdpTree,
  floorBinaries,
  floorRecords,
  ok,
  putContainer,
  type Side,
  type SmallRecord,
  type SourceBinary,
} from './copy/floor.js';
import { writeCopyReport, type CopyRow } from './copy/report.js';
import { signIn } from './scenarios.js';
import { machineFacts } from './shared/machine.js';
import { startService } from './shared/service.js';
import { envInt, ROOT } from './shared/settings.js';

/**
 * `npm run bench:copy` (issue 32, DECISIONS.md §16): COPY jobs from the embedded repository in Fedora 4 mode
 * (the service process that runs the jobs) to the embedded repository in Fedora 6 mode (a second service
 * process) and to Community Solid Server (a third process): a container of BENCH_COPY_RECORDS small
 * resources (1 000; title and date each) and one of BENCH_COPY_BINARIES binaries of 1 MiB (100), each job
 * (its dry run, then its apply) against its floor — the same copy made bare by this process (bench/copy/floor.ts)
 * at the job's concurrency. Reports resources/s and MiB/s, the ratio (goal ≤ 1.3×) and the Fedora migration
 * pilots' ~46 resources/s beside them. `--quick`: 100 resources, 10 binaries, one run, no warm-up.
 * Writes bench/results/copy.{md,json}.
 */
const QUICK = process.argv.includes('--quick');
const RECORDS = envInt('BENCH_COPY_RECORDS', QUICK ? 100 : 1000, 1);
const BINARIES = envInt('BENCH_COPY_BINARIES', QUICK ? 10 : 100, 1);
const RUNS = envInt('BENCH_RUNS', QUICK ? 1 : 3, 1);
const WARMUP = envInt('BENCH_COPY_WARMUP', QUICK ? 0 : 1, 0);
/** SCRIPTORIUM_JOB_CONCURRENCY's default, set explicitly: the floor uses the same. */
const CONCURRENCY = 4;
const MIB = 1024 * 1024;
const DCTERMS = 'http://purl.org/dc/terms/';

stopOnInterrupt();

interface Repository {
  readonly label: string;
  readonly side: Side;
  readonly root: string;
  readonly viewId: number;
  /** Removes a holder and what was copied into it (not timed). */
  remove(uri: string): Promise<void>;
}

async function main(): Promise<void> {
  const facts: Record<string, string | number> = {
    date: new Date().toISOString(),
    ...machineFacts(),
    uptime: uptime(),
  };
  const dirs: string[] = [];
  const dataDir = async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-copy-'));
    dirs.push(dir);
    return dir;
  };
  const adminPassword = randomBytes(18).toString('base64url');
  const passwords = {
    source: randomBytes(18).toString('base64url'),
    target: randomBytes(18).toString('base64url'),
  };
  const common = {
    SCRIPTORIUM_ADMIN_USERNAME: 'admin',
    SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
    SCRIPTORIUM_REPOSITORY_USERNAME: 'fedoraAdmin',
    SCRIPTORIUM_SEARCH_FEED: 'false',
    SCRIPTORIUM_SEARCH_INDEX_NEW_VIEWS: 'false',
  };
  try {
    const source = await startService(await dataDir(), {
      ...common,
      SCRIPTORIUM_REPOSITORY_PASSWORD: passwords.source,
      SCRIPTORIUM_REPOSITORY_DIALECT: 'FEDORA_4',
      SCRIPTORIUM_JOB_CONCURRENCY: String(CONCURRENCY),
    });
    children.push(source);
    const target = await startService(await dataDir(), {
      ...common,
      SCRIPTORIUM_REPOSITORY_PASSWORD: passwords.target,
      SCRIPTORIUM_REPOSITORY_DIALECT: 'FEDORA_6',
    });
    children.push(target);
    const css = await startChildServer('Community Solid Server', 'bench/context-css.ts', { PORT: '0' }, ROOT);
    children.push(css);
    console.log(
      `source (Fedora 4 mode) ${source.url} · target (Fedora 6 mode) ${target.url} · CSS ${css.url}/`,
    );

    const api = new Api(source.url, await signIn(source.url, 'admin', adminPassword));
    const sourceSide: Side = { kind: 'FEDORA', headers: basic('fedoraAdmin', passwords.source) };
    const sourceView = await createView(
      api,
      'FEDORA',
      `${source.url}/rest/`,
      'fedoraAdmin',
      passwords.source,
    );
    const repositories: Repository[] = [
      {
        label: 'embedded, Fedora 6 mode (2nd process)',
        side: { kind: 'FEDORA', headers: basic('fedoraAdmin', passwords.target) },
        root: `${target.url}/rest/`,
        viewId: await createView(api, 'FEDORA', `${target.url}/rest/`, 'fedoraAdmin', passwords.target),
        remove: async (uri) => {
          await ok('DELETE', uri, basic('fedoraAdmin', passwords.target));
        },
      },
      {
        label: 'Community Solid Server 7.2',
        side: { kind: 'LDP', headers: {} },
        root: `${css.url}/`,
        viewId: await createView(api, 'LDP', `${css.url}/`),
        remove: deleteLdpTree,
      },
    ];

    console.log(`seeding ${RECORDS} resources and ${BINARIES} binaries of 1 MiB (Fedora 4 mode)`);
    const seeded = await seed(sourceSide, `${source.url}/rest/`);
    const rows: CopyRow[] = [];
    for (const repository of repositories) {
      const records: CopyRow = {
        repository: repository.label,
        what: `${RECORDS} small resources`,
        resources: RECORDS + 1,
        mib: 0,
        planMs: [],
        applyMs: [],
        floorMs: [],
      };
      const files: CopyRow = {
        repository: repository.label,
        what: `${BINARIES} binaries × 1 MiB`,
        resources: BINARIES + 1,
        mib: BINARIES,
        planMs: [],
        applyMs: [],
        floorMs: [],
      };
      for (let run = -WARMUP; run < RUNS; run++) {
        for (const [row, container, floor] of [
          [
            records,
            seeded.records,
            (parent: string) =>
              floorRecords(
                sourceSide,
                seeded.records,
                seeded.recordList,
                repository.side,
                parent,
                'records',
                CONCURRENCY,
              ),
          ],
          [
            files,
            seeded.files,
            (parent: string) =>
              floorBinaries(
                sourceSide,
                seeded.files,
                seeded.binaryList,
                repository.side,
                parent,
                'files',
                CONCURRENCY,
              ),
          ],
        ] as const) {
          const jobSide = async () => {
            const holder = await newHolder(repository, `job-${Date.now()}-${run + WARMUP}`);
            const created = await startJob(api, {
              kind: 'COPY',
              repositoryViewId: sourceView,
              contextUri: container,
              scope: 'SUBTREE',
              targetRepositoryViewId: repository.viewId,
              targetContextUri: holder,
              dryRun: true,
            });
            const previewed = await settle(api, created.id, 'PREVIEWED');
            row.planMs.push(previewed.finished! - previewed.started!);
            row.applyMs.push(await writePhase(api, created.id, 'apply'));
            const applied = (await api.call('GET', `/curation-job/${created.id}`)).payload.CurationJob as {
              progress: { failed: number };
              message: string;
            };
            if (applied.progress.failed !== 0) throw new Error(`the copy failed in part: ${applied.message}`);
            await repository.remove(holder);
          };
          const floorSide = async () => {
            const holder = await newHolder(repository, `floor-${Date.now()}-${run + WARMUP}`);
            const began = performance.now();
            await floor(holder);
            row.floorMs.push(performance.now() - began);
            await repository.remove(holder);
          };
          if (run % 2 === 0) await jobSide().then(floorSide);
          else await floorSide().then(jobSide);
          checkChildren(`${repository.label}: ${row.what}`);
          const i = row.floorMs.length - 1;
          console.log(
            `${run < 0 ? 'warm-up' : `run ${run + 1}`} · ${repository.label} · ${row.what}: plan ${s(row.planMs[i])} + apply ${s(row.applyMs[i])} / floor ${s(row.floorMs[i])}`,
          );
          if (run < 0) for (const list of [row.planMs, row.applyMs, row.floorMs]) list.length = 0;
        }
      }
      rows.push(records, files);
    }
    await writeCopyReport(rows, { ...facts, uptimeAfter: uptime() }, [
      'source: the embedded repository in Fedora 4 mode (SCRIPTORIUM_REPOSITORY_DIALECT=FEDORA_4) of the service process that runs the jobs; ' +
        `node .bench-build/src/main.js (tsc’s output, as npm start runs it), SQLite, LOG_LEVEL=info, SCRIPTORIUM_JOB_CONCURRENCY=${CONCURRENCY}, search feed off`,
      'target 1: the embedded repository in Fedora 6 mode of a second service process (its search feed off); target 2: Community Solid Server 7.2 (memory backend, allow-all authorization) in a third process',
      `data: one container of ${RECORDS} resources (dcterms:title and dcterms:date each) and one of ${BINARIES} binaries of 1 MiB (random bytes), seeded with bare PUTs`,
      'job: a COPY of each container (scope SUBTREE) into a fresh container of the target: the dry run (plan: walks the source, maps every target IRI, checks for conflicts) from its started to its finished, then the apply from just before POST …/apply to its finished (every resource created by a named PUT, provenance written, binaries streamed and their digests checked on arrival); jobs followed by polling every 50 ms',
      `floor: the same copy made bare by the bench at concurrency ${CONCURRENCY} (bench/copy/floor.ts): GET the source container, PUT its copy, then per resource one GET of the source and the PUT of its copy with its title and date (CSS: PUT, then PATCH of .meta), per binary a GET streamed into the PUT of its copy (CSS: plus the filename PATCHed into .meta); nothing planned, no provenance, no digest checked`,
      `runs: ${RUNS} measured after ${WARMUP} unmeasured warm-up run(s), job and floor alternating which goes first, each into a fresh container removed afterwards (not timed); everything on one machine with ${String(facts.cpuCount)} CPUs`,
    ]);
    console.log('\nwritten: bench/results/copy.md, bench/results/copy.json');
  } finally {
    await Promise.all(children.map((child: ChildServer) => child.stop()));
    closeAgent();
    closeFloorAgent();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
}

/** The source collection: a container of small records and one of binaries, named so the floor knows them. */
async function seed(side: Side, root: string) {
  const base = childIri(side, root, `copy-bench-${Date.now()}`, true);
  await putContainer(side, base, `<${base}> <${DCTERMS}title> "Copy bench" .`);
  const records = childIri(side, base, 'records', true);
  await putContainer(side, records, `<${records}> <${DCTERMS}title> "Records" .`);
  const recordList: SmallRecord[] = Array.from({ length: RECORDS }, (_, i) => {
    const name = `record-${i + 1}`;
    const day = String((i % 28) + 1).padStart(2, '0');
    return {
      uri: childIri(side, records, name, true),
      name,
      title: `Record ${i + 1}`,
      date: `2001-03-${day}`,
    };
  });
  await inPool(recordList, 8, (record) =>
    putContainer(
      side,
      record.uri,
      `<${record.uri}> <${DCTERMS}title> ${JSON.stringify(record.title)} .\n<${record.uri}> <${DCTERMS}date> ${JSON.stringify(record.date)} .`,
    ),
  );
  const files = childIri(side, base, 'files', true);
  await putContainer(side, files, '');
  const binaryList: SourceBinary[] = Array.from({ length: BINARIES }, (_, i) => {
    const name = `file-${i + 1}.bin`;
    return { uri: childIri(side, files, name, false), name };
  });
  await inPool(binaryList, 4, (binary) =>
    ok(
      'PUT',
      binary.uri,
      {
        ...side.headers,
        'content-type': 'application/octet-stream',
        'content-disposition': `attachment; filename="${binary.name}"`,
        link: '<http://www.w3.org/ns/ldp#NonRDFSource>; rel="type"',
      },
      randomBytes(MIB),
    ),
  );
  return { records, recordList, files, binaryList };
}

async function newHolder(repository: Repository, name: string): Promise<string> {
  const uri = childIri(repository.side, repository.root, name, true);
  await putContainer(repository.side, uri, '');
  return uri;
}

async function createView(
  api: Api,
  type: 'FEDORA' | 'LDP',
  rootUri: string,
  username?: string,
  password?: string,
): Promise<number> {
  const created = await api.call('POST', '/repository-view', {
    type,
    name: `Copy bench ${type} ${rootUri}`,
    rootUri,
    username: username ?? null,
    password: password ?? null,
    schemas: [],
  });
  return (created.payload.RepositoryView as { id: number }).id;
}

function basic(username: string, password: string): Record<string, string> {
  return { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` };
}

function s(ms: number | undefined): string {
  return `${((ms ?? NaN) / 1000).toFixed(2)} s`;
}

function uptime(): string {
  return execFileSync('uptime', { encoding: 'utf8' }).trim();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
