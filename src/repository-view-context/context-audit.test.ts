import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  asCurator,
  DC,
  expectByCurator,
  newChild,
  q,
  recordedDuring,
  sha512,
  upload,
} from '../../test/support/audit/context-calls.js';
import {
  embeddedAuditSite,
  externalFedoraSite,
  type AuditSite,
} from '../../test/support/audit/context-site.js';

const line = (s: string, p: string, o: string) => `<${s}> <${p}> ${o} .`;

/**
 * Issue 30 / DECISIONS.md §14: every write through a view is in the ledger once, with the signed-in
 * curator, the view, the resource, the request and the exact triples — on the embedded repository and
 * on an external Fedora (another app's /rest over HTTP, whose own ledger this app never sees).
 */
describe.each([
  ['the embedded repository', embeddedAuditSite],
  ['an external Fedora', externalFedoraSite],
])('writes through a view on %s', (_name, build) => {
  let site: AuditSite;
  beforeAll(async () => {
    site = await build();
  }, 120_000);
  afterAll(async () => {
    await site.close();
  });

  it('records creation and each metadata change once, with the curator and the exact triples', async () => {
    const created = await recordedDuring(site, () => newChild(site, site.rootUri, 'First'));
    expect(created.map((event) => event.action)).toEqual(['resource.create']);
    const child = created[0]!.contextUri!;
    expectByCurator(site, created[0], child);
    expect(created[0]!.detail).toMatchObject({ removed: [], added: [line(child, `${DC}title`, '"First"')] });

    const triple = { subject: child, predicate: `${DC}subject`, object: '"bees"@en' };
    const added = await recordedDuring(site, () => asCurator(site, 'POST', `/metadata?${q(child)}`, triple));
    expect(added).toHaveLength(1);
    expectByCurator(site, added[0], child);
    expect(added[0]).toMatchObject({
      action: 'metadata.update',
      detail: { removed: [], added: [line(child, `${DC}subject`, '"bees"@en')] },
    });

    const updated = await recordedDuring(site, () =>
      asCurator(site, 'PUT', `/metadata?${q(child)}&value=${encodeURIComponent('"wasps"@en')}`, triple),
    );
    expect(updated).toHaveLength(1);
    expect(updated[0]).toMatchObject({
      action: 'metadata.update',
      detail: {
        removed: [line(child, `${DC}subject`, '"bees"@en')],
        added: [line(child, `${DC}subject`, '"wasps"@en')],
      },
    });

    const deleted = await recordedDuring(site, () =>
      asCurator(site, 'DELETE', `/metadata?${q(child)}`, { ...triple, object: '"wasps"@en' }),
    );
    expect(deleted).toHaveLength(1);
    expect(deleted[0]).toMatchObject({
      action: 'metadata.update',
      detail: { removed: [line(child, `${DC}subject`, '"wasps"@en')], added: [] },
    });
  });

  it('records an upload with the digest and size of the bytes, a fixity check with its outcome, a delete', async () => {
    const container = await newChild(site, site.rootUri, 'Files');
    const uploaded = await recordedDuring(site, () => upload(site, container, 'hello, ledger'));
    expect(uploaded).toHaveLength(1);
    const binary = uploaded[0]!.contextUri!;
    expectByCurator(site, uploaded[0], binary);
    expect(binary.startsWith(container)).toBe(true);
    expect(uploaded[0]).toMatchObject({
      action: 'binary.upload',
      detail: { digest: sha512('hello, ledger'), size: 13, mimeType: 'text/plain', filename: 'note.txt' },
    });

    const checked = await recordedDuring(site, () => asCurator(site, 'GET', `/resource/fixity?${q(binary)}`));
    expect(checked).toHaveLength(1);
    expectByCurator(site, checked[0], binary);
    expect(checked[0]).toMatchObject({
      action: 'fixity.check',
      detail: { status: 'SUCCESS', digest: sha512('hello, ledger'), size: 13 },
    });

    const gone = await recordedDuring(site, () => asCurator(site, 'DELETE', `?${q(container)}`));
    expect(gone.map((event) => event.action)).toEqual(['resource.delete']);
    expectByCurator(site, gone[0], container);
  });

  it('records versions: created with their label, restored with what changed, deleted', async () => {
    const child = await newChild(site, site.rootUri, 'Versioned');
    const made = await recordedDuring(site, () => asCurator(site, 'POST', `/version?${q(child)}&name=v1`));
    expect(made).toHaveLength(1);
    expectByCurator(site, made[0], child);
    const memento = (made[0]!.detail as { version: string }).version;
    expect(made[0]).toMatchObject({ action: 'version.create', detail: { label: 'v1' } });
    expect(memento.startsWith(`${child}/fcr:versions/`)).toBe(true);

    await asCurator(site, 'PUT', `/metadata?${q(child)}&value=Renamed`, {
      subject: child,
      predicate: `${DC}title`,
      object: '"Versioned"',
    });
    const restored = await recordedDuring(site, () => asCurator(site, 'PATCH', `/version?${q(memento)}`));
    expect(restored).toHaveLength(1);
    expectByCurator(site, restored[0], child);
    expect(restored[0]).toMatchObject({
      action: 'version.restore',
      detail: {
        removed: [line(child, `${DC}title`, '"Renamed"')],
        added: [line(child, `${DC}title`, '"Versioned"')],
      },
    });
  });
});

