import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { body, buildTestApp, sendJson } from '../../test/support/test-app.js';
import { UpstreamFailedError } from '../shared/errors.js';
import { PropertyLookup } from './property-lookup.js';
import { ACCEPT, VocabularyFetcher, type VocabularyFetcherOptions } from './vocabulary-fetcher.js';

/**
 * The HTTP read of `GET /schema/properties` against a local server on 127.0.0.1 (allowed through the
 * allow-list, as an operator would allow an intranet vocabulary server).
 */
let server: http.Server;
let origin: string;
const seen: { url: string; host: string | undefined; accept: string | undefined }[] = [];

const turtle = (ns: string) => `
@prefix rdf: <http://www.w3.org/1999/02/22-rdf-syntax-ns#> .
@prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
@prefix owl: <http://www.w3.org/2002/07/owl#> .
@prefix ex: <${ns}> .
ex:title a rdf:Property ; rdfs:label "Titre"@fr, "Title"@en, "title (plain)" .
ex:creator a owl:ObjectProperty ; rdfs:label "Creator" .
ex:size rdfs:domain ex:File .
ex:File a owl:Class ; rdfs:label "File" .
ex:unlabelled a owl:DatatypeProperty .
<http://elsewhere.example/other#prop> a rdf:Property ; rdfs:label "Not ours" .
`;

const RDF_XML = (ns: string) => `<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
         xmlns:rdfs="http://www.w3.org/2000/01/rdf-schema#"
         xmlns:owl="http://www.w3.org/2002/07/owl#">
  <owl:AnnotationProperty rdf:about="${ns}note">
    <rdfs:label xml:lang="de">Notiz</rdfs:label>
    <rdfs:label>Note</rdfs:label>
  </owl:AnnotationProperty>
  <rdf:Description rdf:about="${ns}partOf">
    <rdfs:subPropertyOf rdf:resource="http://purl.org/dc/terms/isPartOf"/>
  </rdf:Description>
</rdf:RDF>`;

const JSON_LD = (ns: string) =>
  JSON.stringify({
    '@context': { rdfs: 'http://www.w3.org/2000/01/rdf-schema#', ex: ns },
    '@graph': [
      {
        '@id': 'ex:subject',
        '@type': 'rdf:Property',
        'rdfs:label': { '@value': 'Subject', '@language': 'en' },
      },
      { '@id': 'ex:subject', 'rdfs:range': { '@id': 'rdfs:Literal' } },
    ],
  }).replace('"rdf:Property"', '"http://www.w3.org/1999/02/22-rdf-syntax-ns#Property"');

function handle(request: http.IncomingMessage, response: http.ServerResponse): boolean {
  const path = request.url ?? '/';
  seen.push({ url: path, host: request.headers.host, accept: request.headers.accept });
  const send = (status: number, type: string, text: string): true => {
    response.writeHead(status, { 'content-type': type });
    response.end(text);
    return true;
  };
  switch (path) {
    case '/turtle':
      return send(200, 'text/turtle; charset=utf-8', turtle(`${origin}/turtle#`));
    case '/rdfxml':
      return send(200, 'application/rdf+xml', RDF_XML(`${origin}/rdfxml#`));
    case '/jsonld':
      return send(200, 'application/ld+json', JSON_LD(`${origin}/jsonld#`));
    case '/jsonld-remote':
      return send(
        200,
        'application/ld+json',
        JSON.stringify({ '@context': 'http://example.org/ctx.jsonld' }),
      );
    case '/html':
      return send(200, 'text/html', '<html><body>Not RDF</body></html>');
    case '/broken':
      return send(200, 'text/turtle', '@prefix ex: <http://x/> . ex:a ex:b');
    case '/missing':
      return send(404, 'text/plain', 'no such vocabulary');
    case '/slow':
      response.writeHead(200, { 'content-type': 'text/turtle' });
      response.write('# the rest never comes\n');
      return false;
    case '/huge': {
      response.writeHead(200, { 'content-type': 'text/turtle' });
      const chunk = `# ${'x'.repeat(64 * 1024 - 3)}\n`;
      for (let i = 0; i < 96; i++) response.write(chunk);
      response.end();
      return true;
    }
    case '/huge-declared':
      response.writeHead(200, { 'content-type': 'text/turtle', 'content-length': String(6 * 1024 * 1024) });
      response.write('# a start\n');
      return false;
    case '/redirect-same':
      response.writeHead(303, { location: '/redirect-target' });
      response.end();
      return true;
    case '/redirect-target':
      return send(200, 'text/turtle', turtle(`${origin}/redirect-same#`));
    case '/redirect-other':
      response.writeHead(302, { location: `http://localhost:${new URL(origin).port}/turtle` });
      response.end();
      return true;
    case '/loop':
      response.writeHead(307, { location: '/loop' });
      response.end();
      return true;
    default:
      return send(404, 'text/plain', 'unknown');
  }
}

