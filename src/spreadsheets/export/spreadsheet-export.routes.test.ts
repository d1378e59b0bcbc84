import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Quad } from '@rdfjs/types';
import { parse } from 'csv-parse/sync';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { termKey } from '../../curation-jobs/work/metadata-document.js';
import { resolveRepositoryCredentials } from '../../embedded-repository/credentials.js';
import { FieldNaming } from '../../curation-jobs/work/field-naming.js';
import { NS } from '../../linked-data/rdf/vocab.js';
import type { Schema } from '../../schemas/schema.js';
import { listenWithEmbeddedView, type EmbeddedView } from '../../../test/support/embedded-view.js';
import { eventually } from '../../../test/support/search-feed.js';
import { inParallel, restClient, type RestClient } from '../../../test/support/spreadsheets/rest-seed.js';
import { body, buildTestApp, createUser, sendJson, type TestApp } from '../../../test/support/test-app.js';
import { DatatypePrefixes, decodeCell, unguardFormula } from '../sheet/cell-codec.js';
import { parseHeader } from '../sheet/sheet-header.js';
import type { SheetColumn } from '../spreadsheet.js';
import { SPOOL_PREFIX } from './row-spool.js';

/**
 * GET …/export through the real app (DECISIONS.md §13): resources written to the embedded repository over
 * /rest, exported per scope, and the CSV read back with csv-parse and the sheet grammar.
 */
const PCDM = 'http://pcdm.org/models#';
const FOAF = 'http://xmlns.com/foaf/0.1/';

let t: TestApp;
let view: EmbeddedView;
let rest: RestClient;
let schemas: Schema[];
let curator: { id: number; token: string };
let otherCurator: { id: number; token: string };
const iri: Record<string, string> = {};

interface Csv {
  readonly response: LightMyRequestResponse;
  readonly header: string[];
  /** Data rows as header → raw cell (formula guard kept). */
  readonly rows: Map<string, string>[];
}

function exportUrl(params: Record<string, string>): string {
  return `${view.prefix}/export?${new URLSearchParams(params).toString()}`;
}

async function exported(params: Record<string, string>, token?: string): Promise<Csv> {
  const response = await sendJson(t.app, 'GET', exportUrl(params), undefined, { token });
  expect(response.headers['content-type'], response.body).toBe('text/csv; charset=utf-8');
  const records = parse(response.body, { bom: true });
  const [header = [], ...data] = records;
  return {
    response,
    header,
    rows: data.map((record) => new Map(header.map((column, i) => [column, record[i] ?? '']))),
  };
}

/** Which resources an export's rows name, sorted. */
const named = (csv: Csv) => csv.rows.map((row) => row.get('contextUri')).sort();

function refused(response: LightMyRequestResponse, status: string): Record<string, unknown> {
  expect(response.headers['content-type']).toMatch(/^application\/json/u);
  const envelope = body(response);
  expect(envelope.meta.status, response.body).toBe(status);
  return envelope as unknown as Record<string, unknown>;
}

