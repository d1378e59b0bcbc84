/** One link of an HTTP Link header (RFC 8288): its target and its parameters (names lower-cased). */
export interface LinkValue {
  readonly uri: string;
  /** The relation types, split on whitespace (`rel="original timegate"` → two). */
  readonly rels: readonly string[];
  readonly params: Readonly<Record<string, string>>;
}

/**
 * Parses one Link header value (several links separated by commas). Commas and semicolons inside `<…>`
 * and quoted strings are respected; malformed parts are skipped.
 */
export function parseLinkHeader(value: string): LinkValue[] {
  const links: LinkValue[] = [];
  let i = 0;
  const n = value.length;
  while (i < n) {
    const open = value.indexOf('<', i);
    if (open === -1) break;
    const close = value.indexOf('>', open + 1);
    if (close === -1) break;
    const uri = value.slice(open + 1, close).trim();
    i = close + 1;
    const params: Record<string, string> = {};
    // Parameters until the next top-level comma.
    while (i < n) {
      while (i < n && /\s/.test(value.charAt(i))) i++;
      if (value.charAt(i) === ',') {
        i++;
        break;
      }
      if (value.charAt(i) !== ';') {
        // Not a parameter: skip to the next comma outside quotes.
        i = skipToComma(value, i);
        break;
      }
      i++;
      while (i < n && /\s/.test(value.charAt(i))) i++;
      const nameStart = i;
      while (i < n && /[^\s=;,]/.test(value.charAt(i))) i++;
      const name = value.slice(nameStart, i).toLowerCase();
      while (i < n && /\s/.test(value.charAt(i))) i++;
      let paramValue = '';
      if (value.charAt(i) === '=') {
        i++;
        while (i < n && /\s/.test(value.charAt(i))) i++;
        if (value.charAt(i) === '"') {
          i++;
          let text = '';
          while (i < n && value.charAt(i) !== '"') {
            if (value.charAt(i) === '\\' && i + 1 < n) i++;
            text += value.charAt(i);
            i++;
          }
          i++;
          paramValue = text;
        } else {
          const start = i;
          while (i < n && /[^\s;,]/.test(value.charAt(i))) i++;
          paramValue = value.slice(start, i);
        }
      }
      if (name !== '' && !(name in params)) params[name] = paramValue;
    }
    const rels = (params.rel ?? '').split(/\s+/).filter((r) => r !== '');
    links.push({ uri, rels, params });
  }
  return links;
}

function skipToComma(value: string, from: number): number {
  let quoted = false;
  for (let i = from; i < value.length; i++) {
    const c = value.charAt(i);
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) return i + 1;
  }
  return value.length;
}

/** Targets of the links with relation `rel` (case-insensitive for registered names). */
export function linkTargets(links: readonly LinkValue[], rel: string): string[] {
  const wanted = rel.toLowerCase();
  return links.filter((l) => l.rels.some((r) => r.toLowerCase() === wanted)).map((l) => l.uri);
}
