import type { Quad } from '@rdfjs/types';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { namedNode, quad } from '../linked-data/rdf/terms.js';
import { atomicHeaders, checkedTxId } from './fedora-transactions.js';
import type { TransactionRef } from './repository-adapter.js';

/**
 * How one request reaches a resource, in or out of a transaction, for one Fedora line (`fedora-api.md`
 * §1.6). Fedora 6/7: the resource's own URL plus `Atomic-ID`. Fedora 4/5: the transaction lives in the
 * path (`<root>tx:<id>/<path>`) and the answers name resources by that path too, so everything answered
 * is mapped back: callers only ever see the canonical IRIs.
 */
export interface TxScope {
  /** The URL a request about `uri` (canonical, already confined) goes to. */
  url(uri: string): string;
  /** Headers every request in the scope carries. */
  readonly headers: Readonly<Record<string, string>>;
  /** An IRI the repository answered (subject, object, Location, link), as callers know it. */
  canonical(iri: string): string;
  /** `canonical` applied to every IRI subject and object. */
  quads(quads: readonly Quad[]): Quad[];
}

const IDENTITY: TxScope = {
  url: (uri) => uri,
  headers: {},
  canonical: (iri) => iri,
  quads: (quads) => [...quads],
};

/** True for the Fedora lines whose transactions are a path segment (4.x, 5.x). */
export function txInPath(dialect: FedoraDialect): boolean {
  return dialect !== 'FEDORA_6';
}

export function txScope(dialect: FedoraDialect, rootUri: string, tx: TransactionRef | undefined): TxScope {
  if (tx === undefined) return IDENTITY;
  if (!txInPath(dialect)) return { ...IDENTITY, headers: atomicHeaders(rootUri, tx) };
  const prefix = `${rootUri}tx:${checkedTxId(tx)}`;
  const canonical = (iri: string): string => {
    if (iri === prefix || iri === `${prefix}/`) return rootUri;
    if (iri.startsWith(`${prefix}/`)) return rootUri + iri.slice(prefix.length + 1);
    if (iri.startsWith(`${prefix}#`)) return rootUri + iri.slice(prefix.length);
    return iri;
  };
  const subject = (t: Quad['subject']): Quad['subject'] =>
    t.termType === 'NamedNode' ? namedNode(canonical(t.value)) : t;
  const object = (t: Quad['object']): Quad['object'] =>
    t.termType === 'NamedNode' ? namedNode(canonical(t.value)) : t;
  return {
    // Confinement let only the root (with or without its slash) and IRIs under it through.
    url: (uri) => (uri.startsWith(rootUri) ? `${prefix}/${uri.slice(rootUri.length)}` : `${prefix}/`),
    headers: {},
    canonical,
    quads: (quads) => quads.map((q) => quad(subject(q.subject), q.predicate, object(q.object))),
  };
}
