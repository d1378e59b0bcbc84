import type { Quad } from '@rdfjs/types';
import { DESCRIBE_ACCEPT, createdUri, hasTypeLink, httpDateToMs, readRdf } from './upstream-exchange.js';
import { dispositionFilename, formatDisposition } from '../linked-data/http/content-disposition.js';
import {
  encodeLabel,
  splitMemento,
  stampToIso,
  timemapOf,
  versionsFromLinks,
  versionsFromRdf,
} from './fedora-versions.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';
import { isServerManaged } from '../linked-data/rdf/server-managed.js';
import { writeTurtle } from '../linked-data/rdf/serialize.js';
import { isRdfMediaType, RDF_ACCEPT, UPSTREAM_ANSWER } from '../linked-data/rdf/media-types.js';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { LDP } from '../linked-data/rdf/vocab.js';
import { parseLinks } from '../linked-data/http/link.js';
import type { VersionFacet, VersionInfo } from './repository-adapter.js';
import { discard, type RepositoryHttpClient } from './repository-http-client.js';

export const PREFER_NO_CONTAINMENT = `return=representation; omit="${LDP.PreferContainment}"`;
const PREFER_LENIENT = 'handling=lenient; received="minimal"';

/**
 * How a Fedora line mints mementos. Fedora 6/7 (and the embedded repository): a label goes as `Slug`.
 * Fedora 5.x answers 400 to any `Slug` (the label is lost; a version is named by its memento's segment)
 * and 409 to a second memento within the same second.
 */
export interface MementoOptions {
  readonly sendsLabel: boolean;
  readonly retriesSameSecond: boolean;
}

export const FEDORA_6_MEMENTOS: MementoOptions = { sendsLabel: true, retriesSameSecond: false };
export const FEDORA_5_MEMENTOS: MementoOptions = { sendsLabel: false, retriesSameSecond: true };

/** Waits until the next whole second has begun (memento ids are `yyyyMMddHHmmss`). */
function nextSecond(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 5));
}

/** The version facet of the Fedora adapter: mementos under `<uri>/fcr:versions` (Fedora 5.x, 6.x, 7.x). */
export class FedoraVersions implements VersionFacet {
  constructor(
    private readonly client: RepositoryHttpClient,
    private readonly options: MementoOptions = FEDORA_6_MEMENTOS,
  ) {}

  async list(uri: string): Promise<VersionInfo[]> {
    const target = this.client.confine(uri);
    const timemap = this.client.confine(timemapOf(target));
    const response = await this.client.expectOk({
      method: 'GET',
      uri: timemap,
      headers: { accept: `${RDF_ACCEPT}, application/link-format;q=0.4` },
    });
    if (mediaTypeOf(response.header('content-type')) === 'application/link-format') {
      const text = await this.client.text(response);
      return versionsFromLinks(parseLinks(text.replace(/\r?\n/g, ' '), { lenient: true }), timemap);
    }
    return versionsFromRdf(timemap, await readRdf(this.client, response));
  }

  async create(uri: string, label: string): Promise<VersionInfo> {
    const target = this.client.confine(uri);
    const timemap = this.client.confine(timemapOf(target));
    const trimmed = this.options.sendsLabel ? label.trim() : '';
    const request = {
      method: 'POST',
      uri: timemap,
      headers: trimmed === '' ? {} : { slug: encodeLabel(trimmed) },
    } as const;
    let response = await this.client.send(request);
    if (response.status === 409 && this.options.retriesSameSecond) {
      // Fedora 5 mints one memento per second: the next second gets a fresh id.
      await discard(response);
      await nextSecond();
      response = await this.client.send(request);
    }
    if (response.status < 200 || response.status >= 300) throw await this.client.fail(response);
    const location = await createdUri(this.client, response, true);
    const segment = location.replace(/\/+$/, '').split('/').at(-1) ?? location;
    const datetime = httpDateToMs(response.header('memento-datetime'));
    const time =
      datetime === undefined
        ? (stampToIso(segment) ?? new Date().toISOString())
        : new Date(datetime).toISOString();
    return { name: trimmed === '' ? segment : trimmed, time, uri: location };
  }

  async restore(versionUri: string): Promise<string> {
    const memento = this.client.confine(versionUri);
    const { original } = splitMemento(this.client.rootUri, memento);
    const target = this.client.confine(original);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: memento,
      headers: { accept: DESCRIBE_ACCEPT, prefer: PREFER_NO_CONTAINMENT },
    });
    if (
      hasTypeLink(response, LDP.NonRDFSource) ||
      !isRdfMediaType(mediaTypeOf(response.header('content-type')), UPSTREAM_ANSWER)
    ) {
      // A binary's memento: its bytes are written back, streamed.
      const disposition = response.header('content-disposition');
      const filename = dispositionFilename(disposition);
      const written = await this.client.expectOk({
        method: 'PUT',
        uri: target,
        headers: {
          'content-type': response.header('content-type') ?? 'application/octet-stream',
          ...(filename === undefined ? {} : { 'content-disposition': formatDisposition(filename) }),
        },
        body: response.body,
      });
      await discard(written);
      return target;
    }
    const quads = (await readRdf(this.client, response))
      .filter((q) => !isServerManaged(q.predicate.value, q.object))
      .map((q) => rebase(q, memento, target));
    const written = await this.client.expectOk({
      method: 'PUT',
      uri: target,
      headers: { 'content-type': 'text/turtle', prefer: PREFER_LENIENT },
      body: writeTurtle(quads),
    });
    await discard(written);
    return target;
  }

  async delete(versionUri: string): Promise<void> {
    const memento = this.client.confine(versionUri);
    splitMemento(this.client.rootUri, memento);
    const response = await this.client.send({ method: 'DELETE', uri: memento });
    if (response.status >= 200 && response.status < 300) {
      await discard(response);
      return;
    }
    throw await this.client.fail(
      response,
      response.status === 405 ? 'this repository does not allow deleting versions' : undefined,
    );
  }
}

/** Statements read from a memento are about the original (some servers name the memento instead). */
function rebase(q: Quad, from: string, to: string): Quad {
  const swap = (term: Quad['subject'] | Quad['object']): Quad['subject'] | Quad['object'] => {
    if (term.termType !== 'NamedNode') return term;
    if (term.value === from) return namedNode(to);
    if (term.value.startsWith(`${from}#`)) return namedNode(to + term.value.slice(from.length));
    return term;
  };
  return quad(swap(q.subject) as Quad['subject'], q.predicate, swap(q.object));
}
