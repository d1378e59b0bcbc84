import { hash } from 'node:crypto';
import type { Quad } from 'n3';
import type { ResourceRecord } from '../store/record.js';
import type { IriMapper } from '../rdf/terms.js';
import { parseStored } from '../../linked-data/rdf/serialize.js';
import { namedNode, quad } from '../../linked-data/rdf/terms.js';
import { FEDORA, LDP, MEMENTO, NS } from '../../linked-data/rdf/vocab.js';
import type { FedoraDialect } from '../../shared/fedora-dialect.js';
import type { RepositoryStore } from '../store/repository.store.js';
import type { Preferences } from './headers.js';
import { FEDORA_6_SHAPE, type SmtShape } from '../rdf/server-managed.js';

// Moved to rdf/server-managed.ts (the search feed builds documents with them); answered from here as before.
export { FEDORA_6_SHAPE, serverManagedQuads, type SmtShape } from '../rdf/server-managed.js';

/** Weak ETag of an RDF representation: changes with every change of the resource or its children. */
export function rdfEtag(record: ResourceRecord): string {
  // One-shot hash: the same digest as createHash().update().digest(), without the stream object.
  const digest = hash('sha1', `${record.path}\n${record.revision}\n${record.lastModified}`, 'hex');
  return `W/"${digest.slice(0, 32)}"`;
}

/** Strong ETag of a binary's bytes. */
export function binaryEtag(record: ResourceRecord): string {
  return `"${(record.binary?.sha512 ?? '').slice(0, 40)}"`;
}

/** The user triples of a record, with repository IRIs as this client sees them. */
export function userQuads(record: ResourceRecord, mapper: IriMapper): Quad[] {
  return parseStored(record.triples).map((q) => mapper.mapQuad(q, 'external'));
}

/**
 * The shape of `record`'s server-managed triples in the repository's dialect; on 4.x asks the store
 * whether it has a version (`withVersions` false: a memento's state, which never names versions).
 */
export async function smtShapeOf(
  // What it needs of RepositoryDeps (context.ts imports this module: no type import back).
  deps: {
    readonly settings: { readonly dialect: FedoraDialect };
    readonly store: Pick<RepositoryStore, 'hasMementos'>;
  },
  record: ResourceRecord,
  withVersions = true,
): Promise<SmtShape> {
  switch (deps.settings.dialect) {
    case 'FEDORA_4':
      return {
        hasParent: true,
        hasVersions: withVersions && (await deps.store.hasMementos(record.path)),
      };
    case 'FEDORA_5':
      return { hasParent: false, hasVersions: false };
    case 'FEDORA_6':
      return FEDORA_6_SHAPE;
  }
}

export function containmentQuads(
  record: ResourceRecord,
  children: readonly string[],
  mapper: IriMapper,
): Quad[] {
  const s = namedNode(mapper.external(record.path));
  const p = namedNode(LDP.contains);
  return children.map((child) => quad(s, p, namedNode(mapper.external(child))));
}

/** What a GET includes, from the Prefer header, and whether every preference could be honoured. */
export interface RenderPlan {
  readonly containment: boolean;
  readonly user: boolean;
  readonly serverManaged: boolean;
  readonly inbound: boolean;
  /** Preference-Applied is sent only when all requested preferences were applied (spec 3.2). */
  readonly applied: boolean;
}

const SERVER_MANAGED = new Set<string>([FEDORA.ServerManaged, FEDORA.ServerManagedV4]);
const INBOUND = new Set<string>([FEDORA.PreferInboundReferences, FEDORA.InboundReferencesV4]);
const MINIMAL = new Set<string>([LDP.PreferMinimalContainer, LDP.PreferEmptyContainer]);

export function renderPlan(preferences: Preferences): RenderPlan {
  const plan = { containment: true, user: true, serverManaged: true, inbound: false, applied: false };
  if (preferences.returnValue !== 'representation') return plan;
  let applied = true;
  for (const uri of preferences.omit) {
    if (uri === LDP.PreferContainment) plan.containment = false;
    else if (SERVER_MANAGED.has(uri)) plan.serverManaged = false;
    else if (INBOUND.has(uri)) plan.inbound = false;
    else if (MINIMAL.has(uri)) {
      plan.user = false;
      plan.serverManaged = false;
    } else if (uri !== LDP.PreferMembership) applied = false;
  }
  for (const uri of preferences.include) {
    if (MINIMAL.has(uri)) {
      if (!preferences.include.includes(LDP.PreferContainment)) plan.containment = false;
    } else if (INBOUND.has(uri)) plan.inbound = true;
    else if (uri === LDP.PreferContainment) plan.containment = true;
    else if (SERVER_MANAGED.has(uri)) plan.serverManaged = true;
    else if (uri !== LDP.PreferMembership) applied = false;
  }
  return { ...plan, applied };
}

export function link(uri: string, rel: string, extra = ''): string {
  return `<${uri}>; rel="${rel}"${extra}`;
}

export function typeLinks(kind: 'container' | 'binary' | 'description' | 'timemap'): string[] {
  switch (kind) {
    case 'container':
      return [LDP.Resource, LDP.RDFSource, LDP.Container, LDP.BasicContainer].map((t) => link(t, 'type'));
    case 'binary':
      return [LDP.Resource, LDP.NonRDFSource].map((t) => link(t, 'type'));
    case 'description':
      return [LDP.Resource, LDP.RDFSource].map((t) => link(t, 'type'));
    case 'timemap':
      return [LDP.Resource, LDP.RDFSource, LDP.Container, MEMENTO.TimeMap].map((t) => link(t, 'type'));
  }
}

/** Memento links of a versionable resource (spec 4.1.1): it is its own TimeGate and names its TimeMap. */
export function mementoLinks(iri: string): string[] {
  return [
    link(iri, 'original timegate'),
    link(`${iri === '' ? '' : iri.replace(/\/$/, '')}/fcr:versions`, 'timemap'),
    link(MEMENTO.OriginalResource, 'type'),
    link(MEMENTO.TimeGate, 'type'),
  ];
}

/**
 * The Link headers a resource's answer carries beyond its types, by Fedora line: 4.x none (no Memento,
 * no WebAC), 5.x the Memento links and `rel="acl"`, 6.x the Memento links (fedora-api.md §1.1, §1.9).
 */
export function dialectLinks(dialect: FedoraDialect, iri: string): string[] {
  switch (dialect) {
    case 'FEDORA_4':
      return [];
    case 'FEDORA_5':
      return [...mementoLinks(iri), aclLink(iri)];
    case 'FEDORA_6':
      return mementoLinks(iri);
  }
}

/** Fedora 5.x's WebAC link: every resource names its ACL at `<uri>/fcr:acl`. */
export function aclLink(iri: string): string {
  return link(`${iri.replace(/\/$/, '')}/fcr:acl`, 'acl');
}

export const CONSTRAINED_BY = `${NS.ldp}constrainedBy`;
export const TX_ENDPOINT_REL = `${NS.tx}endpoint`;
export const TX_COMMIT_REL = `${NS.tx}commitEndpoint`;

export const ACCEPT_POST =
  'text/turtle, application/ld+json, application/n-triples, application/rdf+xml, */*';
export const ACCEPT_PATCH = 'application/sparql-update';
