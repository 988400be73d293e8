import { describe, expect, it } from 'vitest';
import { nonPublicReason } from './address-guard';

describe('nonPublicReason', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['0.0.0.0', 'unspecified ("this network")'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['100.64.0.1', 'carrier-grade NAT (shared)'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved or broadcast'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['[::1]', 'loopback'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'private (unique local)'],
    ['fd12:3456::1', 'private (unique local)'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback (IPv4-mapped 127.0.0.1)'],
    ['::ffff:7f00:1', 'loopback (IPv4-mapped 127.0.0.1)'],
    ['::ffff:10.0.0.1', 'private (IPv4-mapped 10.0.0.1)'],
    ['::127.0.0.1', 'loopback (IPv4-compatible 127.0.0.1)'],
    ['64:ff9b::a9fe:a9fe', 'link-local (NAT64 169.254.169.254)'],
    ['2002:7f00:1::', 'loopback (6to4 127.0.0.1)'],
    ['localhost', 'not an IP address'],
  ])('%s is %s', (address, reason) => {
    expect(nonPublicReason(address)).toBe(reason);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '2002:808:808::',
  ])('%s is public', (address) => {
    expect(nonPublicReason(address)).toBeUndefined();
  });
});
