/**
 * Where each resource of an EXPORT job goes inside its bag (DECISIONS.md §15; docs/decisions.md, "Bag
 * layout"). Every resource is a directory of `data/`, named by its path segments below the scope's IRI
 * (the job's contextUri; the scope's own resource is `data/` itself). Inside it, `_metadata.ttl` holds its
 * metadata as Turtle and, for a binary, the bytes are a file named as the binary's last segment.
 *
 * Safe and collision-free: each segment is decoded from the IRI and then re-encoded so that only
 * `A–Z a–z 0–9 - . ~ _` stay as they are; every other character (`/`, `\`, `%`, control characters,
 * anything outside ASCII) is written `%XX` per UTF-8 byte. A segment starting with `.` or `_` has that
 * first character encoded too, so no name is `.` or `..` and the names the bag itself uses (those starting
 * with `_`) never meet a resource's. Different IRIs give different names: the encoding is one-to-one.
 * A resource that is not below the scope's IRI (a MEMBERS scope's member elsewhere in the view) goes under
 * `data/_view/` by its path below the view's root.
 */

/** The name of a resource's metadata file inside its directory. */
export const METADATA_FILE = '_metadata.ttl';
/** Where resources outside the scope's IRI go (by their path below the view's root). */
export const OUTSIDE_SCOPE = '_view';
/** The name an empty path segment (`a//b`) is given. */
const EMPTY_SEGMENT = '_empty';

const KEPT = /^[A-Za-z0-9\-.~_]$/u;

/** One IRI path segment as a file name (see above). */
export function segmentName(raw: string): string {
  if (raw === '') return EMPTY_SEGMENT;
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    decoded = raw;
  }
  let name = '';
  for (const char of decoded) {
    if (KEPT.test(char) && !(name === '' && (char === '.' || char === '_'))) name += char;
    else
      for (const byte of Buffer.from(char, 'utf8'))
        name += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return name;
}

/** The segments of `uri` below `base` (the same resource: none); undefined when it is not below it. */
export function segmentsBelow(uri: string, base: string): string[] | undefined {
  const root = base.replace(/\/+$/u, '');
  const target = stripped(uri).replace(/\/+$/u, '');
  if (target === root) return [];
  if (!target.startsWith(`${root}/`)) return undefined;
  return target.slice(root.length + 1).split('/');
}

/** A resource's directory inside the bag, `data/…` without a trailing slash (`data` for the scope's own). */
export function resourceDirectory(uri: string, scopeUri: string, viewRootUri: string): string {
  const below = segmentsBelow(uri, scopeUri);
  if (below !== undefined) return ['data', ...below.map(segmentName)].join('/');
  const inView = segmentsBelow(uri, viewRootUri);
  if (inView === undefined) throw new Error(`${uri} is not inside the repository view`);
  return ['data', OUTSIDE_SCOPE, ...inView.map(segmentName)].join('/');
}

/** The file a binary's bytes go to: its directory, then its own last segment's name (`bytes` when none). */
export function binaryFile(directory: string, uri: string): string {
  const last = stripped(uri).replace(/\/+$/u, '').split('/').pop() ?? '';
  const name = segmentName(last);
  return `${directory}/${name === '' || name === '_empty' ? 'bytes' : name}`;
}

/** A bag path as manifests write it (RFC 8493 §2.1.3): `%`, CR and LF percent-encoded. */
export function manifestPath(path: string): string {
  return path.replace(/%/gu, '%25').replace(/\r/gu, '%0D').replace(/\n/gu, '%0A');
}

/** The IRI without its query or fragment (they name no path). */
function stripped(uri: string): string {
  return uri.replace(/[?#].*$/su, '');
}