beforeAll(async () => {
  server = http.createServer(handle);
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

function lookup(options: VocabularyFetcherOptions = {}) {
  return new PropertyLookup(
    new VocabularyFetcher({ allowedHosts: ['127.0.0.1'], timeoutMs: 500, ...options }),
  );
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UpstreamFailedError);
  return (error as Error).message;
}

describe('reading a vocabulary over HTTP', () => {
  it('reads Turtle with content negotiation: properties of the namespace only, labels by preference', async () => {
    const ns = `${origin}/turtle#`;
    expect(await lookup().listProperties(ns)).toEqual([
      { uri: `${ns}creator`, label: 'Creator' },
      { uri: `${ns}size`, label: 'size' },
      { uri: `${ns}title`, label: 'Title' },
      { uri: `${ns}unlabelled`, label: 'unlabelled' },
    ]);
    expect(seen.find((s) => s.url === '/turtle')?.accept).toBe(ACCEPT);
  });

  it('reads RDF/XML', async () => {
    const ns = `${origin}/rdfxml#`;
    expect(await lookup().listProperties(ns)).toEqual([
      { uri: `${ns}note`, label: 'Note' },
      { uri: `${ns}partOf`, label: 'partOf' },
    ]);
  });

  it('reads JSON-LD with an inline context and refuses a remote one', async () => {
    const ns = `${origin}/jsonld#`;
    expect(await lookup().listProperties(ns)).toEqual([{ uri: `${ns}subject`, label: 'Subject' }]);
    expect(await failure(lookup().listProperties(`${origin}/jsonld-remote`))).toMatch(
      new RegExp(
        `^GET ${origin}/jsonld-remote: could not parse application/ld\\+json: .*remote JSON-LD context`,
      ),
    );
  });

  it('follows a redirect on the same host', async () => {
    const ns = `${origin}/redirect-same#`;
    expect((await lookup().listProperties(ns)).map((p) => p.uri)).toContain(`${ns}title`);
  });

  it('refuses a redirect to another host', async () => {
    const port = new URL(origin).port;
    expect(await failure(lookup().listProperties(`${origin}/redirect-other`))).toBe(
      `GET ${origin}/redirect-other: redirected to another host (localhost:${port}), which is not followed`,
    );
  });

  it('stops after 5 redirects', async () => {
    expect(await failure(lookup().listProperties(`${origin}/loop`))).toBe(
      `GET ${origin}/loop: too many redirects (more than 5)`,
    );
  });

  it('reports an upstream error status', async () => {
    expect(await failure(lookup().listProperties(`${origin}/missing`))).toBe(
      `GET ${origin}/missing: upstream answered 404`,
    );
  });

  it('gives up at the deadline', async () => {
    // /slow never finishes its body: an answer arrives at all only because the lookup gave up.
    expect(await failure(lookup({ timeoutMs: 200 }).listProperties(`${origin}/slow`))).toBe(
      `GET ${origin}/slow: timed out after 0.2 s`,
    );
  });

  it('aborts a body over 5 MiB, announced or not', async () => {
    for (const path of ['/huge', '/huge-declared']) {
      expect(await failure(lookup({ timeoutMs: 5000 }).listProperties(`${origin}${path}`))).toBe(
        `GET ${origin}${path}: response larger than 5 MiB`,
      );
    }
  });

  it('reports an answer that is not RDF and one that does not parse', async () => {
    expect(await failure(lookup().listProperties(`${origin}/html`))).toBe(
      `GET ${origin}/html: the answer is text/html, not an RDF syntax read here`,
    );
    expect(await failure(lookup().listProperties(`${origin}/broken`))).toMatch(
      new RegExp(`^GET ${origin}/broken: could not parse text/turtle: .+`),
    );
  });

  it('reports a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) =>
      closed.close(() => {
        resolve();
      }),
    );
    expect(await failure(lookup().listProperties(`http://127.0.0.1:${port}/ns`))).toBe(
      `GET http://127.0.0.1:${port}/ns: connection refused`,
    );
  });
});

