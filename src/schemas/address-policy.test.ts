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
});
