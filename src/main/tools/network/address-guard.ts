// Which IP addresses fetch_url may connect to. Anything that reaches this machine or the local
// network (loopback, private, link-local, unspecified, CGNAT, ULA, multicast, and IPv6 forms that
// embed such an IPv4 address) is refused unless the person allowed private networks.
import { isIP } from 'node:net';

/** Why `address` is not public (e.g. "loopback"), or undefined when it is a public address. */
export function nonPublicReason(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  switch (isIP(plain)) {
    case 4:
      return ipv4Reason(ipv4Bytes(plain));
    case 6:
      return ipv6Reason(plain);
    default:
      return 'not an IP address';
  }
}

function ipv4Bytes(address: string): number[] {
  return address.split('.').map(Number);
}

function ipv4Reason(bytes: readonly number[]): string | undefined {
  const [a = 0, b = 0, c = 0] = bytes;
  if (a === 0) return 'unspecified ("this network")';
  if (a === 127) return 'loopback';
  if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return 'private';
  if (a === 169 && b === 254) return 'link-local';
  if (a === 100 && b >= 64 && b <= 127) return 'carrier-grade NAT (shared)';
  if (a === 192 && b === 0 && c === 0) return 'IETF protocol assignment';
  if (a === 198 && (b === 18 || b === 19)) return 'benchmarking';
  if (a >= 224 && a <= 239) return 'multicast';
  if (a >= 240) return 'reserved or broadcast';
  return undefined;
}

/** Eight 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail handled). */
function ipv6Groups(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = ipv4Bytes(dotted[1]);
    text =
      text.slice(0, -dotted[1].length) +
      `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

function ipv6Reason(address: string): string | undefined {
  const g = ipv6Groups(address);
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const embedded = () => [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  const firstSix = [g0, g1, g2, g3, g4, g5];
  if (firstSix.every((x) => x === 0)) {
    if (g6 === 0 && g7 === 0) return 'unspecified';
    if (g6 === 0 && g7 === 1) return 'loopback';
    return mapped('IPv4-compatible', embedded()); // ::a.b.c.d (deprecated)
  }
  if (g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff) {
    return mapped('IPv4-mapped', embedded());
  }
  if (g0 === 0x64 && g1 === 0xff9b) return mapped('NAT64', embedded());
  if (g0 === 0x2002) return mapped('6to4', [g1 >> 8, g1 & 0xff, g2 >> 8, g2 & 0xff]);
  if ((g0 & 0xfe00) === 0xfc00) return 'private (unique local)';
  if ((g0 & 0xffc0) === 0xfe80) return 'link-local';
  if ((g0 & 0xffc0) === 0xfec0) return 'site-local';
  if ((g0 & 0xff00) === 0xff00) return 'multicast';
  return undefined;
}

function mapped(form: string, v4: number[]): string | undefined {
  const reason = ipv4Reason(v4);
  return reason ? `${reason} (${form} ${v4.join('.')})` : undefined;
}
