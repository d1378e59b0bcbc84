/** The file name a Content-Disposition header gives (RFC 6266 `filename*` first), else `fallback`. */
export function filenameOf(disposition: string | null, fallback = 'download'): string {
  if (disposition === null) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(disposition);
  if (extended?.[1] !== undefined) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // fall through to the plain parameter
    }
  }
  const plain = /filename\s*=\s*"?([^";]+)"?/.exec(disposition);
  const name = plain?.[1]?.trim() ?? '';
  return name === '' ? fallback : name;
}
