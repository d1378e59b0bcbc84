import { DESCRIBEDBY, DESCRIBES, EBUCORE, LDP, NS, PREMIS, RDF_TYPE } from './vocab.js';

/** rdf:type objects in these namespaces are interaction models or Fedora's own types. */
const RESERVED_TYPE_NAMESPACES = [NS.ldp, NS.fedora, NS.fcrepo, NS.memento];
const MANAGED_NAMESPACES = [NS.fedora, NS.fcrepo, NS.memento];
const MANAGED_PREDICATES = new Set<string>([
  LDP.contains,
  LDP.member,
  LDP.membershipResource,
  LDP.hasMemberRelation,
  LDP.isMemberOfRelation,
  LDP.insertedContentRelation,
  PREMIS.hasMessageDigest,
  PREMIS.hasFixity,
  PREMIS.hasSize,
  EBUCORE.filename,
  EBUCORE.hasMimeType,
  DESCRIBEDBY,
  DESCRIBES,
]);

/**
 * Whether a statement is server-managed in Fedora's sense (SMTs, interaction-model types, containment):
 * the embedded repository refuses client writes of it (409 with a constrainedBy link), and the Fedora
 * adapter leaves it out of what it sends, since Fedora refuses (or leniently drops) it too.
 */
export function isServerManaged(predicate: string, object: { termType: string; value: string }): boolean {
  if (predicate === RDF_TYPE) {
    return (
      object.termType === 'NamedNode' && RESERVED_TYPE_NAMESPACES.some((ns) => object.value.startsWith(ns))
    );
  }
  return MANAGED_PREDICATES.has(predicate) || MANAGED_NAMESPACES.some((ns) => predicate.startsWith(ns));
}
