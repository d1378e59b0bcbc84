import { BadRequestError, UpstreamFailedError } from '../shared/errors.js';
import type { FedoraDialect } from '../shared/fedora-dialect.js';
import type { RepositoryKind, UploadDigest } from './repository-adapter.js';
import {
  discard,
  type RepositoryHttpClient,
  type UpstreamRequest,
  type UpstreamResponse,
} from './repository-http-client.js';

/**
 * A named creation (`createChild`/`uploadBinary` with `options.name`) found something at its IRI: the
 * repository refused the `If-None-Match: *` PUT and nothing was written. An UpstreamFailedError (200 ERROR)
 * so that callers which do not expect it still fail cleanly; COPY jobs tell it apart to report a conflict.
 */
export class TargetExistsError extends UpstreamFailedError {
  constructor(
    readonly uri: string,
    status: number,
  ) {
    super(`${uri} already exists`, { status });
    this.name = 'TargetExistsError';
  }
}

/** Named creations never replace: the repository refuses the PUT when the resource exists. */
export const NEW_ONLY = { 'if-none-match': '*' } as const;

/**
 * The IRI of the child `name` of `parent`: the name percent-encoded as ONE path segment, LDP containers
 * with a trailing `/` (CSS tells containers by it), nothing else with one. Names that would address
 * another resource than a new child are a BadRequestError before any request: empty, `/`, `\`, an
 * encoded slash, dot-only segments, control characters; on Fedora `fcr:`/`tx:` segments (its endpoints,
 * transactions), on LDP the auxiliary resources Solid servers keep beside a resource (`.meta`, `.acl`,
 * `.acr`: writing one would change another resource's description or its access rules).
 */
export function namedChildUri(
  client: RepositoryHttpClient,
  parent: string,
  name: string,
  kind: RepositoryKind,
  container: boolean,
): string {
  const refusal = nameRefusal(name, kind);
  if (refusal !== undefined)
    throw new BadRequestError(`A child's name ${refusal}: ${JSON.stringify(name.slice(0, 200))}`);
  const base = parent.endsWith('/') ? parent : `${parent}/`;
  const trailing = kind === 'LDP' && container ? '/' : '';
  return client.confine(`${base}${encodeURIComponent(name)}${trailing}`);
}

function nameRefusal(name: string, kind: RepositoryKind): string | undefined {
  if (name === '') return 'cannot be empty';
  if (name.length > 255) return 'cannot be longer than 255 characters';
  if (name.includes('/') || name.includes('\\') || /%2f|%5c/i.test(name))
    return 'must be one path segment (no slash)';
  if (/^\.+$/.test(name)) return 'cannot be only dots';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'cannot hold control characters';
  if (kind === 'FEDORA' && /^(fcr|tx):/i.test(name))
    return 'cannot start with fcr: or tx: (Fedora endpoints)';
  if (kind === 'LDP' && /\.(meta|acl|acr)$/i.test(name))
    return 'cannot end with .meta, .acl or .acr (auxiliary resources of the parent)';
  return undefined;
}

/**
 * Sends a named creation PUT (the caller has set `If-None-Match: *`). A 2xx is answered (its body not
 * read); an answer in `existsStatuses` is a TargetExistsError naming `uri`; any other an UpstreamFailedError.
 */
export async function putNew(
  client: RepositoryHttpClient,
  request: UpstreamRequest,
  uri: string,
  existsStatuses: readonly number[],
): Promise<UpstreamResponse> {
  const response = await client.send(request);
  if (response.status >= 200 && response.status < 300) return response;
  if (existsStatuses.includes(response.status)) {
    await discard(response);
    throw new TargetExistsError(uri, response.status);
  }
  throw await client.fail(response);
}

/** `HEAD <url>`: 2xx → true, 404/410 → false, anything else an UpstreamFailedError. */
export async function resourceExists(
  client: RepositoryHttpClient,
  url: string,
  headers: Readonly<Record<string, string>> = {},
): Promise<boolean> {
  const response = await client.send({ method: 'HEAD', uri: url, headers: { ...headers } });
  if (response.status >= 200 && response.status < 300) {
    await discard(response);
    return true;
  }
  if (response.status === 404 || response.status === 410) {
    await discard(response);
    return false;
  }
  throw await client.fail(response);
}

const HEX_LENGTH: Readonly<Record<UploadDigest['algorithm'], number>> = {
  sha1: 40,
  'sha-256': 64,
  'sha-512': 128,
};

/**
 * The `Digest` request header Fedora verifies an upload against (a mismatch is its 409), in hex as
 * Fedora reads it (`fedora-api.md` §1.4): 5.x/6.x `sha=`, `sha-256=`, `sha-512=`; 4.x knows SHA-1 only
 * (`sha1=`), so other algorithms send no header there. A malformed digest is a BadRequestError.
 */
export function digestHeader(
  dialect: FedoraDialect,
  digest: UploadDigest | undefined,
): Record<string, string> {
  if (digest === undefined) return {};
  const length = HEX_LENGTH[digest.algorithm] as number | undefined;
  if (length === undefined || !new RegExp(`^[0-9a-fA-F]{${length}}$`).test(digest.hex)) {
    throw new BadRequestError(`Not a ${digest.algorithm} digest in hex`);
  }
  const hex = digest.hex.toLowerCase();
  if (dialect === 'FEDORA_4') return digest.algorithm === 'sha1' ? { digest: `sha1=${hex}` } : {};
  return { digest: `${digest.algorithm === 'sha1' ? 'sha' : digest.algorithm}=${hex}` };
}
