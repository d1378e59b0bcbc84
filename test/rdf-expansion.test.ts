import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdapter } from '../src/repository-adapters/create-adapter.js';
import { PropertyLookup } from '../src/schemas/property-lookup.js';
import { VocabularyFetcher } from '../src/schemas/vocabulary-fetcher.js';
import { UpstreamFailedError } from '../src/shared/errors.js';
import { buildRepositoryApp, repo } from './support/repository-client.js';
import { body, buildTestApp, sendJson, type TestApp } from './support/test-app.js';
import { testDialect } from './support/test-database.js';

/**
 * Issue 8, finding 4: no RDF input may expand into a huge output, wherever it is parsed — request bodies
 * to the embedded repository, upstream answers read by the adapters, vocabulary documents read for
 * `/schema/properties`. RDF/XML declaring a DTD is refused; any parse whose terms outgrow the input by
 * far (prefixes, namespaces, contexts re-used thousands of times) is refused rather than stored.
 */
const RDF = 'http://www.w3.org/1999/02/22-rdf-syntax-ns#';
const TITLE = 'http://purl.org/dc/terms/title';
const LDP = 'http://www.w3.org/ns/ldp#';

/** "Billion laughs", cut to a million so today's code survives storing it: 6 levels of 10 references. */
function laughs(subject: string): string {
  const levels = ['<!ENTITY l0 "lol">'];
  for (let i = 1; i <= 6; i++) levels.push(`<!ENTITY l${i} "${`&l${i - 1};`.repeat(10)}">`);
  return `<?xml version="1.0"?>
<!DOCTYPE rdf:RDF [
 ${levels.join('\n ')}
]>
<rdf:RDF xmlns:rdf="${RDF}" xmlns:dc="http://purl.org/dc/terms/" xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#">
  <rdf:Description rdf:about="${subject}"><dc:title>&l6;</dc:title><rdfs:label>&l6;</rdfs:label></rdf:Description>
</rdf:RDF>`;
}

/** 10 000-character IRIs from a prefix used 2 500 times: a 20 kB body, 25 MB of terms. */
const LONG = `http://example.org/${'a'.repeat(10_000)}/`;
const USES = 2_500;
const amplified = {
  turtle: (subject: string) =>
    `@prefix p: <${LONG}> .\n<${subject}> <${TITLE}> ${Array.from({ length: USES }, (_, i) => `p:${i}`).join(',')} .`,
  rdfxml: (subject: string) =>
    `<rdf:RDF xmlns:rdf="${RDF}" xmlns:p="${LONG}"><rdf:Description rdf:about="${subject}">${Array.from(
      { length: USES },
      (_, i) => `<p:t${i}>x</p:t${i}>`,
    ).join('')}</rdf:Description></rdf:RDF>`,
  jsonld: (subject: string) =>
    JSON.stringify({
      '@context': { p: LONG },
      '@id': subject,
      'p:t': Array.from({ length: USES }, (_, i) => String(i)),
    }),
};

describe(`the embedded repository refuses expanding bodies (${testDialect})`, () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildRepositoryApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('a billion-laughs RDF/XML PUT → 400 naming the DOCTYPE, nothing stored', async () => {
    const response = await repo(t.app, 'PUT', '/laughs', {
      headers: { 'content-type': 'application/rdf+xml' },
      body: laughs(''),
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/DOCTYPE or ENTITY declaration is refused/);
    expect((await repo(t.app, 'GET', '/laughs')).statusCode).toBe(404);
  });

  const document = (before: string, inside = '') =>
    `${before}<rdf:RDF xmlns:rdf="${RDF}">${inside}<rdf:Description rdf:about=""/></rdf:RDF>`;
  it.each([
    ['lower case, after a BOM', 'bom', document('\uFEFF<!doctype rdf:RDF [<!entity t "x">]>')],
    ['an external entity', 'system', document('<!DOCTYPE rdf:RDF SYSTEM "file:///etc/passwd">')],
    ['a parameter entity', 'parameter', document('<!DOCTYPE rdf:RDF [<!ENTITY % p "x"> %p;]>')],
    ['inside the root element', 'inside', document('', '<!DOCTYPE x [<!ENTITY t "x">]>')],
  ])('a DTD (%s) → 400, nothing stored', async (_label, name, payload) => {
    const response = await repo(t.app, 'PUT', `/dtd-${name}`, {
      headers: { 'content-type': 'application/rdf+xml' },
      body: payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/DOCTYPE or ENTITY declaration is refused/);
    expect((await repo(t.app, 'GET', `/dtd-${name}`)).statusCode).toBe(404);
  });

  it.each([
    ['Turtle prefixes', 'text/turtle', amplified.turtle('')],
    ['RDF/XML namespaces', 'application/rdf+xml', amplified.rdfxml('')],
    ['a JSON-LD context', 'application/ld+json', amplified.jsonld('')],
  ])('%s re-used into 25 MB of terms → 400, nothing stored', async (_label, contentType, payload) => {
    const path = `/amplified-${contentType.replace(/\W/g, '-')}`;
    const response = await repo(t.app, 'PUT', path, {
      headers: { 'content-type': contentType },
      body: payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatch(/the parsed RDF is too large/);
    expect((await repo(t.app, 'GET', path)).statusCode).toBe(404);
  });

  it('ordinary RDF/XML is still read', async () => {
    const response = await repo(t.app, 'PUT', '/plain-xml', {
      headers: { 'content-type': 'application/rdf+xml' },
      body: `<?xml version="1.0"?><rdf:RDF xmlns:rdf="${RDF}" xmlns:dc="http://purl.org/dc/terms/"><rdf:Description rdf:about=""><dc:title>Plain</dc:title></rdf:Description></rdf:RDF>`,
    });
    expect(response.statusCode).toBe(201);
  });
});

/** A stand-in for an upstream repository and a vocabulary server: each path answers one document. */
let server: http.Server;
let origin: string;
const documents: Record<string, { type: string; body: (self: string) => string }> = {
  '/rest/laughs': { type: 'application/rdf+xml', body: laughs },
  '/rest/amplified': { type: 'text/turtle', body: amplified.turtle },
  '/vocab/laughs': { type: 'application/rdf+xml', body: laughs },
  '/vocab/amplified': { type: 'application/rdf+xml', body: amplified.rdfxml },
};
beforeAll(async () => {
  server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0] ?? '/';
    const document = documents[path];
    if (document === undefined) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('unknown');
      return;
    }
    response.writeHead(200, {
      'content-type': document.type,
      link: `<${LDP}Resource>; rel="type", <${LDP}BasicContainer>; rel="type"`,
    });
    response.end(document.body(`${origin}${path}`));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
});

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamFailedError);
  return (error as Error).message;
}

