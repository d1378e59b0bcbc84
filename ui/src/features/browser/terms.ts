/**
 * Terms as the API writes them (DECISIONS.md §7): an IRI object is bare, a literal is in N-Triples form
 * (`"x"`, `"x"@fr`, `"5"^^<…>`). And prefixed names through the view's schemas (namespace → abbreviation).
 */

export interface Prefix {
  readonly abbreviation: string;
  readonly namespace: string;
}

export type Term =
  | { readonly kind: 'iri'; readonly value: string }
  | {
      readonly kind: 'literal';
      readonly value: string;
      readonly language?: string;
      readonly datatype?: string;
    };

const ESCAPES: Readonly<Record<string, string>> = {
  t: '\t',
  b: '\b',
  n: '\n',
  r: '\r',
  f: '\f',
  '"': '"',
  "'": "'",
  '\\': '\\',
};

function unescape(text: string): string {
  return text.replace(/\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)/g, (_all, code: string) => {
    if (code.length > 1) return String.fromCodePoint(Number.parseInt(code.slice(1), 16));
    return ESCAPES[code] ?? code;
  });
}

/** An object as the API wrote it. */
export function parseTerm(wire: string): Term {
  const match = /^"((?:[^"\\]|\\.)*)"(?:@([A-Za-z0-9-]+)|\^\^<([^>]*)>)?$/s.exec(wire);
  if (match === null) return { kind: 'iri', value: wire };
  const [, body = '', language, datatype] = match;
  return {
    kind: 'literal',
    value: unescape(body),
    ...(language === undefined ? {} : { language }),
    ...(datatype === undefined ? {} : { datatype }),
  };
}

/** What an edit field starts with: a plain literal's text, otherwise the term as written. */
export function editText(wire: string): string {
  const term = parseTerm(wire);
  if (term.kind === 'literal' && term.language === undefined && term.datatype === undefined)
    return term.value;
  return term.kind === 'iri' ? `<${term.value}>` : wire;
}

/**
 * What to send for an edited value (PUT /metadata ?value=): text typed as `"…"…` or `<iri>` is taken as
 * written; other text replacing a literal stays a literal (quoted, so an IRI-looking title is no IRI);
 * other text replacing an IRI is sent as typed (the API reads an absolute IRI as an IRI).
 */
export function editedValue(original: string, typed: string): string {
  if (typed.startsWith('"') || typed.startsWith('<')) return typed;
  if (parseTerm(original).kind === 'iri') return typed;
  return `"${typed.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r')}"`;
}

/** `dcterms:title` for an IRI under a known namespace (the longest match), else undefined. */
export function compactIri(iri: string, prefixes: readonly Prefix[]): string | undefined {
  let best: Prefix | undefined;
  for (const prefix of prefixes)
    if (
      iri.startsWith(prefix.namespace) &&
      (best === undefined || prefix.namespace.length > best.namespace.length)
    )
      best = prefix;
  return best === undefined ? undefined : `${best.abbreviation}:${iri.slice(best.namespace.length)}`;
}

/**
 * A full IRI from what was typed in `Property`: a prefixed name with a known prefix is expanded; an
 * absolute IRI (also `<…>`) is kept; anything else is undefined.
 */
export function expandProperty(typed: string, prefixes: readonly Prefix[]): string | undefined {
  const text = typed.trim().replace(/^<(.*)>$/, '$1');
  const colon = text.indexOf(':');
  if (colon > 0) {
    const abbreviation = text.slice(0, colon);
    const local = text.slice(colon + 1);
    const prefix = prefixes.find((p) => p.abbreviation === abbreviation);
    if (prefix !== undefined && /^[^\s<>"{}|^`\\/]*$/.test(local)) return `${prefix.namespace}${local}`;
  }
  return /^https?:\/\/[^\s<>"{}|^`\\]+$/i.test(text) ? text : undefined;
}

/** The last path segment of an IRI, decoded: how a child without a name is shown. */
export function lastSegment(iri: string): string {
  const path = iri.replace(/[?#].*$/, '').replace(/\/+$/, '');
  const segment = path.slice(path.lastIndexOf('/') + 1);
  try {
    return decodeURIComponent(segment) || iri;
  } catch {
    return segment || iri;
  }
}
