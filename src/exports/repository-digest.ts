import type { Quad } from '@rdfjs/types';
import { NS } from '../linked-data/rdf/vocab.js';

/** A digest a repository holds for a binary: the algorithm (Node's name) and its hex value. */
export interface HeldDigest {
  readonly algorithm: 'sha512' | 'sha256' | 'sha1' | 'md5';
  readonly hex: string;
}

const DIGEST_PREDICATES = new Set([`${NS.premis}hasMessageDigest`, `${NS.premis3}hasMessageDigest`]);

/** `urn:<algorithm>:<hex>` spellings, strongest first (Fedora writes `urn:sha-512:`, older ones `urn:sha1:`). */
const ALGORITHMS: readonly [RegExp, HeldDigest['algorithm']][] = [
  [/^urn:sha-?512:([0-9a-f]+)$/iu, 'sha512'],
  [/^urn:sha-?256:([0-9a-f]+)$/iu, 'sha256'],
  [/^urn:sha-?1:([0-9a-f]+)$/iu, 'sha1'],
  [/^urn:md5:([0-9a-f]+)$/iu, 'md5'],
];

/**
 * The digest the repository holds for a binary, from its description (premis:hasMessageDigest, as the
 * embedded repository and Fedora describe binaries): the strongest it names. Undefined when it names none
 * (a plain LDP server): the bytes read then have nothing to be compared with.
 */
export function heldDigest(quads: readonly Quad[]): HeldDigest | undefined {
  const values = quads
    .filter((quad) => DIGEST_PREDICATES.has(quad.predicate.value))
    .map((quad) => quad.object.value);
  for (const [pattern, algorithm] of ALGORITHMS)
    for (const value of values) {
      const hex = pattern.exec(value)?.[1];
      if (hex !== undefined) return { algorithm, hex: hex.toLowerCase() };
    }
  return undefined;
}