beforeAll(async () => {
  t = await buildTestApp();
  view = await listenWithEmbeddedView(t, 'Letters & Co');
  rest = restClient(t, view.rootUri);
  curator = await createUser(t, 'ROLE_CURATOR');
  otherCurator = await createUser(t, 'ROLE_CURATOR');
  const viewBody = body(await sendJson(t.app, 'GET', `/repository-view/${view.viewId}`)).payload
    .RepositoryView as Record<string, unknown>;
  expect(
    body(
      await sendJson(t.app, 'PUT', '/repository-view', {
        ...viewBody,
        password: null,
        curators: [{ id: curator.id }],
      }),
    ).meta.status,
  ).toBe('SUCCESS');
  const all = body(await sendJson(t.app, 'GET', '/schema')).payload['ArrayList<Schema>'] as Schema[];
  schemas = ['dc', 'dcterms'].flatMap((abbreviation) => all.filter((s) => s.abbreviation === abbreviation));
  // Another view (same repository), curated by someone else.
  expect(
    body(
      await sendJson(t.app, 'POST', '/repository-view', {
        ...viewBody,
        id: undefined,
        name: 'Another view',
        password: resolveRepositoryCredentials(t.config).password,
        curators: [{ id: otherCurator.id }],
      }),
    ).meta.status,
  ).toBe('SUCCESS');

  const prologue = `@prefix dcterms: <${NS.dcterms}> . @prefix dc: <${NS.dc}> . @prefix xsd: <${NS.xsd}> . @prefix foaf: <${FOAF}> . @prefix pcdm: <${PCDM}> .\n`;
  const put = async (at: string, turtle: string) => {
    iri[at] = await rest.put(at, prologue + turtle);
  };
  await put('letters', '<> dcterms:title "Letters"@en, "Ἐπιστολαί"@el .');
  await put(
    'letters/1',
    `<> dcterms:title "Letter one, \\"first\\""@en, "رسالة"@ar, "書簡 📜"@zh-Hant ;
       dcterms:subject <http://id.loc.gov/authorities/subjects/sh85076502>, "Correspondence" ;
       dcterms:date "1843-05-01"^^xsd:date ;
       dcterms:description "line one\\nline two", "=SUM(A1:A2)", " padded ", "a || b", "<not an iri>", "'tis" ;
       dcterms:extent "3"^^<http://types.example/pages> ;
       dc:creator [ foaf:name "Ada" ] ;
       dc:identifier "-5" .`,
  );
  await put('letters/1/attachments', '<> dcterms:title "Attachments, with a lantern"@en .');
  await put(
    'letters/2',
    `<> dcterms:title "Lantern two"@en ; dcterms:date "1844"^^xsd:gYear ; dc:subject "@home" .`,
  );
  await put('collection', `<> dcterms:title "Collection"@en ; pcdm:hasMember <${iri['letters/1']}> .`);
  await rest.patch(
    iri['letters/2']!,
    `INSERT DATA { <${iri['letters/2']}> <${PCDM}memberOf> <${iri.collection}> . }`,
  );
}, 60_000);

afterAll(async () => {
  await t.close();
});

