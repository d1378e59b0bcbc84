/**
 * Every namespace and term the service uses, in one place: the embedded repository, the adapters, the
 * context builder and the vocabulary reader all name RDF terms from here. Term tables hold full IRIs.
 */
export const NS = {
  rdf: 'http://www.w3.org/1999/02/22-rdf-syntax-ns#',
  rdfs: 'http://www.w3.org/2000/01/rdf-schema#',
  owl: 'http://www.w3.org/2002/07/owl#',
  xsd: 'http://www.w3.org/2001/XMLSchema#',
  ldp: 'http://www.w3.org/ns/ldp#',
  fedora: 'http://fedora.info/definitions/v4/repository#',
  fcrepo: 'http://fedora.info/definitions/fcrepo#',
  memento: 'http://mementoweb.org/ns#',
  premis: 'http://www.loc.gov/premis/rdf/v1#',
  premis3: 'http://www.loc.gov/premis/rdf/v3/',
  ebucore: 'http://www.ebu.ch/metadata/ontologies/ebucore/ebucore#',
  iana: 'http://www.iana.org/assignments/relation/',
  dcterms: 'http://purl.org/dc/terms/',
  dc: 'http://purl.org/dc/elements/1.1/',
  oa: 'http://www.w3.org/ns/oa#',
  tx: 'http://fedora.info/definitions/v4/transaction#',
} as const;

export const RDF_TYPE = `${NS.rdf}type`;
export const RDF_LANG_STRING = `${NS.rdf}langString`;

export const RDFS = {
  label: `${NS.rdfs}label`,
  domain: `${NS.rdfs}domain`,
  range: `${NS.rdfs}range`,
  subPropertyOf: `${NS.rdfs}subPropertyOf`,
} as const;

export const LDP = {
  Resource: `${NS.ldp}Resource`,
  RDFSource: `${NS.ldp}RDFSource`,
  NonRDFSource: `${NS.ldp}NonRDFSource`,
  Container: `${NS.ldp}Container`,
  BasicContainer: `${NS.ldp}BasicContainer`,
  DirectContainer: `${NS.ldp}DirectContainer`,
  IndirectContainer: `${NS.ldp}IndirectContainer`,
  contains: `${NS.ldp}contains`,
  member: `${NS.ldp}member`,
  membershipResource: `${NS.ldp}membershipResource`,
  hasMemberRelation: `${NS.ldp}hasMemberRelation`,
  isMemberOfRelation: `${NS.ldp}isMemberOfRelation`,
  insertedContentRelation: `${NS.ldp}insertedContentRelation`,
  constrainedBy: `${NS.ldp}constrainedBy`,
  PreferContainment: `${NS.ldp}PreferContainment`,
  PreferMembership: `${NS.ldp}PreferMembership`,
  PreferMinimalContainer: `${NS.ldp}PreferMinimalContainer`,
  PreferEmptyContainer: `${NS.ldp}PreferEmptyContainer`,
} as const;

/** Fedora's terms: `fedora:` (the v4 repository namespace Fedora 6 still answers) and `fcrepo:`. */
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
  hasVersion: `${NS.fedora}hasVersion`,
  hasVersions: `${NS.fedora}hasVersions`,
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

export const DC = { title: `${NS.dc}title` } as const;
export const DCTERMS = { title: `${NS.dcterms}title` } as const;

export const DESCRIBEDBY = `${NS.iana}describedby`;
export const DESCRIBES = `${NS.iana}describes`;

/** Prefixes used when writing Turtle (and compacted JSON-LD), so responses look like Fedora's. */
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
