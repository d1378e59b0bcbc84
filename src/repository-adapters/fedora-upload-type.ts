import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { mediaTypeOf } from '../linked-data/http/content-type.js';

/**
 * Content types Fedora 4.7 reads as RDF (Jena's RDF languages, and a SPARQL Update body): POSTed with
 * one of them, 4.7 makes a container, not a binary, whatever `Link rel="type"` says (`fedora-api.md`
 * §1.2, §1.4). `text/plain` is not among them: 4.7 keeps it a binary.
 */
const FEDORA_4_RDF_TYPES = new Set([
  'text/turtle',
  'application/x-turtle',
  'application/rdf+xml',
  'application/n-triples',
  'application/n-quads',
  'application/trig',
  'text/n3',
  'text/rdf+n3',
  'application/n3',
  'application/ld+json',
  'application/rdf+json',
  'application/rdf+thrift',
  'application/sparql-update',
]);

/** The Content-Type a binary upload is sent with: an RDF type goes to Fedora 4 as octet-stream. */
export function uploadContentType(dialect: FedoraDialect, contentType: string): string {
  if (contentType === '') return 'application/octet-stream';
  if (dialect === 'FEDORA_4' && FEDORA_4_RDF_TYPES.has(mediaTypeOf(contentType)))
    return 'application/octet-stream';
  return contentType;
}
