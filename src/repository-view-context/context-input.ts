import type { Quad } from '@rdfjs/types';
import type { ChildStatement } from '../repository-adapters/repository-adapter.js';
import { BadRequestError } from '../shared/errors.js';
import type { ContextSession } from './context-session.js';
import { resolveContextUri } from './context-uri.js';
import { parseIri, parseObject, parseWireTriple } from './triple-format.js';

const MAX_CHILD_TRIPLES = 1000;

/** The body of POST /children: predicate and object pairs (their subjects are ignored). */
export function childStatements(body: unknown): ChildStatement[] {
  if (!Array.isArray(body)) throw new BadRequestError('The body must be a JSON array of triples');
  if (body.length > MAX_CHILD_TRIPLES)
    throw new BadRequestError(`At most ${MAX_CHILD_TRIPLES} triples can be posted at once`);
  return body.map((item: unknown) => {
    if (typeof item !== 'object' || item === null)
      throw new BadRequestError('Each triple must be an object with predicate and object');
    const { predicate, object } = item as Record<string, unknown>;
    return { predicate: parseIri(predicate, 'predicate'), object: parseObject(object) };
  });
}

/** A body triple about the context itself (its subject may be given relative to the view's root). */
export function aboutContext(session: ContextSession, body: unknown): Quad {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const subject = (body as { subject?: unknown }).subject;
    if (typeof subject === 'string' && !/^[a-z][a-z0-9+.-]*:/i.test(subject)) {
      body = { ...body, subject: resolveContextUri(session.opened.view.rootUri, subject).uri };
    }
  }
  const triple = parseWireTriple(body);
  if (triple.subject.value !== session.context.uri)
    throw new BadRequestError(`A triple's subject must be the context ${session.context.uri}`);
  return triple;
}
