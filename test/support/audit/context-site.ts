import { resolveRepositoryCredentials } from '../../../src/embedded-repository/credentials.js';
import { literal } from '../../../src/linked-data/rdf/terms.js';
import { NS } from '../../../src/linked-data/rdf/vocab.js';
import { createAdapter } from '../../../src/repository-adapters/create-adapter.js';
import { listenWithEmbeddedView } from '../embedded-view.js';
import { createView, dublinCore } from '../search/index-jobs.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../test-app.js';
import { buildLedgerApp, openLedger, type LedgerReader } from './ledger.js';

/** Where the view layer's recording is tested: an app with a readable ledger and a view curated by `curator`. */
export interface AuditSite {
  readonly t: TestApp;
  readonly ledger: LedgerReader;
  readonly viewId: number;
  /** `/repository-view-context/<type>/<id>` */
  readonly prefix: string;
  readonly rootUri: string;
  readonly curator: { readonly id: number; readonly username: string; readonly token: string };
  /** A curator of another view on the same repository. */
  readonly stranger: { readonly id: number; readonly username: string; readonly token: string };
  close(): Promise<void>;
}

/** The app's own embedded repository as a FEDORA view (over real HTTP, answered in process). */
export async function embeddedAuditSite(): Promise<AuditSite> {
  const t = await buildLedgerApp({ searchIndexNewViews: false });
  const view = await listenWithEmbeddedView(t, 'Audited (embedded)');
  return withCurators(t, view.viewId, view.prefix, view.rootUri, 'FEDORA', () => Promise.resolve());
}

/**
 * An external Fedora: the embedded repository of ANOTHER app (its own database and ledger), reached
 * over HTTP like any Fedora, so nothing it records reaches this app's ledger.
 */
export async function externalFedoraSite(): Promise<AuditSite> {
  const remote = await buildTestApp({ searchIndexNewViews: false });
  const remoteView = await listenWithEmbeddedView(remote, 'The remote repository itself');
  const t = await buildLedgerApp({ searchIndexNewViews: false, embeddedRepository: false });
  const credentials = resolveRepositoryCredentials(remote.config);
  const viewId = await createView(t, {
    type: 'FEDORA',
    name: 'Audited (external Fedora)',
    rootUri: remoteView.rootUri,
    username: credentials.username,
    password: credentials.password,
    schemas: await dublinCore(t),
  });
  return withCurators(
    t,
    viewId,
    `/repository-view-context/FEDORA/${viewId}`,
    remoteView.rootUri,
    'FEDORA',
    () => remote.close(),
  );
}

/** A view of type LDP on a container of its own on the run's Community Solid Server. */
export async function solidAuditSite(cssBaseUrl: string): Promise<AuditSite> {
  const t = await buildLedgerApp({ searchIndexNewViews: false });
  const rootUri = await createAdapter({ type: 'LDP', rootUri: cssBaseUrl }).createChild(cssBaseUrl, [
    { predicate: `${NS.dcterms}title`, object: literal('Audit acceptance') },
  ]);
  const viewId = await createView(t, {
    type: 'LDP',
    name: 'Audited (Solid)',
    rootUri,
    schemas: await dublinCore(t),
  });
  return withCurators(t, viewId, `/repository-view-context/LDP/${viewId}`, rootUri, 'LDP', () =>
    Promise.resolve(),
  );
}

async function withCurators(
  t: TestApp,
  viewId: number,
  prefix: string,
  rootUri: string,
  type: 'FEDORA' | 'LDP',
  closeMore: () => Promise<void>,
): Promise<AuditSite> {
  const curator = await createUser(t, 'ROLE_CURATOR');
  const stranger = await createUser(t, 'ROLE_CURATOR');
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${viewId}`)).payload.RepositoryView;
  const updated = await sendJson(t.app, 'PUT', '/repository-view', {
    ...(view as object),
    password: null,
    curators: [{ id: curator.id }],
  });
  if (body(updated).meta.status !== 'SUCCESS') throw new Error(`curators of view ${viewId}: ${updated.body}`);
  const original = view as { username: string | null };
  await createView(t, {
    type,
    name: 'Somebody else’s',
    rootUri,
    username: original.username,
    curators: [{ id: stranger.id }],
  });
  const ledger = openLedger(t);
  return {
    t,
    ledger,
    viewId,
    prefix,
    rootUri,
    curator,
    stranger,
    close: async () => {
      await ledger.close();
      await t.close();
      await closeMore();
    },
  };
}
