import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import type { Database } from '../../db/database.js';
import { createSearchIndexStore } from '../index/search-index.store.js';
import type { SearchIndexStore } from '../search.js';
import { AUTH, buildRepositoryApp, sparql, turtle } from '../../../test/support/repository-client.js';
import { eventually, findWord, openDatabase, sharedDatabase } from '../../../test/support/search-feed.js';
import { body, sendJson, type TestApp } from '../../../test/support/test-app.js';
import { testDialect } from '../../../test/support/test-database.js';

/**
 * Two instances on one database (DECISIONS.md §12: "on every instance"): a write through one's /rest is
 * in the index within 2 s though that instance indexes nothing itself, and two feeds draining at once
 * leave every resource indexed at its last write.
 */
const TITLE = 'http://purl.org/dc/terms/title';
const ROOT = 'http://127.0.0.1:8080/rest/';
let dir: string | undefined;
let a: TestApp | undefined;
let b: FastifyInstance | undefined;
let db: Kysely<Database> | undefined;

afterEach(async () => {
  await b?.close();
  await a?.close();
  await db?.destroy();
  if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  a = b = db = dir = undefined;
});

async function twoInstances(
  feedOnSecond: boolean,
): Promise<{ a: TestApp; b: FastifyInstance; index: SearchIndexStore; viewId: number }> {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-feed-instances-'));
  a = await buildRepositoryApp(sharedDatabase(dir));
  b = await buildApp({ ...a.config, searchFeed: feedOnSecond }, { logger: false });
  db = await openDatabase(a.config);
  const views = body(await sendJson(a.app, 'GET', '/repository-view')).payload.LinkedList as {
    id: number;
    name: string;
  }[];
  const viewId = views.find((view) => view.name === 'Embedded repository')?.id;
  if (viewId === undefined) throw new Error('no default view');
  return { a, b, index: createSearchIndexStore(db, testDialect), viewId };
}

/** A write to an instance's /rest, as a client of the shared repository sends it. */
async function rest(
  app: FastifyInstance,
  method: 'PUT' | 'PATCH',
  where: string,
  payload: ReturnType<typeof turtle>,
) {
  const response = await app.inject({
    method,
    url: `/rest${where}`,
    headers: { host: '127.0.0.1:8080', authorization: AUTH, ...payload.headers },
    payload: payload.body,
  });
  if (response.statusCode >= 300)
    throw new Error(`${method} ${where}: ${response.statusCode} ${response.body}`);
}

describe(`the search feed with two instances on ${testDialect}`, () => {
  it('indexes within 2 s a write made through the other instance, which runs no feed', async () => {
    const { b, index, viewId } = await twoInstances(false);
    await rest(b, 'PUT', '/elsewhere', turtle(`<> <${TITLE}> "capybara" .`));
    expect(await eventually(async () => (await findWord(index, viewId, 'capybara')).length > 0)).toBe(true);
    expect(await findWord(index, viewId, 'capybara')).toEqual([`${ROOT}elsewhere`]);

    await rest(
      b,
      'PATCH',
      '/elsewhere',
      sparql(`DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "tapir" }`),
    );
    expect(await eventually(async () => (await findWord(index, viewId, 'tapir')).length > 0)).toBe(true);
    expect(await findWord(index, viewId, 'capybara')).toEqual([]);
  });

  // PostgreSQL only (defined only there, not skipped elsewhere).
  if (testDialect === 'postgres')
    it('leaves every resource indexed at its last write when both instances write and index at once (PostgreSQL)', async () => {
      const { a, b, index, viewId } = await twoInstances(true);
      const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
      for (const name of names)
        await rest(a.app, 'PUT', `/race-${name}`, turtle(`<> <${TITLE}> "${name}x0" .`));
      const rounds = 12;
      await Promise.all(
        names.map(async (name) => {
          for (let round = 1; round <= rounds; round++) {
            const through = round % 2 === 0 ? a.app : b;
            await rest(
              through,
              'PATCH',
              `/race-${name}`,
              sparql(`DELETE WHERE { <> <${TITLE}> ?t } ; INSERT DATA { <> <${TITLE}> "${name}x${round}" }`),
            );
          }
        }),
      );
      const last = async () => {
        for (const name of names) {
          if ((await findWord(index, viewId, `${name}x${rounds}`)).length !== 1) return false;
          for (let round = 0; round < rounds; round++)
            if ((await findWord(index, viewId, `${name}x${round}`)).length !== 0) return false;
        }
        return true;
      };
      expect(await eventually(last)).toBe(true);
      expect(
        await eventually(
          async () => (await db!.selectFrom('search_pending').select('path').execute()).length === 0,
        ),
      ).toBe(true);
    });
});
