import { type LookupAddress, type LookupAllOptions, lookup as dnsLookup } from 'node:dns';
import { BlockList, type LookupFunction, isIP } from 'node:net';
import type { Config } from '@lib/config/config';
import { BadInputError } from '@lib/errors/app-error';

/** Addresses no outbound URL may reach (docs/decisions/0031-webhooks-and-job-queue.md), each with the reason a refusal names. */
const FORBIDDEN_RANGES: readonly (readonly [string, number, string])[] = [
  ['0.0.0.0', 8, 'unspecified'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'shared (CGNAT)'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local (cloud metadata)'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'reserved'],
  ['192.0.2.0', 24, 'documentation'],
  ['192.88.99.0', 24, 'reserved'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'reserved'],
  ['198.51.100.0', 24, 'documentation'],
  ['203.0.113.0', 24, 'documentation'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved (broadcast)'],
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'reserved (IPv4-compatible)'],
  ['64:ff9b:1::', 48, 'reserved (local NAT64)'],
  ['100::', 64, 'reserved (discard)'],
  ['2001::', 23, 'reserved'],
  ['2001:db8::', 32, 'documentation'],
  ['3fff::', 20, 'documentation'],
  ['fc00::', 7, 'private'],
  ['fe80::', 10, 'link-local'],
  ['fec0::', 10, 'reserved (site-local)'],
  ['ff00::', 8, 'multicast'],
];

/** Names of cloud metadata services and private name spaces (a name without a dot is refused too). */
const FORBIDDEN_NAMES = ['metadata.google.internal', 'metadata.goog', 'instance-data.ec2.internal'];
const FORBIDDEN_SUFFIXES = ['.internal', '.local', '.localdomain', '.home.arpa', '.lan'];
/** `localhost` names are loopback by definition (RFC 6761): they are checked as these addresses. */
const LOOPBACK_ADDRESSES = ['127.0.0.1', '::1'];

const MAX_URL_LENGTH = 2048;

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');
const subnet = (network: string, prefix: number) => {
  const list = new BlockList();
  list.addSubnet(network, prefix, family(network));
  return list;
};
const FORBIDDEN = FORBIDDEN_RANGES.map(([network, prefix, reason]) => ({ range: subnet(network, prefix), reason }));

/** The eight 16-bit words of an IPv6 address (a dotted IPv4 tail included). */
function ipv6Words(address: string): number[] {
  const [head, tail] = address.split('::');
  const words = (part: string | undefined) =>
    !part
      ? []
      : part.split(':').flatMap((w) => {
          if (!w.includes('.')) return [parseInt(w, 16)];
          const [a, b, c, d] = w.split('.').map(Number);
          return [(a << 8) | b, (c << 8) | d];
        });
  const [first, last] = [words(head), words(tail)];
  return tail === undefined ? first : [...first, ...Array<number>(8 - first.length - last.length).fill(0), ...last];
}

const ipv4Of = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

/** The IPv4 address a NAT64 (64:ff9b::/96) or 6to4 (2002::/16) address carries, else null. */
function embeddedIpv4(address: string): string | null {
  const w = ipv6Words(address);
  if (w[0] === 0x64 && w[1] === 0xff9b && w[2] === 0 && w[3] === 0 && w[4] === 0 && w[5] === 0) return ipv4Of(w[6], w[7]);
  if (w[0] === 0x2002) return ipv4Of(w[1], w[2]);
  return null;
}

/** A connection refused by the policy (at delivery, after resolving the host). */
export class OutboundRefusedError extends Error {
  readonly code = 'OUTBOUND_REFUSED';
}

type Resolver = (hostname: string, options: LookupAllOptions, callback: (err: Error | null, addresses: LookupAddress[]) => void) => void;

/**
 * Which URLs we call on a tenant's or operator's behalf (bank webhook endpoints): absolute http(s) (https in
 * production), no credentials, and never to a loopback, private, link-local (cloud metadata), shared, reserved,
 * documentation, multicast or unspecified address, in any spelling (the WHATWG URL parser turns decimal, octal, hex
 * and short IPv4 into dotted form; IPv4-mapped, NAT64 and 6to4 IPv6 are checked by the IPv4 they carry), nor to a
 * metadata or private name. `OUTBOUND_ALLOW_CIDRS` exempts ranges (local receivers in development and tests).
 * `check` runs when a URL is set and before every call; `lookup`, the connection's resolver, refuses a host that
 * resolves to a forbidden address and hands the connection the very addresses it checked (no DNS rebinding between
 * the check and the connect).
 */
export class OutboundUrlPolicy {
  private readonly allowed = new BlockList();

  constructor(
    private readonly settings: Config['outboundUrls'],
    private readonly resolve: Resolver = dnsLookup,
  ) {
    for (const cidr of settings.allowCidrs) {
      const [network, prefix] = cidr.split('/');
      this.allowed.addSubnet(network, Number(prefix), family(network));
    }
  }

  /** The URL, parsed and normalised, if it may be called; otherwise a BadInputError naming `field`. */
  check(url: string, field = 'url'): URL {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new BadInputError(`${field} must be an absolute http(s) URL`);
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new BadInputError(`${field} must be an absolute http(s) URL`);
    if (this.settings.requireHttps && parsed.protocol !== 'https:') throw new BadInputError(`${field} must use https in production`);
    if (parsed.username || parsed.password) throw new BadInputError(`${field} must not carry credentials`);
    if (parsed.href.length > MAX_URL_LENGTH) throw new BadInputError(`${field} must be at most ${MAX_URL_LENGTH} characters`);
    const refusal = this.hostRefusal(parsed.hostname);
    if (refusal) throw new BadInputError(`${field} must not point to ${refusal}`);
    return parsed;
  }

  /** Why `address` (an IP address) may not be connected to, or null. */
  addressRefusal(address: string): string | null {
    const kind = family(address);
    if (this.allowed.check(address, kind)) return null;
    const forbidden = FORBIDDEN.find(({ range }) => range.check(address, kind));
    if (forbidden) return `${address} (${forbidden.reason})`;
    const carried = kind === 'ipv6' ? embeddedIpv4(address) : null;
    const refusal = carried && this.addressRefusal(carried);
    return refusal ? `${address}, which carries ${refusal}` : null;
  }

  /** A `lookup` for net/tls connections: every address the host resolves to must pass, and those are used. */
  readonly lookup: LookupFunction = (hostname, options, callback) => {
    this.resolve(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 4);
      const refused = addresses.map((a) => this.addressRefusal(a.address)).find((r) => r !== null);
      if (refused) return callback(new OutboundRefusedError(`refused: ${hostname} resolves to ${refused}`), '', 4);
      if (addresses.length === 0) return callback(new OutboundRefusedError(`refused: ${hostname} resolves to no address`), '', 4);
      if (options.all) (callback as unknown as (e: null, all: LookupAddress[]) => void)(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  };

  private hostRefusal(hostname: string): string | null {
    const host = hostname.replace(/^\[|\]$/g, '');
    if (isIP(host)) return this.addressRefusal(host);
    const name = host.replace(/\.$/, '');
    if (name === 'localhost' || name.endsWith('.localhost')) {
      const refused = LOOPBACK_ADDRESSES.map((a) => this.addressRefusal(a)).find((r) => r !== null);
      return refused ? `${name} (loopback)` : null;
    }
    if (!name.includes('.') || FORBIDDEN_NAMES.includes(name) || FORBIDDEN_SUFFIXES.some((s) => name.endsWith(s)))
      return `${name} (a metadata or private name)`;
    return null;
  }
}
