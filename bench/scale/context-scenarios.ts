import type { ContextJson, View } from '../context/api.js';
import { createView } from '../context/containers.js';
import { embeddedRepository } from '../context/repositories.js';
import { send } from './http.js';
import type { Send, Verify } from './measure.js';
import { addChildren, addTriples, createContainer } from './seed.js';
import { runSeries, scenario, type ScenarioResult } from './series.js';
import type { ScaleService } from './server.js';
import { CHILDREN_SIZES, DC, MAX_CHILDREN, MAX_TRIPLES, TRIPLE_SIZES } from './settings.js';

/** The context scenarios, on the embedded repository through a FEDORA view of the service's own /rest/. */

async function fedoraView(service: ScaleService): Promise<View> {
  const schemas = (await service.api.call('GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const ids = schemas.filter((s) => ['dc', 'dcterms'].includes(s.abbreviation)).map((s) => s.id);
  if (ids.length !== 2) throw new Error('the seeded dc and dcterms schemas were not found');
  const repo = embeddedRepository(service.url, service.repositoryUser, service.repositoryPassword);
  return createView(service.api, repo, 'Scale bench', repo.root, ids);
}

const contextUrl = (service: ScaleService, view: View, uri: string, suffix = '') =>
  `${service.url}${view.prefix}${suffix}?contextUri=${encodeURIComponent(uri)}`;

function renderOf(service: ScaleService, view: View, uri: string): Send {
  const call = { method: 'GET', url: contextUrl(service, view, uri), headers: service.api.auth };
  return (signal) => send(call, signal, true);
}

/** Checks a context answer's children and metadata counts. */
function contextCheck(children: number, minMetadata: number): Verify {
  return (body) => {
    const context = (JSON.parse(body) as { payload: { RepositoryViewContext: ContextJson } }).payload
      .RepositoryViewContext;
    if (context.children.length !== children)
      return `${context.children.length} children, expected ${children}`;
    if (context.metadata.length < minMetadata)
      return `${context.metadata.length} metadata triples, expected at least ${minMetadata}`;
    return undefined;
  };
}

/** Render of one container while it grows to 100, 1 000, 10 000 and 100 000 children. */
export async function childrenScenario(service: ScaleService): Promise<ScenarioResult[]> {
  const result = scenario('render-children', 'Context render, container with N children', 'children', [
    'GET /repository-view-context/FEDORA/{id}?contextUri=<container>; the children are empty containers ' +
      'created through POST /rest/<container>; the same container grows from one size to the next. ' +
      'Render cache off (SCRIPTORIUM_RENDER_CACHE_MIB=0): every request builds the context.',
  ]);
  const view = await fedoraView(service);
  const container = await createContainer(service);
  let present = 0;
  await runSeries(
    service,
    CHILDREN_SIZES,
    { value: MAX_CHILDREN, name: 'BENCH_SCALE_MAX_CHILDREN' },
    async (size) => {
      await addChildren(service, container, size - present);
      present = size;
    },
    [{ result, send: () => renderOf(service, view, container), verify: (size) => contextCheck(size, 0) }],
  );
  return [result];
}

/** Render, and POST …/metadata, on one resource while it grows to 10 … 10 000 metadata triples. */
export async function triplesScenario(service: ScaleService): Promise<ScenarioResult[]> {
  const render = scenario('render-triples', 'Context render, resource with N metadata triples', 'triples', [
    'GET …?contextUri=<resource>; the triples are dc:description literals added by PATCH (INSERT DATA) ' +
      'to /rest/<resource>, no children; the same resource grows from one size to the next. Render ' +
      'cache off (SCRIPTORIUM_RENDER_CACHE_MIB=0): every request builds the context.',
  ]);
  const add = scenario(
    'add-triple',
    'POST …/metadata (answers the re-rendered context), N triples',
    'triples',
    [
      'POST …/metadata?contextUri=<resource> with one new dc:description literal per request: the resource ' +
        'carries N to N + (requests + 1) triples while a size is measured.',
    ],
  );
  const view = await fedoraView(service);
  const resource = await createContainer(service);
  let present = 0;
  let added = 0;
  const post = (): Send => (signal) => {
    const body = JSON.stringify({
      subject: resource,
      predicate: `${DC}description`,
      object: `"scale-add ${++added}"`,
    });
    const call = {
      method: 'POST',
      url: contextUrl(service, view, resource, '/metadata'),
      headers: { ...service.api.auth, 'content-type': 'application/json' },
      body,
    };
    present++;
    return send(call, signal, true);
  };
  await runSeries(
    service,
    TRIPLE_SIZES,
    { value: MAX_TRIPLES, name: 'BENCH_SCALE_MAX_TRIPLES' },
    async (size) => {
      if (size > present) await addTriples(service, resource, present, size);
      present = Math.max(present, size);
    },
    [
      {
        result: render,
        send: () => renderOf(service, view, resource),
        verify: (size) => contextCheck(0, size),
      },
      { result: add, send: post, verify: (size) => contextCheck(0, size + 1), writes: true },
    ],
  );
  return [render, add];
}