describe('the adapters refuse expanding upstream answers', () => {
  it.each(['FEDORA', 'LDP'] as const)(
    '%s: billion laughs and re-used prefixes are upstream failures',
    async (type) => {
      // The Fedora line pinned: this stub answers no detection probes.
      const adapter = createAdapter({ type, rootUri: `${origin}/rest/`, dialect: 'FEDORA_6' });
      expect(await failure(adapter.describe(`${origin}/rest/laughs`))).toMatch(
        new RegExp(
          `^GET ${origin}/rest/laughs answered RDF that cannot be read: RDF/XML with a DOCTYPE or ENTITY declaration is refused`,
        ),
      );
      expect(await failure(adapter.describe(`${origin}/rest/amplified`))).toMatch(
        /answered RDF that cannot be read: the parsed RDF is too large/,
      );
    },
  );

  it('through the context API: an ERROR envelope naming the problem', async () => {
    const t = await buildTestApp();
    try {
      const created = await sendJson(t.app, 'POST', '/repository-view', {
        type: 'LDP',
        name: 'Hostile upstream',
        rootUri: `${origin}/rest/`,
      });
      const id = (body(created).payload.RepositoryView as { id: number }).id;
      const response = await sendJson(
        t.app,
        'GET',
        `/repository-view-context/LDP/${id}/triples?contextUri=${encodeURIComponent(`${origin}/rest/laughs`)}`,
      );
      expect(response.statusCode).toBeLessThan(500);
      expect(body(response).meta).toMatchObject({ status: 'ERROR' });
      expect(body(response).meta.message).toMatch(/DOCTYPE or ENTITY declaration is refused/);
    } finally {
      await t.close();
    }
  });
});

describe('the vocabulary reader refuses expanding documents', () => {
  const lookup = () =>
    new PropertyLookup(new VocabularyFetcher({ allowedHosts: ['127.0.0.1'], timeoutMs: 5000 }));

  it('billion laughs and re-used namespaces: GET <namespace>: <why>', async () => {
    expect(await failure(lookup().listProperties(`${origin}/vocab/laughs`))).toBe(
      `GET ${origin}/vocab/laughs: could not parse application/rdf+xml: RDF/XML with a DOCTYPE or ENTITY declaration is refused: XML entities are not expanded`,
    );
    expect(await failure(lookup().listProperties(`${origin}/vocab/amplified`))).toMatch(
      new RegExp(
        `^GET ${origin}/vocab/amplified: could not parse application/rdf\\+xml: the parsed RDF is too large`,
      ),
    );
  });

  it('through GET /schema/properties: an ERROR envelope', async () => {
    const t = await buildTestApp({ vocabularyFetchAllowedHosts: ['127.0.0.1'] });
    try {
      const ns = `${origin}/vocab/laughs`;
      const response = await sendJson(t.app, 'GET', `/schema/properties?namespace=${encodeURIComponent(ns)}`);
      expect(body(response).meta).toMatchObject({
        status: 'ERROR',
        message: `GET ${ns}: could not parse application/rdf+xml: RDF/XML with a DOCTYPE or ENTITY declaration is refused: XML entities are not expanded`,
      });
    } finally {
      await t.close();
    }
  });
});
