import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Which addresses the vocabulary fetcher may connect to: only global unicast ones, so a namespace URI
 * cannot make the service reach inside its own network (server-side request forgery). The ranges come
 * from ipaddr.js (IANA special-purpose registries) rather than a hand-written list: IPv4 must be
 * `unicast` (not private, loopback, link-local, carrier-grade NAT, "this network", documentation,
 * benchmarking, multicast, broadcast, reserved, AS112, AMT); IPv6 must be `unicast` and inside 2000::/3
 * (not unique local, link-local, site-local, multicast, discard, documentation, benchmarking, ORCHID,
 * Teredo, 6to4, AS112, AMT, and nothing outside 2000::/3). IPv6 forms that carry the IPv4 address the
 * connection really reaches — IPv4-mapped `::ffff:a.b.c.d` and NAT64 `64:ff9b::a.b.c.d` — are judged by
 * that IPv4 address; the other transition forms (IPv4-compatible `::a.b.c.d`, IPv4-translated
 * `::ffff:0:a.b.c.d`, local-use NAT64 `64:ff9b:1::/48`, 6to4, Teredo) are refused whatever they embed.
 * An operator can name hosts or addresses that are allowed anyway (configuration
 * `vocabularyFetchAllowedHosts`).
 */
const GLOBAL_UNICAST_V6 = ipaddr.IPv6.parseCIDR('2000::/3');
/** The well-known NAT64 prefix (RFC 6052): its last 32 bits are the IPv4 address reached. */
const NAT64_WELL_KNOWN = ipaddr.IPv6.parseCIDR('64:ff9b::/96');

/** Removes the brackets of `[::1]` and an IPv6 zone (`fe80::1%eth0`). */
function bareAddress(address: string): string {
  return address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
}

function isGlobalIpv4(address: ipaddr.IPv4): boolean {
  return address.range() === 'unicast';
}

function isGlobalIpv6(address: ipaddr.IPv6): boolean {
  if (address.isIPv4MappedAddress()) return isGlobalIpv4(address.toIPv4Address());
  if (address.match(NAT64_WELL_KNOWN)) {
    const [high = 0, low = 0] = address.parts.slice(6);
    return isGlobalIpv4(new ipaddr.IPv4([high >> 8, high & 255, low >> 8, low & 255]));
  }
  return address.range() === 'unicast' && address.match(GLOBAL_UNICAST_V6);
}

/** Whether an IP address (v4 or v6, textual) is refused: anything but global unicast, and anything not an IP. */
export function isRefusedAddress(address: string): boolean {
  const bare = bareAddress(address);
  // Only the standard notations (no `127.1` or `0x7f.0.0.1`, which ipaddr.js would also read).
  if (isIP(bare) === 0) return true;
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(bare);
  } catch {
    return true;
  }
  return parsed.kind() === 'ipv4'
    ? !isGlobalIpv4(parsed as ipaddr.IPv4)
    : !isGlobalIpv6(parsed as ipaddr.IPv6);
}

/** Host names and addresses an operator allowed, compared case-insensitively and without brackets. */
export class AddressPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(allowedHosts: readonly string[] = []) {
    this.allowed = new Set(allowedHosts.map((host) => bareAddress(host.trim().toLowerCase())));
  }

  /**
   * Whether connecting to `address`, reached through `hostname`, is allowed: a public address always is;
   * a refused one only when the host name or the address itself is on the allow-list.
   */
  allows(hostname: string, address: string): boolean {
    if (!isRefusedAddress(address)) return true;
    return (
      this.allowed.has(bareAddress(hostname.toLowerCase())) ||
      this.allowed.has(bareAddress(address.toLowerCase()))
    );
  }
}
