import { hasControlCharacter, sub } from './context.js';
import { RepositoryError } from './errors.js';

// Fedora 4.x version labels (fedora-api.md §1.7): what a label may be, and where its version lives.

/** Characters Fedora 4 refuses in a label (JCR name rules). */
const FORBIDDEN = /[~#@*+%{}<>[\]|"^]/;

/**
 * The label a `Slug` asks for, or a 400. Fedora 4's own rules (no `~#@*+%{}<>[]|"^`, not only digits,
 * not ending in whitespace and digits), plus ours that keep the label usable as one path segment:
 * no "/", no control characters, not "." or "..", not starting with "fcr:", at most 255 characters.
 */
export function versionLabel(slug: string | undefined): string {
  const label = slug?.trim() ?? '';
  if (label === '') throw RepositoryError.badRequest('Specify label for version');
  if (FORBIDDEN.test(label)) {
    throw RepositoryError.badRequest(
      'A version label may not contain any of ~ # @ * + % { } < > [ ] | " ^',
      true,
    );
  }
  if (/^\d+$/.test(label) || /\s\d+$/.test(label)) {
    throw RepositoryError.badRequest(
      'A version label may not be only digits nor end in whitespace and digits',
      true,
    );
  }
  if (
    label.length > 255 ||
    label.includes('/') ||
    hasControlCharacter(label) ||
    label === '.' ||
    label === '..' ||
    label.toLowerCase().startsWith('fcr:')
  ) {
    throw RepositoryError.badRequest(
      'A version label must be 1–255 characters, without "/" or control characters, not "fcr:…"',
      true,
    );
  }
  return label;
}

/**
 * `<resource>/fcr:versions/<label>`, the label percent-encoded. encodeURIComponent's output is already
 * the canonical form paths.ts reduces a segment to, so the IRI given out is the one that resolves.
 */
export function versionIri(resourceIri: string, label: string): string {
  return sub(sub(resourceIri, 'fcr:versions'), encodeURIComponent(label));
}

/** The label a request's version segment names (percent-decoded; the raw segment if undecodable). */
export function labelOfSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The stored key of a labelled version: epoch milliseconds as 14 digits (the key column holds Fedora 6's
 * 14-character timestamps). All digits, so never a valid label; fixed width, so it sorts by time.
 */
export function versionKey(ms: number): string {
  return String(ms).padStart(14, '0');
}
