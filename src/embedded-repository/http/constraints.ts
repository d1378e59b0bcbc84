import type { FastifyReply } from 'fastify';
import { RepositoryError } from './errors.js';

// The constraints document (fcr:constraints) that constrained refusals link to.

/** GET fcr:constraints: the plain-text list of what this repository refuses. */
export function constraints(reply: FastifyReply, method: string): unknown {
  if (method !== 'GET' && method !== 'HEAD') throw RepositoryError.notAllowed('Read-only', 'GET, HEAD');
  return reply.type('text/plain; charset=utf-8').send(CONSTRAINTS_TEXT);
}

const CONSTRAINTS_TEXT = `Constraints of the Scriptorium embedded repository (a Fedora 6 compatible LDP server)

- Only basic containers and binaries (LDP-NR) exist; direct and indirect containers, archival groups and
  external content are refused.
- Server-managed statements cannot be set or changed: rdf:type with an ldp:, fedora: or memento: object,
  anything in the fedora: / fcrepo: / memento: namespaces, ldp:contains and the LDP membership predicates,
  premis:hasSize, premis:hasMessageDigest, premis:hasFixity, ebucore:filename, ebucore:hasMimeType,
  iana:describedby (409). PUT accepts them when they equal the current values, or drops them with
  Prefer: handling=lenient.
- Statements may only be about the resource itself (or its #fragments) and blank nodes or IRIs outside the
  repository.
- SPARQL Update: INSERT DATA, DELETE DATA, DELETE/INSERT WHERE and DELETE WHERE on the resource's own graph;
  LOAD, CLEAR, DROP, CREATE, ADD, MOVE, COPY, GRAPH, WITH, USING and SERVICE are refused (400). An update
  may evaluate for a limited time, and the WHERE of each operation may have a limited number of solutions;
  past either it is stopped (422) and nothing changes.
- Versions: one memento per resource per second; none inside a transaction; Memento-Datetime is not
  accepted; an optional Slug gives a version a label.
- The interaction model of a resource cannot change; a resource's parent must exist before it is created.
`;
