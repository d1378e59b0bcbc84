import type { Quad } from '@rdfjs/types';
import { UpstreamFailedError } from '../shared/errors.js';
import { readRdf } from './upstream-exchange.js';
import { txScope } from './fedora-tx-scope.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import { RDF_ACCEPT } from '../linked-data/rdf/media-types.js';
import { NS } from '../linked-data/rdf/vocab.js';
import type { FixityFacet, FixityResult, TransactionRef } from './repository-adapter.js';
import type { RepositoryHttpClient } from './repository-http-client.js';

const NAMESPACES = [NS.premis, NS.premis3];
const OUTCOME = new Set(NAMESPACES.flatMap((ns) => [`${ns}hasEventOutcome`, `${ns}outcome`]));
const DIGEST = new Set(NAMESPACES.map((ns) => `${ns}hasMessageDigest`));
const SIZE = new Set(NAMESPACES.flatMap((ns) => [`${ns}hasSize`, `${ns}size`]));

/** Preference when a repository reports several digests (Fedora 6 default first). */
const DIGEST_ORDER = [
  'urn:sha-512:',
  'urn:sha512:',
  'urn:sha-256:',
  'urn:sha256:',
  'urn:sha1:',
  'urn:sha-1:',
  'urn:md5:',
];

/**
 * A `FixityResult` from the RDF of `GET <binary>/fcr:fixity` (PREMIS 1 `hasEventOutcome`,
 * `hasMessageDigest`, `hasSize`; the PREMIS 3 forms of Fedora 7 too). With several digests the SHA-512 is
 * chosen, then SHA-256, SHA-1, MD5, then the first in code-unit order. Answers undefined when there is no
 * recognisable outcome.
 */
export function fixityFromRdf(quads: readonly Quad[]): FixityResult | undefined {
  const outcomes = quads.filter((q) => OUTCOME.has(q.predicate.value)).map((q) => q.object.value);
  const digests = quads
    .filter((q) => DIGEST.has(q.predicate.value))
    .map((q) => q.object.value)
    .sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  const sizes = quads.filter((q) => SIZE.has(q.predicate.value)).map((q) => q.object.value);
  const status = statusOf(outcomes);
  if (status === undefined) return undefined;
  return { status, messageDigest: digests[0] ?? '', size: sizes[0] ?? '' };
}

function rank(digest: string): number {
  const index = DIGEST_ORDER.findIndex((prefix) => digest.toLowerCase().startsWith(prefix));
  return index === -1 ? DIGEST_ORDER.length : index;
}

/** The worst outcome reported: a bad checksum or size wins over success. */
function statusOf(outcomes: readonly string[]): FixityResult['status'] | undefined {
  const normalised = outcomes.map((o) => {
    const text = o.toUpperCase();
    if (text.includes('BAD_SIZE')) return 'BAD_SIZE' as const;
    if (text.includes('BAD_CHECKSUM') || text.includes('FAIL')) return 'BAD_CHECKSUM' as const;
    if (text.includes('SUCCESS') || text.endsWith('/SUC') || text === 'PASS') return 'SUCCESS' as const;
    return undefined;
  });
  if (normalised.includes('BAD_CHECKSUM')) return 'BAD_CHECKSUM';
  if (normalised.includes('BAD_SIZE')) return 'BAD_SIZE';
  if (normalised.includes('SUCCESS')) return 'SUCCESS';
  return undefined;
}

/** The fixity facet of the Fedora adapter: `GET <uri>/fcr:fixity` (every line; in a 4.x/5.x tx, its path). */
export class FedoraFixity implements FixityFacet {
  constructor(
    private readonly client: RepositoryHttpClient,
    private readonly dialect: FedoraDialect = 'FEDORA_6',
  ) {}

  async check(uri: string, tx?: TransactionRef): Promise<FixityResult> {
    const target = this.client.confine(uri);
    const fixityUri = this.client.confine(`${target.replace(/\/+$/, '')}/fcr:fixity`);
    const scope = txScope(this.dialect, this.client.rootUri, tx);
    const response = await this.client.expectOk({
      method: 'GET',
      uri: scope.url(fixityUri),
      headers: { accept: RDF_ACCEPT, ...scope.headers },
    });
    const result = fixityFromRdf(await readRdf(this.client, response));
    if (result === undefined) {
      throw new UpstreamFailedError(`GET ${fixityUri} answered no fixity outcome (premis:hasEventOutcome)`);
    }
    return result;
  }
}
