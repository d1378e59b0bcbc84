import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Config } from '../../../src/config/config.js';
import { connectDatabase, type DatabaseHandle } from '../../../src/db/connect.js';
import type { Database } from '../../../src/db/database.js';
import { FINAL_STATES, type JobState } from '../../../src/curation-jobs/job-states.js';
import type { RepositoryAdapter } from '../../../src/repository-adapters/repository-adapter.js';
import { walkScope } from '../../../src/curation-jobs/work/scope-walk.js';
import { documentOf } from '../../../src/search/search-document.js';
import type { SearchDocument } from '../../../src/search/search.js';
import { body, buildTestApp, sendJson, type TestApp } from '../test-app.js';
import { testDialect } from '../test-database.js';

/** A job as the API answers it, as far as these tests read it. */
export interface Job {
  id: number;
  kind: string;
  state: string;
  repositoryViewId: number;
  contextUri: string;
  scope: string;
  createdBy: number;
  started: number | null;
  finished: number | null;
  progress: { total: number; done: number; changed: number; failed: number };
  message: string | null;
}

/**
 * A test app and a second connection to its database, to read what the index holds: on SQLite the app's
 * database is then a file (an in-memory one has no second connection), removed on close.
 */
export async function appWithIndexReader(
  overrides: Partial<Config> = {},
): Promise<{ t: TestApp; handle: DatabaseHandle; close: () => Promise<void> }> {
  const folder =
    testDialect === 'sqlite' ? fs.mkdtempSync(path.join(os.tmpdir(), 'scriptorium-index-')) : undefined;
  const t = await buildTestApp({
    ...(folder === undefined ? {} : { database: { kind: 'sqlite', file: path.join(folder, 'db.sqlite') } }),
    ...overrides,
  });
  const handle = connectDatabase(t.config.database);
  return {
    t,
    handle,
    close: async () => {
      await handle.db.destroy();
      await t.close();
      if (folder !== undefined) fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}

/**
 * The view's documents as the index stores them, read from its tables (fields and types sorted), so a test
 * compares them with what `documentOf` makes of the repository's resources, field for field.
 */
export async function storedDocuments(db: Kysely<Database>, viewId: number): Promise<SearchDocument[]> {
  const rows = await db
    .selectFrom('search_documents')
    .selectAll()
    .where('view_id', '=', viewId)
    .orderBy('iri')
    .execute();
  const documents: SearchDocument[] = [];
  for (const row of rows) {
    const fields = await db
      .selectFrom('search_fields')
      .select(['predicate', 'value', 'language', 'is_iri'])
      .where('document_id', '=', row.id)
      .execute();
    documents.push(
      normalised({
        iri: row.iri,
        parent: row.parent,
        name: row.name,
        types: JSON.parse(row.types) as string[],
        binary: row.is_binary === 1,
        mimeType: row.mime_type,
        modified: row.modified,
        fields: fields.map((field) => ({
          predicate: field.predicate,
          value: field.value,
          language: field.language,
          isIri: field.is_iri === 1,
        })),
      }),
    );
  }
  return documents;
}

/** The documents a walk of the subtree finds, made by the one function that decides what is searched. */
export async function walkedDocuments(
  adapter: RepositoryAdapter,
  contextUri: string,
): Promise<SearchDocument[]> {
  const documents: SearchDocument[] = [];
  for await (const entry of walkScope(adapter, contextUri, 'SUBTREE', { concurrency: 2 })) {
    if ('error' in entry) throw new Error(`${entry.uri} could not be read: ${entry.error}`);
    const { description } = entry;
    documents.push(
      normalised(
        documentOf({
          iri: entry.uri,
          parent: description.parent ?? null,
          binary: description.isBinary,
          quads: description.quads,
        }),
      ),
    );
  }
  return documents.sort((a, b) => (a.iri < b.iri ? -1 : a.iri > b.iri ? 1 : 0));
}

/** Fields and types in one order, so two documents of one resource compare equal. */
function normalised(document: SearchDocument): SearchDocument {
  const key = (field: SearchDocument['fields'][number]) =>
    JSON.stringify([field.predicate, field.value, field.language, field.isIri]);
  return {
    ...document,
    types: [...document.types].sort(),
    fields: [...document.fields].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0)),
  };
}

/** The INDEX jobs of a view, oldest first. */
export async function indexJobsOf(t: TestApp, viewId: number, token?: string): Promise<Job[]> {
  const response = await sendJson(
    t.app,
    'GET',
    '/curation-job',
    undefined,
    token === undefined ? {} : { token },
  );
  const jobs = body(response).payload['ArrayList<CurationJob>'] as Job[];
  return jobs.filter((job) => job.kind === 'INDEX' && job.repositoryViewId === viewId).reverse();
}

/** Waits for the job to reach one of `states`; one that settles elsewhere fails at once, saying why. */
export async function jobReaching(t: TestApp, id: number, states: readonly string[]): Promise<Job> {
  let job: Job | undefined;
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    job = body(await sendJson(t.app, 'GET', `/curation-job/${id}`)).payload.CurationJob as Job;
    if (states.includes(job.state)) return job;
    if (FINAL_STATES.includes(job.state as JobState))
      throw new Error(`job ${id} ended ${job.state} (${job.message ?? 'no message'})`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`job ${id} never reached ${states.join('/')}; it is ${job?.state} (${job?.message})`);
}

/** Polls `check` until it holds (a few seconds at most), answering how long it took. */
export async function eventually(check: () => Promise<boolean>, ms = 5_000): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < ms) {
    if (await check()) return Date.now() - start;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`not reached within ${ms} ms`);
}

/** The Dublin Core schemas seeded in every app, as a view body names them. */
export async function dublinCore(t: TestApp): Promise<{ id: number }[]> {
  const schemas = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as {
    id: number;
    abbreviation: string;
  }[];
  return schemas
    .filter((schema) => ['dc', 'dcterms'].includes(schema.abbreviation))
    .map(({ id }) => ({ id }));
}

/** Creates a view through the API (as the administrator unless `token`) and answers its id. */
export async function createView(t: TestApp, view: Record<string, unknown>): Promise<number> {
  const response = await sendJson(t.app, 'POST', '/repository-view', view);
  const created = body(response).payload.RepositoryView as { id: number } | undefined;
  if (created === undefined) throw new Error(`creating the view failed: ${response.body}`);
  return created.id;
}
