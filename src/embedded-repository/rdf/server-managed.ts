import type { Quad } from 'n3';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { DESCRIBEDBY, EBUCORE, FEDORA, LDP, PREMIS, RDF_TYPE, XSD } from '../../linked-data/rdf/vocab.js';
import type { ResourceRecord } from '../store/record.js';
import type { IriMapper } from './terms.js';

// The statements the repository makes about a resource itself: the HTTP layer answers them, and the search
// feed indexes them (search/indexing/embedded-documents.ts), so a document built from a stored row is the
// document built from the repository's answer.

const iso = (ms: number) => literal(new Date(ms).toISOString(), namedNode(XSD.dateTime));

/** The server-managed triples that differ between Fedora lines (fedora-api.md §1.1). */
export interface SmtShape {
  /** fedora:hasParent: 4.x and 7.0 (which the FEDORA_6 dialect follows), not 5.x. */
  readonly hasParent: boolean;
  /** fedora:hasVersions <uri/fcr:versions>: 4.x only, and only for a resource with a version. */
  readonly hasVersions: boolean;
}

export const FEDORA_6_SHAPE: SmtShape = { hasParent: true, hasVersions: false };

/**
 * Server-managed triples (Fedora 6, plus fedora:hasParent as in 7.0; `shape` for the other lines). For a
 * binary they describe the binary and appear in its description (fcr:metadata).
 */
export function serverManagedQuads(
  record: ResourceRecord,
  mapper: IriMapper,
  shape: SmtShape = FEDORA_6_SHAPE,
): Quad[] {
  const iri = mapper.external(record.path);
  const s = namedNode(iri);
  const out: Quad[] = [];
  const add = (p: string, o: Quad['object']) => out.push(quad(s, namedNode(p), o));
  const type = (t: string) => add(RDF_TYPE, namedNode(t));
  if (record.kind === 'binary') {
    type(LDP.NonRDFSource);
    type(FEDORA.Binary);
  } else {
    type(LDP.RDFSource);
    type(LDP.Container);
    type(LDP.BasicContainer);
    type(FEDORA.Container);
  }
  type(FEDORA.Resource);
  if (record.path === '') {
    type(FEDORA.RepositoryRoot);
    add(FEDORA.hasTransactionProvider, namedNode(`${iri}fcr:tx`));
  }
  add(FEDORA.created, iso(record.created));
  add(FEDORA.createdBy, literal(record.createdBy));
  add(FEDORA.lastModified, iso(record.lastModified));
  add(FEDORA.lastModifiedBy, literal(record.lastModifiedBy));
  if (shape.hasParent && record.parent !== null)
    add(FEDORA.hasParent, namedNode(mapper.external(record.parent)));
  if (shape.hasVersions) add(FEDORA.hasVersions, namedNode(`${iri.replace(/\/$/, '')}/fcr:versions`));
  const binary = record.binary;
  if (binary !== null) {
    add(PREMIS.hasSize, literal(String(binary.size), namedNode(XSD.long)));
    add(PREMIS.hasMessageDigest, namedNode(`urn:sha-512:${binary.sha512}`));
    add(PREMIS.hasMessageDigest, namedNode(`urn:sha-256:${binary.sha256}`));
    add(EBUCORE.hasMimeType, literal(binary.mimeType));
    if (binary.filename !== null) add(EBUCORE.filename, literal(binary.filename));
    add(FEDORA.hasFixityService, namedNode(`${iri}/fcr:fixity`));
    add(DESCRIBEDBY, namedNode(`${iri}/fcr:metadata`));
  }
  return out;
}