describe('transactions on an external Fedora', () => {
  let site: AuditSite;
  beforeAll(async () => {
    site = await externalFedoraSite();
  }, 120_000);
  afterAll(async () => {
    await site.close();
  });

  async function begin(): Promise<string> {
    const payload = await asCurator(site, 'GET', '/transaction');
    return (payload.TransactionDetails as { token: string }).token;
  }

  it('holds the writes of a transaction until its commit, then records them and the commit', async () => {
    const child = await newChild(site, site.rootUri, 'Transacted');
    const token = await begin();
    const inTx = `${child}?token=${token}`;
    const held = await recordedDuring(site, async () => {
      await asCurator(site, 'POST', `/metadata?${q(inTx)}`, {
        subject: child,
        predicate: `${DC}subject`,
        object: '"held"',
      });
      await asCurator(site, 'POST', `/children?${q(inTx)}`, [{ predicate: `${DC}title`, object: 'Inner' }]);
    });
    expect(held).toEqual([]);

    const committed = await recordedDuring(site, () => asCurator(site, 'POST', `/transaction?${q(inTx)}`));
    expect(committed.map((event) => event.action)).toEqual([
      'metadata.update',
      'resource.create',
      'transaction.commit',
    ]);
    for (const event of committed) expect(event.username).toBe(site.curator.username);
    expect(committed[0]).toMatchObject({
      contextUri: child,
      detail: { removed: [], added: [line(child, `${DC}subject`, '"held"')] },
    });
    expect(committed[2]!.detail).toEqual({ transaction: token.replace(/^tx:/, ''), events: 2 });
  });

  it('drops the held writes at a rollback and records the rollback', async () => {
    const child = await newChild(site, site.rootUri, 'Rolled back');
    const token = await begin();
    const inTx = `${child}?token=${token}`;
    await asCurator(site, 'POST', `/metadata?${q(inTx)}`, {
      subject: child,
      predicate: `${DC}subject`,
      object: '"never"',
    });
    const rolled = await recordedDuring(site, () => asCurator(site, 'DELETE', `/transaction?${q(inTx)}`));
    expect(rolled.map((event) => event.action)).toEqual(['transaction.rollback']);
    expectByCurator(site, rolled[0], child);
    expect(rolled[0]!.detail).toEqual({ transaction: token.replace(/^tx:/, ''), events: 1 });
    const rows = await site.ledger.db.selectFrom('audit_pending').selectAll().execute();
    expect(rows).toEqual([]);
  });
});
