import autocannon from 'autocannon';
import N3 from 'n3';
import { figures, runProblems, type RunFigures } from '../report.js';
import { createContainer, request } from './http.js';
import { settle } from './proc.js';
import { CONNECTIONS, duration, LDP, runs, TITLE, type Target } from './settings.js';

/** Small operations under autocannon load: create a container, PATCH metadata, GET a large container. */

export interface SmallResult {
  scenario: string;
  scriptorium: RunFigures[];
  css: RunFigures[];
}

async function measure(opts: autocannon.Options): Promise<RunFigures> {
  return figures(await autocannon({ connections: CONNECTIONS, duration, ...opts }));
}

interface Prepared {
  target: Target;
  posts: string;
  patched: string;
  big: string;
}

/** A fresh container per scenario on `target`, the GET one with 1 000 children. */
async function prepare(target: Target): Promise<Prepared> {
  const root = await createContainer(target, target.base, `bench-${Date.now().toString(36)}`);
  const posts = await createContainer(target, root, 'posts');
  const patched = await createContainer(target, root, 'patched');
  const big = await createContainer(target, root, 'big');
  for (let batch = 0; batch < 10; batch++) {
    await Promise.all(
      Array.from({ length: 100 }, (_, i) => createContainer(target, big, `c${batch * 100 + i}`)),
    );
  }
  const listing = await request('GET', big, { ...target.headers, accept: 'text/turtle' });
  const children = new N3.Parser({ baseIRI: big })
    .parse(listing.body)
    .filter((q) => q.predicate.value === `${LDP}contains`).length;
  console.log(`   ${target.name}: 1 000 children created under ${big} (listing names ${children})`);
  return { target, posts, patched, big };
}

const SCENARIOS: { key: string; build: (p: Prepared) => autocannon.Options }[] = [
  {
    key: 'create container (POST)',
    build: ({ target, posts }) => ({
      url: posts,
      method: 'POST',
      headers: {
        ...target.headers,
        link: `<${LDP}BasicContainer>; rel="type"`,
        'content-type': 'text/turtle',
      },
      body: '',
    }),
  },
  {
    key: 'PATCH metadata (SPARQL Update)',
    build: ({ target, patched }) => ({
      url: target.patchUrl(patched),
      method: 'PATCH',
      headers: { ...target.headers, 'content-type': 'application/sparql-update' },
      body: `INSERT DATA { <${patched}> <${TITLE}> "benchmarked" }`,
    }),
  },
  {
    key: 'GET Turtle, container with 1 000 children',
    build: ({ target, big }) => ({
      url: big,
      method: 'GET',
      headers: { ...target.headers, accept: 'text/turtle' },
    }),
  },
];

/** Each scenario: a 1 s warm-up per server, then the runs, servers alternating and idle before each. */
export async function smallOperations(targets: readonly [Target, Target]): Promise<SmallResult[]> {
  const prepared = await Promise.all(targets.map(prepare));
  const results: SmallResult[] = [];
  for (const scenario of SCENARIOS) {
    await settle(targets);
    const result: SmallResult = { scenario: scenario.key, scriptorium: [], css: [] };
    for (const p of prepared) await measure({ ...scenario.build(p), duration: 1 }); // warm-up
    for (let run = 1; run <= runs; run++) {
      for (const [index, p] of prepared.entries()) {
        await settle(targets);
        const f = await measure(scenario.build(p));
        (index === 0 ? result.scriptorium : result.css).push(f);
        console.log(
          `run ${run}/${runs} ${scenario.key} · ${p.target.name}: ${f.reqPerSec.toFixed(0)} req/s, p50 ${f.p50Ms} ms` +
            (runProblems(f) === '' ? '' : `  ⚠ ${runProblems(f)}`),
        );
      }
    }
    results.push(result);
  }
  return results;
}
