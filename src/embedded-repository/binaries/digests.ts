import { RepositoryRefusal } from '../refusal.js';

/** Digest algorithms of RFC 3230 / Fedora, by their HTTP names, with Node's hash names. */
const ALGORITHMS: Readonly<Record<string, { node: string; hexLength: number; name: string }>> = {
  md5: { node: 'md5', hexLength: 32, name: 'md5' },
  sha: { node: 'sha1', hexLength: 40, name: 'sha' },
  'sha-1': { node: 'sha1', hexLength: 40, name: 'sha' },
  sha1: { node: 'sha1', hexLength: 40, name: 'sha' },
  'sha-256': { node: 'sha256', hexLength: 64, name: 'sha-256' },
  sha256: { node: 'sha256', hexLength: 64, name: 'sha-256' },
  'sha-512': { node: 'sha512', hexLength: 128, name: 'sha-512' },
  sha512: { node: 'sha512', hexLength: 128, name: 'sha-512' },
  'sha-512/256': { node: 'sha512-256', hexLength: 64, name: 'sha-512/256' },
};

export interface DigestAlgorithm {
  /** The name used in HTTP headers and URNs (`sha-512`). */
  readonly name: string;
  /** Node's crypto name (`sha512`). */
  readonly node: string;
  readonly hexLength: number;
}

export function digestAlgorithm(name: string): DigestAlgorithm | undefined {
  const found = ALGORITHMS[name.trim().toLowerCase()];
  return found === undefined ? undefined : { name: found.name, node: found.node, hexLength: found.hexLength };
}

/**
 * Parses a `Digest` request header (`sha-256=<value>, md5=<value>`). Values may be hex (what Fedora
 * sends) or base64 (RFC 3230). Unknown algorithms or undecodable values are 400, as Fedora answers.
 */
export function parseDigestHeader(
  header: string | undefined,
): Map<string, { algorithm: DigestAlgorithm; hex: string }> {
  const result = new Map<string, { algorithm: DigestAlgorithm; hex: string }>();
  if (header === undefined || header.trim() === '') return result;
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq === -1)
      throw new RepositoryRefusal('invalid', `Malformed Digest header part "${part.trim().slice(0, 80)}"`);
    const name = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    const algorithm = digestAlgorithm(name);
    if (algorithm === undefined) {
      throw new RepositoryRefusal('invalid', `Unsupported digest algorithm "${name.slice(0, 40)}"`, true);
    }
    let hex: string;
    if (new RegExp(`^[0-9a-fA-F]{${algorithm.hexLength}}$`).test(value)) {
      hex = value.toLowerCase();
    } else if (/^[A-Za-z0-9+/]+={0,2}$/.test(value)) {
      hex = Buffer.from(value, 'base64').toString('hex');
      // A value that cannot be this algorithm's digest cannot match the content: 409 like any mismatch.
      if (hex.length !== algorithm.hexLength) {
        throw new RepositoryRefusal(
          'conflict',
          `The ${algorithm.name} digest does not match the content`,
          true,
        );
      }
    } else {
      throw new RepositoryRefusal(
        'conflict',
        `The ${algorithm.name} digest does not match the content`,
        true,
      );
    }
    result.set(algorithm.node, { algorithm, hex });
  }
  return result;
}

/**
 * Parses `Want-Digest` (`sha-256;q=0.5, md5`). Returns the supported algorithms wanted (q > 0), best
 * first; an empty result for a non-empty header means none is supported (Fedora: 400).
 */
export function parseWantDigest(header: string | undefined): DigestAlgorithm[] {
  if (header === undefined || header.trim() === '') return [];
  const wanted: { algorithm: DigestAlgorithm; q: number }[] = [];
  for (const part of header.split(',')) {
    const [name = '', ...params] = part.split(';').map((p) => p.trim());
    let q = 1;
    for (const param of params) {
      const match = /^q=([0-9.]+)$/i.exec(param);
      if (match?.[1] !== undefined) q = Number(match[1]);
    }
    const algorithm = digestAlgorithm(name);
    if (algorithm !== undefined && q > 0 && !wanted.some((w) => w.algorithm.node === algorithm.node)) {
      wanted.push({ algorithm, q });
    }
  }
  return wanted.sort((a, b) => b.q - a.q).map((w) => w.algorithm);
}
