import { randomUUID } from 'node:crypto';
import type { Quad } from 'n3';
import { literal, namedNode, quad } from '../../linked-data/rdf/terms.js';
import { NS, PREMIS, RDF_TYPE, XSD } from '../../linked-data/rdf/vocab.js';
import { counted, resourceEntry } from './audit-entries.js';
import { sendOptions, visible, type Ctx, type RepositoryDeps } from './context.js';
import { RepositoryError } from './errors.js';
import { sendQuads } from './rdf-representation.js';

// Fixity (fcr:fixity): recomputes a binary's digests and reports the outcome in PREMIS: Fedora 6's
// shape (SHA-512 and SHA-256, `<bin>#<uuid>`), or in the FEDORA_4/FEDORA_5 dialects Fedora 4's
// (fedora-api.md §1.5): `<bin>#fixity/<epoch-ms>`, the SHA-1 with its algorithm named.

/** GET fcr:fixity: a binary's fixity report; a failed check is also logged. */
export async function fixity(deps: RepositoryDeps, ctx: Ctx, path: string, method: string): Promise<unknown> {
  if (method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS') {
    throw RepositoryError.notAllowed('fcr:fixity is read-only', 'GET, HEAD, OPTIONS');
  }
  const record = await visible(deps, ctx, path);
  if (record.binary === null) throw RepositoryError.notFound('Fixity is only available for binaries');
  if (method === 'OPTIONS') return sendOptions(ctx, 'GET, HEAD, OPTIONS', false);
  const binary = record.binary;
  const fedora4 = deps.settings.dialect !== 'FEDORA_6';
  // One read of the file: SHA-1 (what Fedora 4/5 report) is computed alongside the stored SHA-512 that
  // decides the outcome; uploads never compute it.
  const algorithms = fedora4 ? ['sha512', 'sha1'] : ['sha512', 'sha256'];
  const { size, digests } = await deps.binaries.digest(binary.sha512, algorithms);
  const hex = (name: string) => digests.get(name)?.toString('hex') ?? '';
  const sha512 = hex('sha512');
  const outcome = size !== binary.size ? 'BAD_SIZE' : sha512 !== binary.sha512 ? 'BAD_CHECKSUM' : 'SUCCESS';
  const iri = ctx.mapper.external(record.path);
  const result = namedNode(fedora4 ? `${iri}#fixity/${ctx.now}` : `${iri}#${randomUUID()}`);
  const p = (name: string) => namedNode(name);
  const quads: Quad[] = [
    quad(namedNode(iri), p(PREMIS.hasFixity), result),
    quad(result, p(RDF_TYPE), p(PREMIS.Fixity)),
    quad(result, p(RDF_TYPE), p(PREMIS.EventOutcomeDetail)),
    quad(result, p(PREMIS.hasEventOutcome), literal(outcome)),
  ];
  if (fedora4) {
    quads.push(
      quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha1:${hex('sha1')}`)),
      quad(result, p(`${NS.premis}hasMessageDigestAlgorithm`), literal('SHA-1')),
    );
  } else {
    quads.push(
      quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha-512:${sha512}`)),
      quad(result, p(PREMIS.hasMessageDigest), namedNode(`urn:sha-256:${hex('sha256')}`)),
    );
  }
  quads.push(quad(result, p(PREMIS.hasSize), literal(String(size), namedNode(XSD.long))));
  if (outcome !== 'SUCCESS') {
    deps.log.warn({ path: record.path, outcome }, 'fixity check failed');
    deps.settings.onFixityFailure?.();
  }
  // A read that is recorded (DECISIONS.md §14): the check and its outcome, as the report gives them.
  if (method === 'GET') {
    const entry = resourceEntry(
      ctx.who,
      'fixity.check',
      record.path,
      { status: outcome, digest: `urn:sha-512:${sha512}`, size },
      outcome === 'SUCCESS' ? 'SUCCESS' : 'FAILURE',
    );
    await deps.store.record([entry]);
    counted(ctx.who, [entry]);
  }
  return sendQuads(ctx, quads, method === 'HEAD', {});
}