describe('GET …/export', () => {
  it('streams a SUBTREE as CSV: contextUri, etag, then the metadata columns sorted, as a download', async () => {
    const csv = await exported({ contextUri: iri.letters!, scope: 'SUBTREE' });
    expect(csv.response.statusCode).toBe(200);
    expect(csv.response.headers['content-disposition']).toBe('attachment; filename="Letters-Co-SUBTREE.csv"');
    expect(csv.header).toEqual([
      'contextUri',
      'etag',
      'dc:identifier',
      'dc:subject',
      'dcterms:date',
      'dcterms:description',
      'dcterms:extent',
      'dcterms:subject',
      'dcterms:title[ar]',
      'dcterms:title[el]',
      'dcterms:title[en]',
      'dcterms:title[zh-hant]',
    ]);
    expect(named(csv)).toEqual(
      [iri.letters, iri['letters/1'], iri['letters/1/attachments'], iri['letters/2']].sort(),
    );
    // CRLF between records, RFC 4180 quoting (the comma and quotes of the title, the newline of a value)
    expect(csv.response.body).toContain('\r\n');
    expect(csv.response.body).toContain('"Letter one, ""first"""');
  });

  it('writes each kind of value in its cell form, with the formula guard', async () => {
    const csv = await exported({ contextUri: iri.letters!, scope: 'SUBTREE' });
    const row = (at: string) => csv.rows.find((r) => r.get('contextUri') === iri[at])!;
    const one = row('letters/1');
    expect(one.get('dcterms:date')).toBe('"1843-05-01"^^xsd:date');
    expect(one.get('dcterms:extent')).toBe('"3"^^<http://types.example/pages>');
    expect(one.get('dc:identifier')).toBe("'-5");
    expect(one.get('dcterms:title[en]')).toBe('Letter one, "first"');
    expect(one.get('dcterms:title[zh-hant]')).toBe('書簡 📜');
    expect(one.get('dcterms:subject')!.split('||').sort()).toEqual([
      '<http://id.loc.gov/authorities/subjects/sh85076502>',
      'Correspondence',
    ]);
    const description: SheetColumn = {
      header: 'dcterms:description',
      predicate: `${NS.dcterms}description`,
      language: null,
    };
    const raw = one.get('dcterms:description')!;
    // Ambiguous texts quoted; the formula guard only on the cell as a whole.
    for (const quoted of ['" padded "', '"<not an iri>"', '"a || b"', '"\'tis"'])
      expect(raw).toContain(quoted);
    expect(raw.startsWith("'=") || !raw.startsWith('=')).toBe(true);
    expect(
      decodeCell(unguardFormula(raw), description, new DatatypePrefixes(schemas))
        .map((term) => term.value)
        .sort(),
    ).toEqual([' padded ', '<not an iri>', '=SUM(A1:A2)', 'a || b', "'tis", 'line one\nline two'].sort());
    expect(row('letters/2').get('dc:subject')).toBe("'@home");
    expect(row('letters/2').get('dcterms:date')).toBe('"1844"^^xsd:gYear');
    // A column a resource lacks is an empty cell.
    expect(row('letters/2').get('dcterms:extent')).toBe('');
  });

  it('exports no server-managed or structural predicate, nothing outside the schemas, no blank node', async () => {
    const csv = await exported({ contextUri: iri.letters!, scope: 'SUBTREE' });
    for (const column of csv.header.slice(2)) expect(column).toMatch(/^(dc|dcterms):[a-z]+(\[[a-z-]+\])?$/u);
    expect(csv.header).not.toContain('dc:creator');
    expect(csv.response.body).not.toMatch(/fedora|ldp#|memberOf|_:/u);
  });

  it("reads back with csv-parse and the sheet grammar as exactly the repository's metadata and ETags", async () => {
    const csv = await exported({ contextUri: iri.letters!, scope: 'SUBTREE' });
    const naming = new FieldNaming(schemas);
    const prefixes = new DatatypePrefixes(schemas);
    const header = parseHeader(csv.header, naming);
    const fromSheet: string[] = [];
    const fromRepository: string[] = [];
    for (const row of csv.rows) {
      const uri = unguardFormula(row.get('contextUri')!);
      for (const column of header.columns) {
        for (const term of decodeCell(unguardFormula(row.get(column.header)!), column, prefixes))
          fromSheet.push(`${uri} ${column.predicate} ${termKey(term)}`);
      }
      const read = await rest.read(uri);
      expect(unguardFormula(row.get('etag')!)).toBe(read.etag);
      const own = (q: Quad) =>
        q.subject.value === uri &&
        q.object.termType !== 'BlankNode' &&
        naming.isMetadataPredicate(q.predicate.value);
      for (const q of read.quads.filter(own))
        fromRepository.push(`${uri} ${q.predicate.value} ${termKey(q.object)}`);
    }
    expect(fromSheet.sort()).toEqual(fromRepository.sort());
    expect(fromSheet.length).toBeGreaterThanOrEqual(20);
  });

  it('exports only the direct children for CHILDREN', async () => {
    expect(named(await exported({ contextUri: iri.letters!, scope: 'CHILDREN' }))).toEqual(
      [iri['letters/1'], iri['letters/2']].sort(),
    );
  });

  it("exports a QUERY's hits below the context once the index has them", async () => {
    const want = [iri['letters/1/attachments'], iri['letters/2']].sort();
    const found = await eventually(
      async () =>
        JSON.stringify(
          named(await exported({ contextUri: iri.letters!, scope: 'QUERY', query: 'lantern' })),
        ) === JSON.stringify(want),
      5_000,
    );
    expect(found).toBe(true);
    const csv = await exported({ contextUri: iri.letters!, scope: 'QUERY', query: 'lantern' });
    expect(csv.response.headers['content-disposition']).toBe('attachment; filename="Letters-Co-QUERY.csv"');
  });

  it('exports the MEMBERS of a collection: named by pcdm:hasMember or naming it by pcdm:memberOf', async () => {
    const want = [iri['letters/1'], iri['letters/2']].sort();
    const found = await eventually(
      async () =>
        JSON.stringify(named(await exported({ contextUri: iri.collection!, scope: 'MEMBERS' }))) ===
        JSON.stringify(want),
      5_000,
    );
    expect(found).toBe(true);
  });

  it('starts with a byte-order mark only when asked', async () => {
    const plain = await sendJson(t.app, 'GET', exportUrl({ contextUri: iri.letters!, scope: 'CHILDREN' }));
    expect(plain.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(false);
    expect(plain.body.startsWith('contextUri,etag,')).toBe(true);
    const bom = await sendJson(
      t.app,
      'GET',
      exportUrl({ contextUri: iri.letters!, scope: 'CHILDREN', bom: 'true' }),
    );
    expect(bom.rawPayload.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf]))).toBe(true);
    expect(bom.rawPayload.subarray(3).toString('utf8')).toBe(plain.body);
    const malformed = await sendJson(
      t.app,
      'GET',
      exportUrl({ contextUri: iri.letters!, scope: 'CHILDREN', bom: 'yes' }),
    );
    expect(malformed.statusCode).toBe(400);
    expect(body(malformed).meta.message).toBe('The query parameter bom must be true or false');
  });

  it('lets a curator of the view export, and refuses a curator of another view and an anonymous caller', async () => {
    const own = await exported({ contextUri: iri.letters!, scope: 'CHILDREN' }, curator.token);
    expect(own.rows).toHaveLength(2);
    const other = await sendJson(
      t.app,
      'GET',
      exportUrl({ contextUri: iri.letters!, scope: 'CHILDREN' }),
      undefined,
      { token: otherCurator.token },
    );
    expect(other.headers['content-type']).toMatch(/^application\/json/u);
    expect(body(other).meta.status).not.toBe('SUCCESS');
    expect(other.body).not.toContain(iri['letters/1']);
    const anonymous = await sendJson(
      t.app,
      'GET',
      exportUrl({ contextUri: iri.letters!, scope: 'CHILDREN' }),
      undefined,
      { token: null },
    );
    expect(anonymous.statusCode).toBe(401);
  });

  const invalid: [string, Record<string, string>, Record<string, Record<string, string>>, RegExp][] = [
    [
      'no scope',
      {},
      { scope: { required: 'The query parameter scope must be one of CHILDREN, SUBTREE, QUERY, MEMBERS' } },
      /scope must be one of/u,
    ],
    [
      'an unknown scope',
      { scope: 'RESOURCE' },
      { scope: { type: 'The query parameter scope must be one of CHILDREN, SUBTREE, QUERY, MEMBERS' } },
      /scope must be one of/u,
    ],
    [
      'a QUERY without a query',
      { scope: 'QUERY' },
      {
        query: {
          required: 'A QUERY-scoped export requires a query (SUBTREE is every resource below contextUri)',
        },
      },
      /requires a query/u,
    ],
    [
      'a query for another scope',
      { scope: 'SUBTREE', query: 'lantern' },
      { query: { type: 'Only a QUERY-scoped export takes a query, not a SUBTREE-scoped one' } },
      /Only a QUERY-scoped export/u,
    ],
    [
      'a format other than csv',
      { scope: 'SUBTREE', format: 'xlsx' },
      { format: { type: 'The query parameter format must be csv' } },
      /format must be csv/u,
    ],
  ];
  for (const [what, params, messages, message] of invalid) {
    it(`answers INVALID before any CSV for ${what}`, async () => {
      const envelope = refused(
        await sendJson(t.app, 'GET', exportUrl({ contextUri: iri.letters!, ...params })),
        'INVALID',
      );
      expect(envelope).toMatchObject({
        meta: { message: expect.stringMatching(message) as string },
        payload: { ValidationResults: { valid: false, messages } },
      });
    });
  }

  it('answers INVALID naming where a malformed query goes wrong, as search does', async () => {
    const envelope = refused(
      await sendJson(
        t.app,
        'GET',
        exportUrl({ contextUri: iri.letters!, scope: 'QUERY', query: 'lantern "open' }),
      ),
      'INVALID',
    );
    expect(envelope).toMatchObject({
      meta: { message: expect.stringMatching(/at position 8/u) as string },
      payload: {
        ValidationResults: {
          messages: { query: { pattern: expect.stringMatching(/at position 8/u) as string, position: '8' } },
        },
      },
    });
  });

  it('answers INVALID for a context outside the view and for one in a transaction, every problem at once', async () => {
    const outside = refused(
      await sendJson(t.app, 'GET', exportUrl({ contextUri: 'http://elsewhere.example/x', scope: 'SUBTREE' })),
      'INVALID',
    );
    expect(outside).toMatchObject({
      payload: { ValidationResults: { messages: { contextUri: { pattern: expect.any(String) as string } } } },
    });
    const both = refused(
      await sendJson(
        t.app,
        'GET',
        exportUrl({ contextUri: 'http://elsewhere.example/x', scope: 'EVERYTHING', format: 'ods' }),
      ),
      'INVALID',
    );
    const messages = (both.payload as { ValidationResults: { messages: object } }).ValidationResults.messages;
    expect(Object.keys(messages).sort()).toEqual(['contextUri', 'format', 'scope']);
    refused(
      await sendJson(t.app, 'GET', exportUrl({ contextUri: `tx:abc/letters`, scope: 'SUBTREE' })),
      'INVALID',
    );
  });

  it('answers an error envelope, no CSV, for a context that does not exist', async () => {
    const response = await sendJson(
      t.app,
      'GET',
      exportUrl({ contextUri: `${view.rootUri}nowhere`, scope: 'SUBTREE' }),
    );
    expect(response.headers['content-type']).toMatch(/^application\/json/u);
    expect(body(response).meta.status).not.toBe('SUCCESS');
  });
});

