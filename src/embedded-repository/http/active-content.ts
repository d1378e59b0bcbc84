/**
 * Which stored media types a browser could execute (issue 8, finding 8). Binaries are served from the
 * service's own origin, where the API and the repository's Basic credentials live; such types are only
 * ever answered as attachments, whatever `?inline=true` asks.
 */

/** `type/subtype` with RFC 9110 token characters, then optional parameters (no commas anywhere). */
const SINGLE_MEDIA_TYPE = /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+(\s*;[^,]*)?$/;

const ACTIVE_ESSENCES = new Set([
  'text/html',
  'text/xsl',
  'text/x-component', // HTC behaviours (old IE)
  'text/vnd.wap.wml',
  'text/cache-manifest',
  'application/x-shockwave-flash',
  'application/futuresplash',
  'application/java-archive',
  'application/x-java-applet',
  'application/hta',
  'application/x-ms-application',
  'application/wasm',
]);

/**
 * True when `mediaType` is HTML, XHTML, SVG, any XML (`*\/xml`, `*+xml`), JavaScript/ECMAScript or another
 * type a browser or plug-in may run, and also when it is not one well-formed media type: browsers read
 * a comma-separated Content-Type by its last valid entry, so anything unusual is treated as active.
 */
export function isActiveMediaType(mediaType: string): boolean {
  const value = mediaType.trim().toLowerCase();
  if (!SINGLE_MEDIA_TYPE.test(value)) return true;
  const essence = value.split(';')[0]?.trim() ?? '';
  const [type = '', subtype = ''] = essence.split('/');
  if (ACTIVE_ESSENCES.has(essence)) return true;
  if (subtype === 'xml' || subtype.endsWith('+xml') || subtype.endsWith('-xml')) return true;
  // javascript, ecmascript, jscript, livescript, vbscript…: every script type, x- prefixed or not.
  if (subtype.includes('script')) return true;
  if (subtype.includes('html')) return true;
  // multipart/x-mixed-replace and friends can swap an innocent part for an active one.
  return type === 'multipart';
}

/**
 * Headers every answer of the embedded repository carries: whatever a browser renders from /rest runs in
 * an opaque origin without scripts, and is never sniffed into something more active than it says.
 */
export const REPOSITORY_SAFETY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': 'sandbox',
  'x-content-type-options': 'nosniff',
};
