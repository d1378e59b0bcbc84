import type { Quad } from '@rdfjs/types';
import { NS } from './rdf-io.js';
import type { FixityResult } from './repository-adapter.js';

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
