import type { Quad } from '@rdfjs/types';
import { BadRequestError } from '../shared/errors.js';
import { readRdf } from './upstream-exchange.js';
import { splitMemento, timemapOf } from './fedora-versions.js';
import { RDF_ACCEPT } from '../linked-data/rdf/media-types.js';
import { FEDORA } from '../linked-data/rdf/vocab.js';
import type { VersionFacet, VersionInfo } from './repository-adapter.js';
import { discard, type RepositoryHttpClient } from './repository-http-client.js';

/**
 * Fedora 4.x labelled versions (`fedora-api.md` §1.7, "4.x"; CAP's protocol): `POST <uri>/fcr:versions`
 * with `Slug: <label>` creates one, `GET <uri>/fcr:versions` lists `fedora:hasVersion` with
 * `fedora:hasVersionLabel` and `fedora:created` (404 when never versioned), `PATCH <uri>/fcr:versions/<label>`
 * reverts to one, `DELETE` of the same URL deletes it. A version's IRI is always the label form, which
 * Fedora 4 resolves whatever node id it lists.
 */

/** Characters Fedora 4 refuses in a label (ModeShape's version label rules). */
const FORBIDDEN = /[~#@*+%{}<>[\]|"^]/;

/** A label Fedora 4 accepts, or a BadRequestError saying why not. */
export function checkedLabel(label: string): string {
  if (FORBIDDEN.test(label))
    throw new BadRequestError(
      `Fedora 4 refuses this version name: it may not contain any of ~ # @ * + % { } < > [ ] | " ^`,
    );
  if (!/^[\x20-\x7e]+$/.test(label))
    throw new BadRequestError('Fedora 4 refuses this version name: only printable ASCII is kept in a label');
  // Slashes and dot-only labels could not name the version in a URL confinement accepts.
  if (/[/\\]/.test(label) || /^\.+$/.test(label))
    throw new BadRequestError('A version name cannot contain / or \\, nor be only dots');
  if (/^\d+$/.test(label) || /\s\d+$/.test(label))
    throw new BadRequestError('Fedora 4 refuses this version name: it may not be or end in a number');
  return label;
}

/** The label given to a version created without a name: `version-<yyyyMMddHHmmss>` (UTC). */
export function generatedLabel(now = new Date()): string {
  return `version-${now.toISOString().replace(/[-:T]/g, '').slice(0, 14)}`;
}

/** `<uri>/fcr:versions/<label>`, the label percent-encoded as one segment. */
export function labelUri(timemap: string, label: string): string {
  return `${timemap}/${encodeURIComponent(label)}`;
}

/** Versions from a Fedora 4 `fcr:versions` answer, oldest first. */
export function versionsFromLabels(timemap: string, quads: readonly Quad[]): VersionInfo[] {
  const listed = new Set(
    quads
      .filter((q) => q.predicate.value === FEDORA.hasVersion && q.object.termType === 'NamedNode')
      .map((q) => q.object.value),
  );
  const versions: VersionInfo[] = [];
  for (const version of listed) {
    const about = (predicate: string) =>
      quads.find((q) => q.subject.value === version && q.predicate.value === predicate)?.object.value;
    const label = about(FEDORA.hasVersionLabel);
    const created = Date.parse(about(FEDORA.created) ?? '');
    versions.push({
      name: label ?? version.split('/').at(-1) ?? version,
      time: Number.isNaN(created) ? '' : new Date(created).toISOString(),
      uri: label === undefined ? version : labelUri(timemap, label),
    });
  }
  return versions.sort((a, b) => (a.time < b.time ? -1 : a.time > b.time ? 1 : a.uri < b.uri ? -1 : 1));
}

export class FedoraLabelVersions implements VersionFacet {
  constructor(private readonly client: RepositoryHttpClient) {}

  async list(uri: string): Promise<VersionInfo[]> {
    const timemap = this.client.confine(timemapOf(this.client.confine(uri)));
    const response = await this.client.expectOk(
      { method: 'GET', uri: timemap, headers: { accept: RDF_ACCEPT } },
      [404],
    );
    if (response.status === 404) {
      // Never versioned: Fedora 4 has no fcr:versions for it yet.
      await discard(response);
      return [];
    }
    return versionsFromLabels(timemap, await readRdf(this.client, response));
  }

  async create(uri: string, label: string): Promise<VersionInfo> {
    const target = this.client.confine(uri);
    const timemap = this.client.confine(timemapOf(target));
    const trimmed = label.trim();
    const name = trimmed === '' ? generatedLabel() : checkedLabel(trimmed);
    await discard(await this.client.expectOk({ method: 'POST', uri: timemap, headers: { slug: name } }));
    // Fedora 4 answers no time: the listing has the version's fedora:created.
    const listed = (await this.list(target)).find((v) => v.name === name);
    return listed ?? { name, time: new Date().toISOString(), uri: labelUri(timemap, name) };
  }

  async restore(versionUri: string): Promise<string> {
    const version = this.client.confine(versionUri);
    const { original } = splitMemento(this.client.rootUri, version);
    await discard(await this.client.expectOk({ method: 'PATCH', uri: version }));
    return this.client.confine(original);
  }

  async delete(versionUri: string): Promise<void> {
    const version = this.client.confine(versionUri);
    splitMemento(this.client.rootUri, version);
    await discard(await this.client.expectOk({ method: 'DELETE', uri: version }));
  }
}
