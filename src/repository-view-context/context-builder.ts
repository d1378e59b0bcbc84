import type { Quad } from '@rdfjs/types';
import type {
  RepositoryFeatures,
  ResourceDescription,
  VersionInfo,
} from '../repository-adapters/repository-adapter.js';
import { toWireTriple, type WireTriple } from './triple-format.js';
import { DC, DCTERMS, EBUCORE, FEDORA, LDP, RDF_TYPE, RDFS } from '../linked-data/rdf/vocab.js';

const NAME_PREDICATES = [RDFS.label, DC.title, DCTERMS.title];
/** Structural triples: shown as parent, children and versions, not as properties (nor as metadata). */
export const STRUCTURAL = new Set<string>([
  FEDORA.hasParent,
  LDP.contains,
  FEDORA.hasVersions,
  FEDORA.hasVersion,
]);

export interface TransactionDetails {
  token: string;
  expiration: number;
}

export interface VersionJson {
  name: string;
  time: string;
  triple: WireTriple;
}

/** A step of a context's breadcrumbs: a container above it and its name. */
export interface Ancestor {
  contextUri: string;
  name: string;
}

/**
 * RepositoryViewContext of interface §2, with the field order of the interface; `ancestors` (issue 28)
 * follows them.
 */
export interface RepositoryViewContext {
  name: string | null;
  triple: WireTriple | null;
  parent: WireTriple | null;
  properties: WireTriple[];
  metadata: WireTriple[];
  children: RepositoryViewContext[];
  versions: VersionJson[];
  version: string | null;
  transactionDetails: TransactionDetails | null;
  features: RepositoryFeatures;
  resource: boolean;
  isVersion: boolean;
  hasParent: boolean;
  /**
   * The containers from the view's root down to the parent, named (DECISIONS.md §12); empty for the
   * root and for a listed child. Filled in by the service from the index (context-names.ts).
   */
  ancestors: Ancestor[];
}

export interface ContextInput {
  readonly description: ResourceDescription;
  readonly isRoot: boolean;
  readonly metadataPrefixes: readonly string[];
  readonly features: RepositoryFeatures;
  readonly versions: readonly VersionInfo[];
  readonly transactionDetails?: TransactionDetails | undefined;
  /** For a version: its label as the repository lists it (else the memento's address segment is used). */
  readonly versionLabel?: string | undefined;
}

/** The memento label of a version URI (`…/fcr:versions/<label>`), else undefined. */
export function versionLabelOf(uri: string): string | undefined {
  const match = /\/fcr:versions\/([^/]+)$/.exec(uri);
  return match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
}

/**
 * Builds a context (DECISIONS.md §7): each triple goes to exactly one of metadata or properties. The
 * children's names and kinds and the ancestors come from the index, not from the repository: the
 * service adds them (context-names.ts).
 */
export function buildContext(input: ContextInput): RepositoryViewContext {
  const { description, features } = input;
  const uri = description.uri;
  const own = description.quads.filter((q) => !STRUCTURAL.has(q.predicate.value));
  const isMetadata = (q: Quad) =>
    input.metadataPrefixes.some((prefix) => q.predicate.value.startsWith(prefix));
  const segment = versionLabelOf(uri);
  const version = segment === undefined ? null : (input.versionLabel ?? segment);
  const parentUri = version === null ? description.parent : uri.replace(/\/fcr:versions\/[^/]+$/, '');
  return {
    name: nameOf(input, version),
    triple: {
      subject: uri,
      predicate: RDF_TYPE,
      object: description.isBinary ? FEDORA.Binary : FEDORA.Container,
    },
    parent: parentUri === undefined ? null : { subject: uri, predicate: FEDORA.hasParent, object: parentUri },
    properties: own.filter((q) => !isMetadata(q)).map(toWireTriple),
    metadata: own.filter(isMetadata).map(toWireTriple),
    children: description.children.map((child) => childContext(uri, child, features)),
    versions: input.versions.map((v) => ({
      name: v.name,
      time: v.time,
      triple: { subject: `${uri}/fcr:versions`, predicate: FEDORA.hasVersion, object: v.uri },
    })),
    version,
    transactionDetails: input.transactionDetails ?? null,
    features,
    resource: description.isBinary,
    isVersion: version !== null,
    hasParent: parentUri !== undefined,
    ancestors: [],
  };
}

function nameOf(input: ContextInput, version: string | null): string {
  const { description } = input;
  // A memento's triples are about the original resource, not about the memento's own address.
  const subject = version === null ? description.uri : description.uri.replace(/\/fcr:versions\/[^/]+$/, '');
  const about = description.quads.filter(
    (q) => q.subject.value === subject && q.object.termType === 'Literal',
  );
  const predicates = description.isBinary ? [...NAME_PREDICATES, EBUCORE.filename] : NAME_PREDICATES;
  let name = input.isRoot ? 'Root' : description.uri;
  for (const predicate of predicates) {
    const found = about.find((q) => q.predicate.value === predicate);
    if (found !== undefined) {
      name = found.object.value;
      break;
    }
  }
  return version === null ? name : `${name} (${version})`;
}

function childContext(parent: string, child: string, features: RepositoryFeatures): RepositoryViewContext {
  return {
    name: null,
    triple: { subject: parent, predicate: LDP.contains, object: child },
    parent: null,
    properties: [],
    metadata: [],
    children: [],
    versions: [],
    version: null,
    transactionDetails: null,
    features,
    resource: false,
    isVersion: false,
    hasParent: false,
    ancestors: [],
  };
}

/** The `ldp:contains` triples of a context, for GET /children. */
export function childTriples(context: RepositoryViewContext): WireTriple[] {
  return context.children.flatMap((child) => (child.triple === null ? [] : [child.triple]));
}
