import { resolveRepositoryCredentials } from '../../../src/embedded-repository/credentials.js';
import type { Config } from '../../../src/config/config.js';
import { literal } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';
import { createAdapter } from '../../../src/repository-adapters/create-adapter.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import { listenWithEmbeddedView } from '../embedded-view.js';
import { createView, dublinCore } from '../search/index-jobs.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../test-app.js';

/**
 * Where a spreadsheet suite works: a real app, a view (Dublin Core schemas) curated by `curator`, a
 * curator of another view (`stranger`), and an adapter of the view's repository that plays "someone
 * editing the repository directly" and seeds the data.
 */
export interface SheetSite {
  readonly t: TestApp;
  readonly viewId: number;
  /** `/repository-view-context/<type>/<id>` */
  readonly prefix: string;
  readonly rootUri: string;
  readonly adapter: RepositoryAdapter;
  readonly curator: { readonly id: number; readonly token: string };
  readonly stranger: { readonly id: number; readonly token: string };
}

/** The app's own embedded repository as a FEDORA view, reached over real HTTP. */
export async function embeddedSite(overrides: Partial<Config> = {}): Promise<SheetSite> {
  // No INDEX job for each view made here: these suites export by containment.
  const t = await buildTestApp({ embeddedRepository: true, searchIndexNewViews: false, ...overrides });
  const view = await listenWithEmbeddedView(t, 'Spreadsheets (embedded)');
  const credentials = resolveRepositoryCredentials(t.config);
  const adapter = createAdapter({
    type: 'FEDORA',
    rootUri: view.rootUri,
    username: credentials.username,
    password: credentials.password,
    dialect: 'FEDORA_6',
  });
  return withCurators(t, view.viewId, view.prefix, view.rootUri, adapter);
}

/**
 * A view of type LDP on a container of its own on the run's Community Solid Server (other files share
 * the server), so its root holds only what this suite writes.
 */
export async function solidSite(cssBaseUrl: string, overrides: Partial<Config> = {}): Promise<SheetSite> {
  const t = await buildTestApp({ searchIndexNewViews: false, ...overrides });
  const server = createAdapter({ type: 'LDP', rootUri: cssBaseUrl });
  const rootUri = await server.createChild(cssBaseUrl, [
    { predicate: `${NS.dcterms}title`, object: literal('Spreadsheet acceptance') },
  ]);
  const viewId = await createView(t, {
    type: 'LDP',
    name: 'Spreadsheets (Solid)',
    rootUri,
    schemas: await dublinCore(t),
  });
  const adapter = createAdapter({ type: 'LDP', rootUri });
  return withCurators(t, viewId, `/repository-view-context/LDP/${viewId}`, rootUri, adapter);
}

async function withCurators(
  t: TestApp,
  viewId: number,
  prefix: string,
  rootUri: string,
  adapter: RepositoryAdapter,
): Promise<SheetSite> {
  const curator = await createUser(t, 'ROLE_CURATOR');
  const stranger = await createUser(t, 'ROLE_CURATOR');
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${viewId}`)).payload.RepositoryView;
  const updated = await sendJson(t.app, 'PUT', '/repository-view', {
    ...(view as object),
    password: null,
    curators: [{ id: curator.id }],
  });
  if (body(updated).meta.status !== 'SUCCESS') throw new Error(`curators of view ${viewId}: ${updated.body}`);
  // The stranger curates a view of their own (on the same repository), just not this one.
  await createView(t, {
    type: prefix.includes('/LDP/') ? 'LDP' : 'FEDORA',
    name: 'Somebody else’s',
    rootUri,
    curators: [{ id: stranger.id }],
  });
  return { t, viewId, prefix, rootUri, adapter, curator, stranger };
}
