import { childUris, pool, type Api, type ContextJson, type View } from './api.js';
import type { Repository } from './repositories.js';
import { ADD_TARGETS, CHILDREN, METADATA, SETUP_CONCURRENCY } from './settings.js';

/** The bench's data, all created through the service's API: views, and containers shaped alike. */

export async function createView(
  api: Api,
  repo: Repository,
  name: string,
  root: string,
  schemaIds: number[],
) {
  const created = await api.call('POST', '/repository-view', {
    type: repo.type,
    name,
    rootUri: root,
    username: repo.username ?? null,
    password: repo.password ?? null,
    schemas: schemaIds.map((id) => ({ id })),
  });
  const id = (created.payload.RepositoryView as { id: number }).id;
  const view: View = { id, prefix: `/repository-view-context/${repo.type}/${id}`, root };
  return view;
}

/**
 * Creates one container under `parent` through the API (POST …/children) and finds its URI: the one
 * child of the answered parent context that was not there before. Callers do not create children of
 * the same parent concurrently.
 */
export async function createContainer(
  api: Api,
  view: View,
  parent: string,
  triples: readonly { predicate: string; object: string }[],
): Promise<string> {
  const before = new Set(childUris(await api.context(view, parent)));
  const after = await api.context(
    view,
    parent,
    '/children',
    'POST',
    triples.map((t) => ({ subject: parent, ...t })),
  );
  const created = childUris(after).filter((uri) => !before.has(uri));
  if (created.length !== 1) throw new Error(`expected one new child of ${parent}, found ${created.length}`);
  return created[0]!;
}

/** A container with the 20 metadata triples and 100 (empty) children, all through the API. */
export async function createBenchContainer(api: Api, view: View, parent: string): Promise<string> {
  const container = await createContainer(api, view, parent, METADATA);
  await pool(
    Array.from({ length: CHILDREN }, () => () => api.context(view, container, '/children', 'POST', [])),
    SETUP_CONCURRENCY,
  );
  return container;
}

/** Checks a rendered context: the 20 metadata triples and the 100 children. */
export function checkShape(context: ContextJson, what: string): string {
  const metadataPredicates = new Set(context.metadata.map((t) => `${t.predicate} ${t.object}`));
  const missing = METADATA.filter((t) => !metadataPredicates.has(`${t.predicate} ${t.object}`)).length;
  const childCount = context.children.length;
  if (missing > 0 || childCount !== CHILDREN) {
    throw new Error(
      `${what}: expected the ${METADATA.length} metadata triples and ${CHILDREN} children, ` +
        `got ${METADATA.length - missing} of them and ${childCount} children`,
    );
  }
  return (
    `${what}: ${context.metadata.length} metadata triples (the ${METADATA.length} posted` +
    `${context.metadata.length > METADATA.length ? ' + server-managed ones in a metadata namespace' : ''}), ` +
    `${context.properties.length} other properties, ${childCount} children`
  );
}

/**
 * Add targets: a fresh set of containers shaped like the render one for every run of every side, so
 * every side starts from the same state. Each call of the returned function creates one set under `home`.
 */
export function targetSets(api: Api, view: View, home: string): () => Promise<string[]> {
  let setNumber = 0;
  return async () => {
    const set = ++setNumber;
    const begun = performance.now();
    const targets: string[] = [];
    for (let i = 0; i < ADD_TARGETS; i++) {
      targets.push(await createContainer(api, view, home, METADATA));
    }
    await pool(
      targets.flatMap((target) =>
        Array.from({ length: CHILDREN }, () => () => api.context(view, target, '/children', 'POST', [])),
      ),
      SETUP_CONCURRENCY,
    );
    const seconds = ((performance.now() - begun) / 1000).toFixed(1);
    console.log(
      `   add targets set ${set}: ${ADD_TARGETS} containers × (${METADATA.length} triples, ${CHILDREN} children) in ${seconds} s`,
    );
    return targets;
  };
}
