import fs from 'node:fs';
import path from 'node:path';
import N3 from 'n3';
import { describe, expect, it } from 'vitest';
import { BadRequestError } from '../shared/errors.js';
import { dispositionFilename, formatDisposition } from '../linked-data/http/content-disposition.js';
import { derivedParent, httpDateToMs } from './upstream-exchange.js';
import { fixityFromRdf } from './fedora-fixity.js';
import { checkedLabel, generatedLabel, labelUri, versionsFromLabels } from './fedora-label-versions.js';
import { UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { parseRdf } from '../linked-data/rdf/parse.js';
import {
  decodeLabel,
  encodeLabel,
  splitMemento,
  stampToIso,
  timemapOf,
  versionsFromLinks,
  versionsFromRdf,
} from './fedora-versions.js';
import { parseLinks } from '../linked-data/http/link.js';

const parse = (turtle: string, base = 'http://repo.example/rest/bin') =>
  new N3.Parser({ baseIRI: base }).parse(turtle);

describe('fixityFromRdf', () => {
  it('reads a Fedora 6 answer: outcome, the SHA-512 of several digests, the size', () => {
    const quads = parse(`
      @prefix premis: <http://www.loc.gov/premis/rdf/v1#> .
      <http://repo.example/rest/bin> premis:hasFixity <#f1> .
      <#f1> a premis:Fixity, premis:EventOutcomeDetail ;
        premis:hasEventOutcome "SUCCESS" ;
        premis:hasMessageDigest <urn:sha-256:abc>, <urn:sha-512:def>, <urn:md5:000> ;
        premis:hasSize "1234"^^<http://www.w3.org/2001/XMLSchema#long> .`);
    expect(fixityFromRdf(quads)).toEqual({
      status: 'SUCCESS',
      messageDigest: 'urn:sha-512:def',
      size: '1234',
    });
  });

  it('reads Fedora 4 outcomes (BAD_CHECKSUM, BAD_SIZE) and sha1 digests', () => {
    const bad = (outcome: string) =>
      parse(`@prefix premis: <http://www.loc.gov/premis/rdf/v1#> .
        <#fixity/1> premis:hasEventOutcome "${outcome}" ; premis:hasMessageDigest <urn:sha1:aa> ; premis:hasSize "9" .`);
    expect(fixityFromRdf(bad('BAD_CHECKSUM'))).toEqual({
      status: 'BAD_CHECKSUM',
      messageDigest: 'urn:sha1:aa',
      size: '9',
    });
    expect(fixityFromRdf(bad('BAD_SIZE'))).toEqual({
      status: 'BAD_SIZE',
      messageDigest: 'urn:sha1:aa',
      size: '9',
    });
  });

  it('reads PREMIS 3 (Fedora 7) statements', () => {
    const quads = parse(`@prefix premis3: <http://www.loc.gov/premis/rdf/v3/> .
      <#e> premis3:outcome <http://id.loc.gov/vocabulary/preservation/eventOutcome/suc> ;
        premis3:hasMessageDigest <urn:sha-512:fff> ; premis3:size "12" .`);
    expect(fixityFromRdf(quads)).toEqual({ status: 'SUCCESS', messageDigest: 'urn:sha-512:fff', size: '12' });
  });

  it('lets a failure win over a success, and answers nothing without an outcome', () => {
    const quads = parse(`@prefix premis: <http://www.loc.gov/premis/rdf/v1#> .
      <#a> premis:hasEventOutcome "SUCCESS" . <#b> premis:hasEventOutcome "BAD_CHECKSUM" .`);
    expect(fixityFromRdf(quads)?.status).toBe('BAD_CHECKSUM');
    expect(fixityFromRdf(parse('<#a> <http://example.org/p> "x" .'))).toBeUndefined();
  });
});

describe('versions', () => {
  it('reads an RDF TimeMap with labels and datetimes, oldest first', () => {
    const timemap = 'http://repo.example/rest/a/fcr:versions';
    const quads = parse(
      `@prefix ldp: <http://www.w3.org/ns/ldp#> . @prefix memento: <http://mementoweb.org/ns#> .
       @prefix fedora: <http://fedora.info/definitions/v4/repository#> .
       @prefix xsd: <http://www.w3.org/2001/XMLSchema#> .
       <${timemap}> ldp:contains <${timemap}/20260102030405>, <${timemap}/20250101000000> .
       <${timemap}/20260102030405> memento:mementoDatetime "2026-01-02T03:04:05Z"^^xsd:dateTime ;
         fedora:hasVersionLabel "r%C3%A9vis%C3%A9" .
       <${timemap}/20250101000000> memento:mementoDatetime "2025-01-01T00:00:00.000Z"^^xsd:dateTime .
       <${timemap}/20240101000000> memento:mementoDatetime "2024-01-01T00:00:00.000Z"^^xsd:dateTime .`,
      timemap,
    );
    const versions = versionsFromRdf(timemap, quads);
    expect(versions.map((v) => v.name)).toEqual(['20240101000000', '20250101000000', 'révisé']);
    expect(versions.map((v) => v.time)).toEqual([
      '2024-01-01T00:00:00.000Z',
      '2025-01-01T00:00:00.000Z',
      '2026-01-02T03:04:05.000Z',
    ]);
    expect(versions[2]?.uri).toBe(`${timemap}/20260102030405`);
  });

  it('reads a link-format TimeMap (Fedora 6 Accept: application/link-format)', () => {
    const body = [
      '<http://repo.example/rest/a>;rel="original timegate"',
      '<http://repo.example/rest/a/fcr:versions>;rel="self";type="application/link-format";from="Tue, 01 Jan 2025 00:00:00 GMT"',
      '<http://repo.example/rest/a/fcr:versions/20250101000000>;rel="memento";datetime="Wed, 01 Jan 2025 00:00:00 GMT"',
      '<http://repo.example/rest/a/fcr:versions/20240101000000>;rel="memento";datetime="Mon, 01 Jan 2024 00:00:00 GMT"',
    ].join(',\n');
    const versions = versionsFromLinks(
      parseLinks(body.replace(/\n/g, ' '), { lenient: true }),
      'http://repo.example/rest/a/fcr:versions',
    );
    expect(versions).toEqual([
      {
        name: '20240101000000',
        time: '2024-01-01T00:00:00.000Z',
        uri: 'http://repo.example/rest/a/fcr:versions/20240101000000',
      },
      {
        name: '20250101000000',
        time: '2025-01-01T00:00:00.000Z',
        uri: 'http://repo.example/rest/a/fcr:versions/20250101000000',
      },
    ]);
  });

  it('splits a memento IRI and refuses anything else', () => {
    const root = 'http://repo.example/rest/';
    expect(splitMemento(root, 'http://repo.example/rest/a/b/fcr:versions/20250101000000')).toEqual({
      original: 'http://repo.example/rest/a/b',
      memento: '20250101000000',
    });
    expect(splitMemento(root, 'http://repo.example/rest/fcr:versions/20250101000000').original).toBe(root);
    expect(() => splitMemento(root, 'http://repo.example/rest/a')).toThrow(BadRequestError);
    expect(() => splitMemento(root, 'http://repo.example/rest/a/fcr:versions')).toThrow(BadRequestError);
    expect(timemapOf('http://repo.example/rest/a/')).toBe('http://repo.example/rest/a/fcr:versions');
  });

  it('converts memento stamps and encodes labels for the Slug header', () => {
    expect(stampToIso('20250131235959')).toBe('2025-01-31T23:59:59.000Z');
    expect(stampToIso('2025')).toBeUndefined();
    expect(encodeLabel('v1 final')).toBe('v1 final');
    expect(encodeLabel('révisé 100%')).toBe('r%C3%A9vis%C3%A9 100%25');
    expect(decodeLabel(encodeLabel('révisé 100%'))).toBe('révisé 100%');
    expect(decodeLabel('50%off')).toBe('50%off');
    expect(() => encodeLabel('a\nb')).toThrow(BadRequestError);
  });
});

describe('Content-Disposition', () => {
  it.each([
    ['report.pdf', 'attachment; filename="report.pdf"'],
    [
      'Été résumé.txt',
      `attachment; filename="_t_ r_sum_.txt"; filename*=UTF-8''%C3%89t%C3%A9%20r%C3%A9sum%C3%A9.txt`,
    ],
    ['say "hi".txt', `attachment; filename="say _hi_.txt"; filename*=UTF-8''say%20%22hi%22.txt`],
    ["it's (1).txt", `attachment; filename="it's (1).txt"`],
    ['a\r\nb.txt', 'attachment; filename="ab.txt"'],
  ])('writes %j per RFC 6266/5987 and reads it back', (filename, header) => {
    expect(formatDisposition(filename)).toBe(header);
    expect(dispositionFilename(header)).toBe(filename.replace(/[\r\n]/g, ''));
  });

  it('reads the forms servers send', () => {
    expect(dispositionFilename('attachment; filename="a \\"b\\".txt"; size=3')).toBe('a "b".txt');
    expect(dispositionFilename('inline; filename=plain.txt')).toBe('plain.txt');
    expect(dispositionFilename('attachment; filename*=utf-8\'\'%E2%82%AC.txt; filename="_.txt"')).toBe(
      '€.txt',
    );
    expect(dispositionFilename('attachment')).toBeUndefined();
    expect(dispositionFilename(undefined)).toBeUndefined();
  });
});

describe('helpers', () => {
  it('derives parents from paths', () => {
    const root = 'http://repo.example/rest/';
    expect(derivedParent(root, root, false)).toBeUndefined();
    expect(derivedParent(root, 'http://repo.example/rest', false)).toBeUndefined();
    expect(derivedParent(root, 'http://repo.example/rest/a', false)).toBe(root);
    expect(derivedParent(root, 'http://repo.example/rest/a/b', false)).toBe('http://repo.example/rest/a');
    expect(derivedParent('http://css.example/', 'http://css.example/c1/d/', true)).toBe(
      'http://css.example/c1/',
    );
    expect(derivedParent('http://css.example/', 'http://css.example/c1/', true)).toBe('http://css.example/');
  });

  it('reads only real HTTP dates', () => {
    expect(httpDateToMs('Wed, 01 Jan 2025 00:00:00 GMT')).toBe(Date.UTC(2025, 0, 1));
    expect(httpDateToMs('0')).toBeUndefined();
    expect(httpDateToMs('-1')).toBeUndefined();
    expect(httpDateToMs(undefined)).toBeUndefined();
  });
});

describe('Fedora 4 labelled versions', () => {
  // A copy of ../shared/fixtures/fedora4/versions.rdf.xml: real 4.x output (CAP's mock).
  const FIXTURE = path.resolve(import.meta.dirname, '../../test/fixtures/fedora4/versions.rdf.xml');
  const CONTAINER = 'http://localhost:9100/mock/fcrepo/rest/path/to/container';

  it('reads the fixture: two versions by label, fedora:created as the time, oldest first', async () => {
    const quads = await parseRdf(
      fs.readFileSync(FIXTURE, 'utf8'),
      'application/rdf+xml',
      UPSTREAM_ANSWER,
      `${CONTAINER}/fcr:versions`,
    );
    expect(versionsFromLabels(`${CONTAINER}/fcr:versions`, quads)).toEqual([
      {
        name: 'TestVersion1',
        time: '2018-03-21T19:43:34.573Z',
        uri: `${CONTAINER}/fcr:versions/TestVersion1`,
      },
      {
        name: 'TestVersion2',
        time: '2018-03-21T19:44:48.852Z',
        uri: `${CONTAINER}/fcr:versions/TestVersion2`,
      },
    ]);
  });

  it('names a version by its label IRI (a listed node id is not kept) and checks labels as 4.x does', () => {
    const quads = parse(`
      @prefix fedora: <http://fedora.info/definitions/v4/repository#> .
      <http://r/rest/a> fedora:hasVersion <http://r/rest/a/fcr:versions/4f1c-node> , <http://r/rest/a/fcr:versions/nolabel> .
      <http://r/rest/a/fcr:versions/4f1c-node> fedora:hasVersionLabel "first draft" .`);
    expect(versionsFromLabels('http://r/rest/a/fcr:versions', quads)).toEqual([
      { name: 'first draft', time: '', uri: 'http://r/rest/a/fcr:versions/first%20draft' },
      { name: 'nolabel', time: '', uri: 'http://r/rest/a/fcr:versions/nolabel' },
    ]);
    expect(labelUri('http://r/rest/a/fcr:versions', 'a b:c')).toBe('http://r/rest/a/fcr:versions/a%20b%3Ac');
    expect(generatedLabel(new Date('2026-11-23T04:05:06.789Z'))).toBe('version-20261123040506');
    expect(checkedLabel('release 1.0 (final)')).toBe('release 1.0 (final)');
    for (const bad of [
      'a~b',
      'a@b',
      'a*b',
      'a+b',
      '{x}',
      '<x>',
      '[x]',
      'a|b',
      'a"b',
      'a^b',
      '123',
      'v 12',
      'tab\tx',
      'a/b',
      'a\\b',
      '..',
    ])
      expect(() => checkedLabel(bad), bad).toThrow(BadRequestError);
  });
});
