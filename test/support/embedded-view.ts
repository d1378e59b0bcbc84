import type { AddressInfo } from 'node:net';
import { resolveRepositoryCredentials } from '../../src/embedded-repository/credentials.js';
import { body, sendJson, type TestApp } from './test-app.js';

export interface EmbeddedView {
  /** `http://127.0.0.1:<port>/rest/` */
  readonly rootUri: string;
  readonly viewId: number;
  /** `/repository-view-context/FEDORA/<id>` */
  readonly prefix: string;
}

/**
 * Listens on a free loopback port and creates a FEDORA view on the app's own embedded repository, with
 * its Basic credentials and the seeded Dublin Core schemas, so context requests cross real HTTP.
 */
export async function listenWithEmbeddedView(t: TestApp, name = 'Embedded (test)'): Promise<EmbeddedView> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const port = (t.app.server.address() as AddressInfo).port;
  const rootUri = `http://127.0.0.1:${port}/rest/`;
  const credentials = resolveRepositoryCredentials(t.config);
  const schemas = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  const dublinCore = ['dc', 'dcterms'].flatMap((abbreviation) =>
    schemas.filter((schema) => schema.abbreviation === abbreviation),
  );
  const response = await sendJson(t.app, 'POST', '/repository-view', {
    type: 'FEDORA',
    name,
    rootUri,
    username: credentials.username,
    password: credentials.password,
    schemas: dublinCore.map((schema) => ({ id: schema.id })),
  });
  const envelope = body(response);
  if (envelope.meta.status !== 'SUCCESS') throw new Error(`creating the view failed: ${response.body}`);
  const viewId = (envelope.payload.RepositoryView as { id: number }).id;
  return { rootUri, viewId, prefix: `/repository-view-context/FEDORA/${viewId}` };
}
