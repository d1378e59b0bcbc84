/** Namespaces and terms of the Fedora 6 HTTP API that the embedded repository speaks. */
export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  ldp: 'http://www.w3.org/ns/ldp#',
  fedora: 'http://fedora.info/definitions/v4/repository#',
  fcrepo: 'http://fedora.info/definitions/fcrepo#',
  memento: 'http://mementoweb.org/ns#',
  premis: 'http://www.loc.gov/premis/rdf/v1#',
  ebucore: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#',
  iana: 'http://www.iana.org/assignments/relation/',
  dcterms: 'http://purl.org/dc/terms/',
  dc: 'http://purl.org/dc/elements/1.1/',
  oa: 'http://www.w3.org/ns/oa#',
  tx: 'http://fedora.info/definitions/v4/transaction#',
} as const;

export const RDF_TYPE = `${NS.rdf}type`;
export const LDP = {
  Resource: `${NS.ldp}Resource`,
  RDFSource: `${NS.ldp}RDFSource`,
  NonRDFSource: `${NS.ldp}NonRDFSource`,
  Container: `${NS.ldp}Container`,
  BasicContainer: `${NS.ldp}BasicContainer`,
  DirectContainer: `${NS.ldp}DirectContainer`,
  IndirectContainer: `${NS.ldp}IndirectContainer`,
  contains: `${NS.ldp}contains`,
  constrainedBy: `${NS.ldp}constrainedBy`,
  PreferContainment: `${NS.ldp}PreferContainment`,
  PreferMembership: `${NS.ldp}PreferMembership`,
  PreferMinimalContainer: `${NS.ldp}PreferMinimalContainer`,
  PreferEmptyContainer: `${NS.ldp}PreferEmptyContainer`,
} as const;

export const FEDORA = {
  Resource: `${NS.fedora}Resource`,
  Container: `${NS.fedora}Container`,
  Binary: `${NS.fedora}Binary`,
  RepositoryRoot: `${NS.fedora}RepositoryRoot`,
  Tombstone: `${NS.fedora}Tombstone`,
  created: `${NS.fedora}created`,
  createdBy: `${NS.fedora}createdBy`,
  lastModified: `${NS.fedora}lastModified`,
  lastModifiedBy: `${NS.fedora}lastModifiedBy`,
  hasParent: `${NS.fedora}hasParent`,
  hasFixityService: `${NS.fedora}hasFixityService`,
  hasTransactionProvider: `${NS.fedora}hasTransactionProvider`,
  hasVersionLabel: `${NS.fedora}hasVersionLabel`,
  ServerManagedV4: `${NS.fedora}ServerManaged`,
  InboundReferencesV4: `${NS.fedora}InboundReferences`,
  ServerManaged: `${NS.fcrepo}ServerManaged`,
  PreferInboundReferences: `${NS.fcrepo}PreferInboundReferences`,
  ExternalContent: `${NS.fcrepo}ExternalContent`,
  ArchivalGroup: `${NS.fedora}ArchivalGroup`,
} as const;

export const MEMENTO = {
  OriginalResource: `${NS.memento}OriginalResource`,
  TimeGate: `${NS.memento}TimeGate`,
  TimeMap: `${NS.memento}TimeMap`,
  Memento: `${NS.memento}Memento`,
  mementoDatetime: `${NS.memento}mementoDatetime`,
} as const;

export const PREMIS = {
  hasSize: `${NS.premis}hasSize`,
  hasMessageDigest: `${NS.premis}hasMessageDigest`,
  hasFixity: `${NS.premis}hasFixity`,
  hasEventOutcome: `${NS.premis}hasEventOutcome`,
  Fixity: `${NS.premis}Fixity`,
  EventOutcomeDetail: `${NS.premis}EventOutcomeDetail`,
} as const;

export const EBUCORE = {
  filename: `${NS.ebucore}filename`,
  hasMimeType: `${NS.ebucore}hasMimeType`,
} as const;

export const XSD = {
  dateTime: `${NS.xsd}dateTime`,
  long: `${NS.xsd}long`,
  string: `${NS.xsd}string`,
} as const;

export const DESCRIBEDBY = `${NS.iana}describedby`;
export const DESCRIBES = `${NS.iana}describes`;

/** Where clients read why a request broke a rule (Link rel="…ldp#constrainedBy"); served by the plugin. */
export const CONSTRAINTS_PATH = 'fcr:constraints';

/** Prefixes used when writing Turtle, so responses look like Fedora's. */
export const TURTLE_PREFIXES: Readonly<Record<string, string>> = {
  rdf: NS.rdf,
  xsd: NS.xsd,
  ldp: NS.ldp,
  fedora: NS.fedora,
  premis: NS.premis,
  ebucore: NS.ebucore,
  memento: NS.memento,
  dcterms: NS.dcterms,
  dc: NS.dc,
};

const RESERVED_TYPE_NAMESPACES = [NS.ldp, NS.fedora, NS.fcrepo, NS.memento];
const MANAGED_NAMESPACES = [NS.fedora, NS.fcrepo, NS.memento];
const MANAGED_PREDICATES = new Set<string>([
  LDP.contains,
  `${NS.ldp}member`,
  `${NS.ldp}membershipResource`,
  `${NS.ldp}hasMemberRelation`,
  `${NS.ldp}isMemberOfRelation`,
  `${NS.ldp}insertedContentRelation`,
  PREMIS.hasMessageDigest,
  PREMIS.hasFixity,
  PREMIS.hasSize,
  EBUCORE.filename,
  EBUCORE.hasMimeType,
  DESCRIBEDBY,
  DESCRIBES,
]);

/**
 * Whether a statement is server-managed (Fedora: SMTs, interaction-model types, containment): clients may
 * not write it; doing so is a 409 with a constrainedBy link.
 */
export function isServerManaged(predicate: string, object: { termType: string; value: string }): boolean {
  if (predicate === RDF_TYPE) {
    return (
      object.termType === 'NamedNode' && RESERVED_TYPE_NAMESPACES.some((ns) => object.value.startsWith(ns))
    );
  }
  return MANAGED_PREDICATES.has(predicate) || MANAGED_NAMESPACES.some((ns) => predicate.startsWith(ns));
}
