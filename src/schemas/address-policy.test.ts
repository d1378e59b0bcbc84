import { describe, expect, it } from 'vitest';
import { AddressPolicy, isRefusedAddress } from './address-policy.js';

const REFUSED: [string, string][] = [
  ['0.0.0.0', 'this network'],
  ['0.1.2.3', 'this network'],
  ['10.0.0.1', 'RFC 1918'],
  ['10.255.255.255', 'RFC 1918'],
  ['100.64.0.1', 'CGNAT'],
  ['100.127.255.254', 'CGNAT'],
  ['127.0.0.1', 'loopback'],
  ['127.255.0.9', 'loopback'],
  ['169.254.169.254', 'link-local (cloud metadata)'],
  ['172.16.0.1', 'RFC 1918'],
  ['172.31.255.255', 'RFC 1918'],
  ['192.168.1.1', 'RFC 1918'],
  ['224.0.0.1', 'multicast'],
  ['255.255.255.255', 'broadcast'],
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['[::1]', 'loopback in brackets'],
  ['fc00::1', 'unique local'],
  ['fd12:3456:789a::1', 'unique local'],
  ['fe80::1', 'link-local'],
  ['fe80::1%eth0', 'link-local with a zone'],
  ['ff02::1', 'multicast'],
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback, hex'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'],
  ['::FFFF:169.254.169.254', 'IPv4-mapped link-local, upper case'],
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::192.168.0.1', 'NAT64 of private'],
  ['not-an-address', 'not an IP at all'],
  ['', 'empty'],
  // Issue 8, finding 15: forms the hand list missed.
  ['::7f00:1', 'IPv4-compatible loopback (::/96)'],
  ['::127.0.0.1', 'IPv4-compatible loopback, dotted'],
  ['::a00:1', 'IPv4-compatible private'],
  ['::808:808', 'IPv4-compatible, even of a public address (deprecated form)'],
  ['0:0:0:0:0:ffff:7f00:1', 'IPv4-mapped loopback, written out'],
  ['::ffff:0:7f00:1', 'IPv4-translated loopback (::ffff:0:0:0/96)'],
  ['::ffff:0:127.0.0.1', 'IPv4-translated loopback, dotted'],
  ['::ffff:0.0.0.0', 'IPv4-mapped "this network"'],
  ['::ffff:100.64.0.1', 'IPv4-mapped CGNAT'],
  ['::ffff:192.0.2.1', 'IPv4-mapped documentation'],
  ['64:ff9b::a9fe:a9fe', 'NAT64 of link-local (cloud metadata), hex'],
  ['64:ff9b::100.64.0.1', 'NAT64 of CGNAT'],
  ['64:ff9b:1::a00:1', 'local-use NAT64 (64:ff9b:1::/48)'],
  ['64:ff9b:1::808:808', 'local-use NAT64, whatever it embeds'],
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:a00:1::1', '6to4 of private'],
  ['2002:808:808::1', '6to4 (2002::/16), whatever it embeds'],
  ['2001::1', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:db8::1', 'documentation'],
  ['2001:2::1', 'benchmarking'],
  ['2001:10::1', 'ORCHID (deprecated)'],
  ['2001:20::1', 'ORCHIDv2'],
  ['2001:4:112::1', 'AS112'],
  ['100::1', 'discard-only'],
  ['fec0::1', 'site-local'],
  ['4000::1', 'outside global unicast 2000::/3'],
  ['::2', 'outside global unicast 2000::/3'],
  ['192.0.0.8', 'IETF protocol assignments'],
  ['192.0.2.1', 'documentation (TEST-NET-1)'],
  ['198.51.100.7', 'documentation (TEST-NET-2)'],
  ['203.0.113.9', 'documentation (TEST-NET-3)'],
  ['198.18.0.1', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['192.88.99.1', '6to4 relay anycast'],
  ['240.0.0.1', 'reserved'],
  ['192.175.48.1', 'AS112'],
];

const ALLOWED: [string, string][] = [
  ['8.8.8.8', 'public'],
  ['93.184.216.34', 'public'],
  ['100.63.255.255', 'just below CGNAT'],
  ['100.128.0.0', 'just above CGNAT'],
  ['172.15.255.255', 'just below 172.16/12'],
  ['172.32.0.0', 'just above 172.16/12'],
  ['169.253.255.255', 'just below link-local'],
  ['2001:4860:4860::8888', 'public IPv6'],
  ['2606:4700::1111', 'public IPv6'],
  ['::ffff:8.8.8.8', 'IPv4-mapped public'],
  ['64:ff9b::808:808', 'NAT64 of public'],
  ['64:ff9b::8.8.8.8', 'NAT64 of public, dotted'],
  ['2a00:1450:4001:80b::200e', 'public IPv6'],
  ['1.1.1.1', 'public'],
  ['198.17.255.255', 'just below benchmarking'],
  ['198.20.0.0', 'just above benchmarking'],
];

describe('isRefusedAddress', () => {
  it.each(REFUSED)('refuses %s (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(true);
  });
  it.each(ALLOWED)('allows %s (%s)', (address) => {
    expect(isRefusedAddress(address)).toBe(false);
  });
});

describe('AddressPolicy', () => {
  it('allows public addresses whatever the allow-list', () => {
    expect(new AddressPolicy().allows('example.org', '93.184.216.34')).toBe(true);
  });

  it('allows a refused address only when its host name or the address is listed', () => {
    const policy = new AddressPolicy(['Vocab.Internal', '127.0.0.1', '[::1]']);
    expect(policy.allows('vocab.internal', '10.1.2.3')).toBe(true);
    expect(policy.allows('VOCAB.INTERNAL', '10.1.2.3')).toBe(true);
    expect(policy.allows('other.internal', '10.1.2.3')).toBe(false);
    expect(policy.allows('localhost', '127.0.0.1')).toBe(true);
    expect(policy.allows('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(policy.allows('::1', '::1')).toBe(true);
    expect(policy.allows('localhost', '127.0.0.2')).toBe(false);
    expect(new AddressPolicy().allows('localhost', '127.0.0.1')).toBe(false);
  });

  it('allows the newly refused forms only when listed', () => {
    const policy = new AddressPolicy(['2002:7f00:1::', 'nat64.internal']);
    expect(policy.allows('2002:7f00:1::', '2002:7f00:1::')).toBe(true);
    expect(policy.allows('nat64.internal', '64:ff9b:1::a00:1')).toBe(true);
    expect(policy.allows('other.internal', '64:ff9b:1::a00:1')).toBe(false);
    expect(new AddressPolicy().allows('example.org', '::7f00:1')).toBe(false);
  });
});
