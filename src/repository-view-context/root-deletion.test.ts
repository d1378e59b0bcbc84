import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenWithEmbeddedView, type EmbeddedView } from '../../test/support/embedded-view.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../test/support/test-app.js';

/**
 * Issue 8, finding 11: a curator could delete the root of their view, and with it everything in the
 * repository and the root's versions. Only an administrator may.
 */
let t: TestApp;
let v: EmbeddedView;
let curatorToken: string;

beforeAll(async () => {
  t = await buildTestApp();
  v = await listenWithEmbeddedView(t);
  const curator = await createUser(t, 'ROLE_CURATOR', 'root-curator');
  curatorToken = curator.token;
  const view = body(await sendJson(t.app, 'GET', `/repository-view/${v.viewId}`)).payload
    .RepositoryView as Record<string, unknown>;
  const updated = await sendJson(t.app, 'PUT', '/repository-view', {
    ...view,
    password: null,
    curators: [{ id: curator.id }],
  });
  expect(body(updated).meta.status).toBe('SUCCESS');
});
afterAll(async () => {
  await t.close();
});

const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

describe('deleting the root of a view', () => {
  it('is refused to a curator in every spelling of the root, and the root stays', async () => {
    const child = await sendJson(t.app, 'POST', `${v.prefix}/children?${q(v.rootUri)}`, [], {
      token: curatorToken,
    });
    expect(body(child).meta.status).toBe('SUCCESS');
    const tx = body(
      await sendJson(t.app, 'GET', `${v.prefix}/transaction`, undefined, { token: curatorToken }),
    ).payload.TransactionDetails as { token: string };
    const spellings = [
      v.rootUri,
      v.rootUri.replace(/\/$/, ''),
      '/',
      '',
      `${tx.token}/`,
      `${v.rootUri}?token=${tx.token}`,
    ];
    for (const suffix of ['', '/resource']) {
      for (const spelling of spellings) {
        const response = await sendJson(t.app, 'DELETE', `${v.prefix}${suffix}?${q(spelling)}`, undefined, {
          token: curatorToken,
        });
        expect(response.statusCode, `DELETE ${suffix} ${spelling}`).toBe(403);
        expect(body(response).meta).toMatchObject({
          status: 'UNAUTHORIZED',
          message: 'Only an administrator may delete the root of a repository view',
        });
      }
    }
    await sendJson(t.app, 'PUT', `${v.prefix}/transaction`, undefined, { token: curatorToken });
    const root = await sendJson(t.app, 'GET', `${v.prefix}?${q(v.rootUri)}`, undefined, {
      token: curatorToken,
    });
    expect(body(root).meta.status).toBe('SUCCESS');
    expect(
      (body(root).payload.RepositoryViewContext as { children: unknown[] }).children.length,
    ).toBeGreaterThan(0);
  });

  it('a curator may still delete what lies under the root', async () => {
    const created = await sendJson(t.app, 'POST', `${v.prefix}/children?${q(v.rootUri)}`, [], {
      token: curatorToken,
    });
    const children = (
      body(created).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
    ).children;
    const target = children[children.length - 1]!.triple.object;
    const deleted = await sendJson(t.app, 'DELETE', `${v.prefix}?${q(target)}`, undefined, {
      token: curatorToken,
    });
    expect(body(deleted).meta.status).toBe('SUCCESS');
  });
});
