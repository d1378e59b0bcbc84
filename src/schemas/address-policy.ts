import { BlockList, isIP } from 'node:net';

/**
 * Which addresses the vocabulary fetcher may connect to. Loopback, link-local, private, shared (CGNAT),
 * unspecified, multicast and reserved ranges are refused, so a namespace URI cannot make the service
 * reach inside its own network (server-side request forgery). IPv4-mapped and NAT64 IPv6 forms of a
 * refused IPv4 address are refused too. An operator can name hosts or addresses that are allowed anyway
 * (configuration `vocabularyFetchAllowedHosts`).
 */
const REFUSED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this" network
  ['10.0.0.0', 8], // RFC 1918
  ['100.64.0.0', 10], // shared address space (CGNAT)
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // RFC 1918
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.168.0.0', 16], // RFC 1918
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and 255.255.255.255
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const) {
  REFUSED.addSubnet(network, prefix, 'ipv6');
}

/** Removes the brackets of `[::1]` and an IPv6 zone (`fe80::1%eth0`). */
function bareAddress(address: string): string {
  return address.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
}

/** The IPv4 address embedded in an IPv4-mapped (`::ffff:a.b.c.d`) or NAT64 (`64:ff9b::/96`) address. */
function embeddedIpv4(ipv6: string): string | undefined {
  const lower = ipv6.toLowerCase();
  const dotted = /^(?:::ffff:|64:ff9b::)(\d+\.\d+\.\d+\.\d+)$/.exec(lower);
  if (dotted) return dotted[1];
  const hex = /^(?:::ffff:|64:ff9b::)([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(lower);
  if (!hex) return undefined;
  const high = parseInt(hex[1] ?? '0', 16);
  const low = parseInt(hex[2] ?? '0', 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an IP address (v4 or v6, textual) lies in a refused range. Anything that is not an IP is refused. */
export function isRefusedAddress(address: string): boolean {
  const bare = bareAddress(address);
  const family = isIP(bare);
  if (family === 4) return REFUSED.check(bare, 'ipv4');
  if (family !== 6) return true;
  if (REFUSED.check(bare, 'ipv6')) return true;
  const v4 = embeddedIpv4(bare);
  return v4 !== undefined && REFUSED.check(v4, 'ipv4');
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
