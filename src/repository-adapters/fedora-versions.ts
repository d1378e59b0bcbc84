import type { Quad } from '@rdfjs/types';
import type { LinkValue } from '../linked-data/http/link.js';
import { BadRequestError } from '../shared/errors.js';
import { httpDateToMs, sameResource } from './upstream-exchange.js';
import { FEDORA, LDP, MEMENTO } from '../linked-data/rdf/vocab.js';
import type { VersionInfo } from './repository-adapter.js';

/**
 * Memento versions of the Fedora 6/7 API: the TimeMap at `<uri>/fcr:versions`, mementos at
 * `<uri>/fcr:versions/<yyyyMMddHHmmss>`.
 */
export function timemapOf(uri: string): string {
  return `${uri.replace(/\/+$/, '')}/fcr:versions`;
}

/** Splits a memento IRI into the original resource and the memento's segment. */
export function splitMemento(rootUri: string, versionUri: string): { original: string; memento: string } {
  const match = /^(.*)\/fcr:versions\/([^/]+)$/.exec(versionUri);
  if (match?.[1] === undefined || match[2] === undefined) {
    throw new BadRequestError(`${versionUri.slice(0, 200)} is not a version (…/fcr:versions/<version>)`);
  }
  const original = sameResource(`${match[1]}/`, rootUri) ? rootUri : match[1];
  return { original, memento: match[2] };
}

/** `20260101120000` → `2026-01-01T12:00:00.000Z`; undefined for anything else. */
export function stampToIso(stamp: string): string | undefined {
  const m = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(stamp);
  if (m === null) return undefined;
  const iso = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}.000Z`;
  return Number.isNaN(Date.parse(iso)) ? undefined : iso;
}

function lastSegment(uri: string): string {
  return uri.replace(/\/+$/, '').split('/').at(-1) ?? uri;
}

/** A version label for the `Slug` header: printable ASCII as it is, anything else percent-encoded. */
export function encodeLabel(label: string): string {
  if (/\p{Cc}/u.test(label)) throw new BadRequestError('A version name cannot contain control characters');
  return label.replace(/[^\x20-\x7e]|%/g, (c) => encodeURIComponent(c));
}

export function decodeLabel(label: string): string {
  if (!label.includes('%')) return label;
  try {
    return decodeURIComponent(label);
  } catch {
    return label;
  }
}

function byTime(a: VersionInfo, b: VersionInfo): number {
  return a.time < b.time ? -1 : a.time > b.time ? 1 : a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0;
}

/** Versions from an RDF TimeMap: `ldp:contains` each memento, `memento:mementoDatetime`, `fedora:hasVersionLabel`. */
export function versionsFromRdf(timemap: string, quads: readonly Quad[]): VersionInfo[] {
  const mementos = new Set<string>();
  for (const q of quads) {
    if (
      q.predicate.value === LDP.contains &&
      sameResource(q.subject.value, timemap) &&
      q.object.termType === 'NamedNode'
    ) {
      mementos.add(q.object.value);
    }
    if (q.predicate.value === MEMENTO.mementoDatetime && q.subject.termType === 'NamedNode')
      mementos.add(q.subject.value);
  }
  const versions: VersionInfo[] = [];
  for (const uri of mementos) {
    const about = quads.filter((q) => q.subject.value === uri);
    const label = about.find((q) => q.predicate.value === FEDORA.hasVersionLabel)?.object.value;
    const datetime = about.find((q) => q.predicate.value === MEMENTO.mementoDatetime)?.object.value;
    const segment = lastSegment(uri);
    const time = isoOf(datetime) ?? stampToIso(segment) ?? '';
    versions.push({ name: label === undefined || label === '' ? segment : decodeLabel(label), time, uri });
  }
  return versions.sort(byTime);
}

/** Versions from an `application/link-format` TimeMap (`rel="memento"; datetime="…"`). */
export function versionsFromLinks(links: readonly LinkValue[], base: string): VersionInfo[] {
  const versions: VersionInfo[] = [];
  for (const link of links) {
    if (!link.rels.includes('memento')) continue;
    const uri = new URL(link.uri, base).href;
    const segment = lastSegment(uri);
    const datetime = httpDateToMs(link.params.datetime);
    const time = datetime === undefined ? (stampToIso(segment) ?? '') : new Date(datetime).toISOString();
    const label = link.params.label ?? link.params.title;
    versions.push({ name: label === undefined || label === '' ? segment : decodeLabel(label), time, uri });
  }
  return versions.sort(byTime);
}

function isoOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
