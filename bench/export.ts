import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { Api } from './context/api.js';
import { children, stopOnInterrupt } from './context/servers.js';
import { closeAgent } from './jobs/bare.js';
import { settle, startJob } from './jobs/jobs-api.js';
import { embeddedTarget, seedBinaries, seedCollection } from './jobs/targets.js';
import { signIn } from './scenarios.js';
import { machineFacts } from './shared/machine.js';
import { peakRssKiB, resetPeakRss, rssNowKiB } from './shared/proc-stat.js';
import { startService } from './shared/service.js';
import { envInt, RESULTS } from './shared/settings.js';

/**
 * `npm run bench:export` (issue 31, DECISIONS.md §15): EXPORT jobs writing BagIt bags on the embedded
 * repository — a collection of BENCH_EXPORT_RECORDS resources (1 000) and BENCH_EXPORT_BINARIES binaries of
 * 1 MiB (200), and one binary of BENCH_EXPORT_BIG_MIB MiB (1 024) — each against its floor: reading the
 * same binaries' files bare from the binary store's directory and hashing them once (SHA-512), in this
 * process. Reports MiB/s of binary bytes (the job's wall time from its `started` to its `finished`), the
 * ratio to the floor (goal ≤ 1.3×) and the service's peak RSS growth during the job (goal < 64 MiB).
 * Writes bench/results/export.{md,json}.
 */
const RECORDS = envInt('BENCH_EXPORT_RECORDS', 1000, 1);
const BINARIES = envInt('BENCH_EXPORT_BINARIES', 200, 1);
const BIG_MIB = envInt('BENCH_EXPORT_BIG_MIB', 1024, 1);
const MIB = 1024 * 1024;
const GOAL = 1.3;
const RSS_GOAL_MIB = 64;

interface Row {
  readonly bag: string;
  readonly binaryMiB: number;
  readonly resources: number;
  readonly jobMs: number;
  readonly floorMs: number;
  readonly rssGrowthMiB: number;
}

stopOnInterrupt();

async function main(): Promise<void> {
  const facts = { date: new Date().toISOString(), ...machineFacts() };
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'scriptorium-bench-export-'));
  const adminPassword = randomBytes(18).toString('base64url');
  const repositoryPassword = randomBytes(18).toString('base64url');
  const service = await startService(dataDir, {
    SCRIPTORIUM_ADMIN_USERNAME: 'admin',
    SCRIPTORIUM_ADMIN_PASSWORD: adminPassword,
    SCRIPTORIUM_EMBEDDED_REPOSITORY: 'true',
    SCRIPTORIUM_REPOSITORY_USERNAME: 'fedoraAdmin',
    SCRIPTORIUM_REPOSITORY_PASSWORD: repositoryPassword,
    SCRIPTORIUM_SEARCH_FEED: 'false',
  });
  children.push(service);
  try {
    const api = new Api(service.url, await signIn(service.url, 'admin', adminPassword));
    const target = embeddedTarget(service.url, 'fedoraAdmin', repositoryPassword);
    const schemas = (await api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
      id: number;
      abbreviation: string;
    }[];
    const created = await api.call('POST', '/repository-view', {
      type: 'FEDORA',
      name: `Export bench ${Date.now()}`,
      rootUri: target.root,
      username: target.username ?? null,
      password: target.password ?? null,
      schemas: schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => ({ id: s.id })),
    });
    const view = created.payload.RepositoryView as { id: number };
    const store = path.join(dataDir, 'binaries');
    const rows: Row[] = [];

    console.log(`seeding ${RECORDS} resources and ${BINARIES} binaries of 1 MiB`);
    const collection = await seedCollection(target, RECORDS);
    await seedBinaries({ ...target, root: collection.uri }, BINARIES, MIB);
    const small = await filesBelow(store);
    rows.push(await measure('collection', collection.uri, small, RECORDS + BINARIES + 2));

    console.log(`uploading one binary of ${BIG_MIB} MiB`);
    const holder = await seedBinaries(target, 0, 0);
    const big = await upload(holder, BIG_MIB, target.headers);
    const bigFiles = (await filesBelow(store)).filter((file) => !small.includes(file));
    rows.push(await measure(`one binary of ${BIG_MIB} MiB`, big, bigFiles, 1));
    await report(rows, facts);

    async function measure(bag: string, contextUri: string, files: string[], resources: number) {
      let bytes = 0;
      for (const file of files) bytes += (await stat(file)).size;
      const floorStart = performance.now();
      for (const file of files) await sha512Of(file);
      const floorMs = performance.now() - floorStart;
      const before = rssNowKiB(service.pid);
      resetPeakRss(service.pid);
      const created = await startJob(api, {
        repositoryViewId: view.id,
        contextUri,
        scope: 'SUBTREE',
        kind: 'EXPORT',
        format: 'BAGIT',
      });
      const job = await settle(api, created.id, 'COMPLETED');
      const rssGrowthMiB = (peakRssKiB(service.pid) - before) / 1024;
      const jobMs = (job.finished ?? 0) - (job.started ?? 0);
      console.log(
        `${bag}: job ${jobMs} ms, floor ${floorMs.toFixed(0)} ms, RSS +${rssGrowthMiB.toFixed(1)} MiB`,
      );
      await rm(path.join(dataDir, 'exports', String(created.id)), { recursive: true, force: true });
      return { bag, binaryMiB: bytes / MIB, resources, jobMs, floorMs, rssGrowthMiB };
    }
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    closeAgent();
    await rm(dataDir, { recursive: true, force: true });
  }
}

