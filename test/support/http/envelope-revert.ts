import { body, sendJson, type TestApp } from '../test-app.js';
import type { CurrentView, RouteCases } from './envelope.js';

const DC_TITLE = 'http://purl.org/dc/elements/1.1/title';
const q = (uri: string) => `contextUri=${encodeURIComponent(uri)}`;

/**
 * The route walk's case for "Revert this change" (POST /audit/:id/revert): a title changed through the
 * embedded view, then reverted; an unknown event is 404 ERROR. The change's event is found with GET /audit.
 */
export function revertCases(walk: CurrentView): Record<string, RouteCases> {
  async function changedTitle(t: TestApp): Promise<number> {
    const created = await sendJson(t.app, 'POST', `${walk.v.prefix}/children?${q('')}`, [
      { predicate: DC_TITLE, object: '"Before"' },
    ]);
    const child = (
      body(created).payload.RepositoryViewContext as { children: { triple: { object: string } }[] }
    ).children.at(-1)!.triple.object;
    await sendJson(t.app, 'PUT', `${walk.v.prefix}/metadata?${q(child)}&value=After`, {
      subject: child,
      predicate: DC_TITLE,
      object: '"Before"',
    });
    const listed = await sendJson(t.app, 'GET', `/audit?action=metadata.update&${q(child)}`);
    const events = body(listed).payload['ArrayList<AuditEvent>'] as { id: number }[] | undefined;
    if (events?.[0] === undefined) throw new Error(`the change is not in the ledger: ${listed.body}`);
    return events[0].id;
  }
  return {
    'POST /audit/:id/revert': {
      success: async (t) => ({ method: 'POST', url: `/audit/${await changedTitle(t)}/revert` }),
      failure: { call: { method: 'POST', url: '/audit/999999/revert' }, http: 404, status: 'ERROR' },
    },
  };
}
