import { randomUUID } from 'node:crypto';
import type { Quad } from 'n3';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { PREMIS, RDF_TYPE, XSD } from '../../linked-data/rdf/vocab.js';
import { sendOptions, visible, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { sendQuads } from './rdf-representation.js';

// Fixity (fcr:fixity): recomputes a binary's digests and reports the outcome in PREMIS.

/** GET fcr:fixity: a binary's fixity report; a failed check is also logged. */
export async function fixity(deps: RepositoryDeps, ctx: Ctx, path: string, method: string): Promise<unknown> {
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    throw RepositoryError.notAllowed('fcr:fixity is read-only', 'GET, HEAD, OPTIONS');
  }
  const record = await visible(deps, ctx, path);
  if (record.binary === null) throw RepositoryError.notFound('Fixity is only available for binaries');
  if (method === 'OPTIONS') return sendOptions(ctx, 'GET, HEAD, OPTIONS', false);
  const binary = record.binary;
  const { size, digests } = await deps.binaries.digest(binary.sha512, ['sha512', 'sha256']);
  const sha512 = digests.get('sha512')?.toString('hex') ?? '';
  const sha256 = digests.get('sha256')?.toString('hex') ?? '';
  const outcome = size !== binary.size ? 'BAD_SIZE' : sha512 !== binary.sha512 ? 'BAD_CHECKSUM' : 'SUCCESS';
  const iri = ctx.mapper.external(record.path);
  const result = namedNode(`${iri}#${randomUUID()}`);
  const p = (name: string) => namedNode(name);
  const quads: Quad[] = [
    quad(namedNode(iri), p(PREMIS.hasFixity), result),
    quad(result, p(RDF_TYPE), p(PREMIS.Fixity)),
    quad(result, p(RDF_TYPE), p(PREMIS.EventOutcomeDetail)),
    quad(result, p(PREMIS.hasEventOutcome), literal(outcome)),
    quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha-512:${sha512}`)),
    quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha-256:${sha256}`)),
    quad(result, p(PREMIS.hasSize), literal(String(size), namedNode(XSD.long))),
  ];
  if (outcome !== 'SUCCESS') deps.log.warn({ path: record.path, outcome }, 'fixity check failed');
  return sendQuads(ctx, quads, method === 'HEAD', {});
}