describe('the address policy at work', () => {
  it('refuses loopback without the allow-list, before connecting', async () => {
    const before = seen.length;
    const strict = lookup({ allowedHosts: [] });
    expect(await failure(strict.listProperties(`${origin}/turtle#`))).toBe(
      `GET ${origin}/turtle#: address 127.0.0.1 is not allowed`,
    );
    expect(await failure(strict.listProperties('http://[::1]:9/ns'))).toBe(
      'GET http://[::1]:9/ns: address ::1 is not allowed',
    );
    expect(seen.length).toBe(before);
  });

  it('checks the resolved address and connects to exactly that address', async () => {
    const port = new URL(origin).port;
    const resolve = () => Promise.resolve([{ address: '127.0.0.1', family: 4 }]);
    const ns = `http://vocab.test:${port}/turtle#`;
    expect(await failure(lookup({ allowedHosts: [], resolve }).listProperties(ns))).toBe(
      `GET ${ns}: address 127.0.0.1 is not allowed`,
    );
    // Allowed by name: the request reaches the checked address with the name in the Host header (the
    // document's properties lie in the 127.0.0.1 namespace, so none is in this one).
    expect(await lookup({ allowedHosts: ['vocab.test'], resolve }).listProperties(ns)).toEqual([]);
    expect(seen.some((s) => s.host === `vocab.test:${port}`)).toBe(true);
  });

  it('refuses a host when any of its addresses is refused', async () => {
    const resolve = () =>
      Promise.resolve([
        { address: '93.184.216.34', family: 4 },
        { address: '10.0.0.7', family: 4 },
      ]);
    expect(await failure(lookup({ allowedHosts: [], resolve }).listProperties('http://mixed.test/ns'))).toBe(
      'GET http://mixed.test/ns: address 10.0.0.7 is not allowed',
    );
  });
});

describe('GET /schema/properties through the app', () => {
  it('reads an allowed local vocabulary', async () => {
    const t = await buildTestApp({ vocabularyFetchAllowedHosts: ['127.0.0.1'] });
    try {
      const ns = `${origin}/turtle#`;
      const response = await sendJson(t.app, 'GET', `/schema/properties?namespace=${encodeURIComponent(ns)}`);
      expect(body(response)).toEqual({
        meta: { status: 'SUCCESS', action: null, message: 'Your request was successful', id: null },
        payload: {
          'ArrayList<Property>': [
            { uri: `${ns}creator`, label: 'Creator' },
            { uri: `${ns}size`, label: 'size' },
            { uri: `${ns}title`, label: 'Title' },
            { uri: `${ns}unlabelled`, label: 'unlabelled' },
          ],
        },
      });
      const missing = await sendJson(
        t.app,
        'GET',
        `/schema/properties?namespace=${encodeURIComponent(`${origin}/missing`)}`,
      );
      expect(missing.statusCode).toBe(200);
      expect(body(missing)).toEqual({
        meta: {
          status: 'ERROR',
          action: null,
          message: `GET ${origin}/missing: upstream answered 404`,
          id: null,
        },
        payload: {},
      });
    } finally {
      await t.close();
    }
  });
});
