import ipaddr from 'ipaddr.js';

/**
 * The key by which per-client limits count a request's remote address: an IPv4 address as is (also when
 * it arrives IPv4-mapped, `::ffff:a.b.c.d`), an IPv6 address by its /64 — one host usually holds a whole
 * /64, so counting single IPv6 addresses would let it rotate through them. Anything unparsable (no
 * socket address) is its own key.
 */
export function clientKey(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return (address ?? 'unknown').slice(0, 64);
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toString()}/64`;
}