/** Streams `mib` MiB of random bytes to the repository as one binary below `parent`; answers its IRI. */
async function upload(parent: string, mib: number, headers: Record<string, string>): Promise<string> {
  const chunks = (function* () {
    for (let i = 0; i < mib; i++) yield randomBytes(MIB);
  })();
  const response = await fetch(parent, {
    method: 'POST',
    headers: {
      ...headers,
      'content-type': 'application/octet-stream',
      'content-disposition': 'attachment; filename="big.bin"',
      link: '<http://www.w3.org/ns/ldp#NonRDFSource>; rel="type"',
    },
    body: Readable.toWeb(Readable.from(chunks)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  if (!response.ok) throw new Error(`upload → ${response.status} ${await response.text()}`);
  const location = response.headers.get('location');
  if (location === null) throw new Error('upload answered no Location');
  return location;
}

async function sha512Of(file: string): Promise<string> {
  const hash = createHash('sha512');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => path.join(entry.parentPath, entry.name));
}

async function report(rows: readonly Row[], facts: Record<string, string | number>): Promise<void> {
  const summary = rows.map((row) => ({
    ...row,
    jobMiBps: row.binaryMiB / (row.jobMs / 1000),
    floorMiBps: row.binaryMiB / (row.floorMs / 1000),
    ratio: row.jobMs / row.floorMs,
  }));
  const lines = [
    '# Export (BagIt) benchmark',
    '',
    `${String(facts.date)} · Node ${String(facts.node)} · ${String(facts.cpuCount)} × ${String(facts.cpuModel)} · ` +
      `load before: ${String(facts.loadAverageAtStart)}`,
    '',
    'An EXPORT job (`npm run bench:export`) writing a BagIt bag of the embedded repository, from the job’s ' +
      '`started` to its `finished` (the bag’s tag files included), against the floor: the same binaries’ ' +
      'files read bare from the binary store’s directory and hashed once (SHA-512). One run each.',
    '',
    '| bag | resources | binary MiB | job MiB/s | floor MiB/s | ratio (goal ≤ 1.3×) | peak RSS growth (goal < 64 MiB) |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...summary.map(
      (row) =>
        `| ${row.bag} | ${row.resources} | ${row.binaryMiB.toFixed(0)} | ${row.jobMiBps.toFixed(1)} | ` +
        `${row.floorMiBps.toFixed(1)} | ${row.ratio.toFixed(2)}× ${row.ratio <= GOAL ? 'met' : 'MISSED'} | ` +
        `${row.rssGrowthMiB.toFixed(1)} MiB ${row.rssGrowthMiB < RSS_GOAL_MIB ? 'met' : 'MISSED'} |`,
    ),
    '',
  ];
  await writeFile(path.join(RESULTS, 'export.md'), lines.join('\n'));
  await writeFile(
    path.join(RESULTS, 'export.json'),
    `${JSON.stringify({ facts, rows: summary }, null, 2)}\n`,
  );
  console.log(lines.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