describe('GET …/export of 2 000 resources', () => {
  it('spools them to a temporary file that is gone afterwards', async () => {
    const paths = Array.from({ length: 2000 }, (_, i) => `bulk/r${String(i).padStart(4, '0')}`);
    iri.bulk = await rest.put('bulk', `<> <${NS.dcterms}title> "Bulk"@en .`);
    await inParallel(paths, 8, (at) =>
      rest.put(at, `<> <${NS.dcterms}title> "Record ${at}"@en ; <${NS.dc}identifier> "${at}" .`),
    );
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'export-spool-test-'));
    const before = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    try {
      const csv = await exported({ contextUri: iri.bulk, scope: 'CHILDREN' });
      expect(csv.rows).toHaveLength(2000);
      expect(csv.header).toEqual(['contextUri', 'etag', 'dc:identifier', 'dcterms:title[en]']);
      expect(new Set(csv.rows.map((row) => row.get('dc:identifier')))).toEqual(new Set(paths));
      const left = await eventually(() => Promise.resolve(fs.readdirSync(tmp).length === 0));
      expect(left, `left behind: ${fs.readdirSync(tmp).join(', ')}`).toBe(true);
    } finally {
      if (before === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = before;
      fs.rmSync(tmp, { recursive: true, force: true });
    }
    expect(SPOOL_PREFIX).toBe('scriptorium-export-');
  }, 120_000);
});
