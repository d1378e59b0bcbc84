// Issue 27: the PostgreSQL pass runs only the files with SQL of their own. These checks keep that
// selection from silently dropping PostgreSQL coverage as files are added.
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { POSTGRES_ONLY, postgresSuites, runsOnPostgres, testFiles } from './support/database-suites.js';

const ROOT = resolve(import.meta.dirname, '..');
const selected = new Set(postgresSuites(ROOT));
const all = testFiles(ROOT);

describe('the suites the PostgreSQL pass runs', () => {
  it('include every file that branches on the database', () => {
    const branching = all.filter((file) =>
      /testDialect\s*[!=]==|\.(skipIf|runIf)\(|TEST_POSTGRES_URL/.test(
        readFileSync(join(ROOT, file), 'utf8'),
      ),
    );
    expect(branching.length).toBeGreaterThan(10);
    expect(branching.filter((file) => !selected.has(file))).toEqual([]);
  });

  it('cover every store: each capability with a *.store.ts has a suite on PostgreSQL', () => {
    const stores = readdirSync(join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.store.ts'))
      .map((name) => `src/${name}`);
    expect(stores.length).toBeGreaterThan(5);
    const uncovered = stores.filter((store) => {
      const capability = store.split('/').slice(0, 2).join('/') + '/';
      return ![...selected].some((file) => file.startsWith(capability));
    });
    expect(uncovered).toEqual([]);
  });

  it('include the storage, queue, event and migration suites, and leave HTTP-level suites to SQLite', () => {
    for (const file of [
      'src/curation-jobs/curation-job.store.test.ts',
      'src/embedded-repository/store/repository.store.test.ts',
      'src/curation-jobs/runner/pg-boss-queue.test.ts',
      'src/events/events.instances.test.ts',
      'src/db/change-feed.test.ts',
      'test/shared-database.test.ts',
      'src/search/indexing/embedded-feed.test.ts',
    ])
      expect(selected.has(file), file).toBe(true);
    for (const file of [
      'src/http/envelope.routes.test.ts',
      'src/operators/engine/regex.test.ts',
      'test/contract/ldp.contract.test.ts',
    ])
      expect(selected.has(file), file).toBe(false);
    expect(selected.size).toBeLessThan(all.length);
  });

  it('include the PostgreSQL-only files, which exist (vitest.config.ts keeps them out of the SQLite pass)', () => {
    expect(POSTGRES_ONLY.length).toBeGreaterThan(0);
    for (const file of POSTGRES_ONLY) {
      expect(all, file).toContain(file);
      expect(selected.has(file), file).toBe(true);
    }
  });

  it('decide by path or by a branch on the database in the text', () => {
    expect(runsOnPostgres('src/anything/new.store.test.ts', '')).toBe(true);
    expect(runsOnPostgres('src/http/new.routes.test.ts', '')).toBe(false);
    expect(runsOnPostgres('src/http/new.routes.test.ts', "if (testDialect === 'postgres') {}")).toBe(true);
    expect(runsOnPostgres('src/http/new.routes.test.ts', 'it.skipIf(sqlite)(…)')).toBe(true);
  });
});
