import { BlockList, isIP } from 'node:net';

/** What an address is, as far as a webhook may connect to it; only `public` is reachable by default. */
export type AddressClass =
  | 'public'
  | 'metadata'
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'cgnat'
  | 'multicast'
  | 'reserved';

/** The operator setting that opens ranges (and plain http to them); unset by default. */
export const ALLOWED_NETWORKS_VARIABLE = 'ANALYST_WEBHOOK_ALLOWED_NETWORKS';

/**
 * Cloud instance-metadata and host-agent addresses: refused even when an allowed range covers
 * them, because a request there can hand out the machine's credentials.
 */
const METADATA_ADDRESSES = [
  '169.254.169.254', // AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
  '169.254.170.2', // AWS ECS task metadata
  '169.254.170.23', // AWS EKS pod identity
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (classic)
  '168.63.129.16', // Azure WireServer
  'fd00:ec2::254', // AWS metadata over IPv6
  'fd00:ec2::23', // AWS EKS pod identity over IPv6
];

/** Ranges by class, the more specific first (`::1` is loopback before `::/96` is reserved). */
const RANGES: [AddressClass, string][] = [
  ['unspecified', '0.0.0.0/8'],
  ['unspecified', '::/128'],
  ['loopback', '127.0.0.0/8'],
  ['loopback', '::1/128'],
  ['private', '10.0.0.0/8'],
  ['private', '172.16.0.0/12'],
  ['private', '192.168.0.0/16'],
  ['private', 'fc00::/7'], // unique local
  ['private', 'fec0::/10'], // site-local (deprecated)
  ['private', '64:ff9b:1::/48'], // local-use NAT64
  ['cgnat', '100.64.0.0/10'],
  ['link_local', '169.254.0.0/16'],
  ['link_local', 'fe80::/10'],
  ['multicast', '224.0.0.0/4'],
  ['multicast', 'ff00::/8'],
  ['reserved', '192.0.0.0/24'], // IETF protocol assignments
  ['reserved', '192.0.2.0/24'], // documentation
  ['reserved', '198.18.0.0/15'], // benchmarking
  ['reserved', '198.51.100.0/24'],
  ['reserved', '203.0.113.0/24'],
  ['reserved', '240.0.0.0/4'], // future use and broadcast
  ['reserved', '::/96'], // IPv4-compatible (deprecated)
  ['reserved', '100::/64'], // discard
  ['reserved', '2001::/32'], // Teredo: the IPv4 inside is obfuscated, and no receiver needs it
  ['reserved', '2001:db8::/32'], // documentation
];

type Family = 'ipv4' | 'ipv6';

/** The address without an IPv6 zone id (`fe80::1%eth0`). */
const withoutZone = (address: string) => address.split('%')[0];

function familyOf(address: string): Family | null {
  const version = isIP(withoutZone(address));
  return version === 4 ? 'ipv4' : version === 6 ? 'ipv6' : null;
}

/** `10.0.0.0/8`, `fd00::/8`, or a bare address (one host); throws with the entry on anything else. */
function addCidr(list: BlockList, cidr: string): void {
  const [address, prefixText, extra] = cidr.split('/');
  const family = familyOf(address);
  const bits = family === 'ipv4' ? 32 : 128;
  const prefix = prefixText === undefined ? bits : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!family || extra !== undefined || !(prefix >= 0 && prefix <= bits))
    throw new Error(`${ALLOWED_NETWORKS_VARIABLE}: '${cidr}' is not an IPv4 or IPv6 CIDR such as 10.0.0.0/8`);
  list.addSubnet(address, prefix, family);
}

const METADATA = new BlockList();
for (const address of METADATA_ADDRESSES) addCidr(METADATA, address);
const CLASSES = RANGES.map(([cls, cidr]) => {
  const list = new BlockList();
  addCidr(list, cidr);
  return { cls, list };
});

/** The eight 16-bit groups of an IPv6 address (zone id dropped), via the URL parser's canonical form. */
function ipv6Groups(address: string): number[] {
  const canonical = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  const [head, tail] = canonical.split('::');
  const parse = (part: string | undefined) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  return tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill(0), ...right];
}

const dotted = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

/** The IPv4 address a translation prefix carries (NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
function embeddedIPv4(address: string): string | null {
  const g = ipv6Groups(address);
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return dotted(g[6], g[7]);
  if (g[0] === 0x2002) return dotted(g[1], g[2]);
  return null;
}

/**
 * The class of an IP address (IPv4, IPv6, or IPv4-mapped IPv6, which Node's BlockList matches
 * against the IPv4 ranges); null when it is not an IP address.
 */
export function classifyAddress(address: string): AddressClass | null {
  const family = familyOf(address);
  if (!family) return null;
  const bare = withoutZone(address);
  if (METADATA.check(bare, family)) return 'metadata';
  const known = CLASSES.find(({ list }) => list.check(bare, family));
  if (known) return known.cls;
  const inner = family === 'ipv6' ? embeddedIPv4(bare) : null;
  return inner ? (classifyAddress(inner) ?? 'public') : 'public';
}

export interface WebhookNetworkPolicy {
  /** The ranges the operator opened, as given; empty by default. */
  allowedNetworks: readonly string[];
  allowed: BlockList;
}

/** The policy of a comma-separated CIDR list (the variable's value); throws on an entry that is not one. */
export function webhookNetworkPolicy(allowedNetworks: string | undefined): WebhookNetworkPolicy {
  const entries = (allowedNetworks ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const allowed = new BlockList();
  for (const cidr of entries) addCidr(allowed, cidr);
  return { allowedNetworks: entries, allowed };
}

export function webhookNetworkPolicyFromEnv(env: NodeJS.ProcessEnv = process.env): WebhookNetworkPolicy {
  return webhookNetworkPolicy(env[ALLOWED_NETWORKS_VARIABLE]);
}

export type AddressVerdict =
  | { ok: true; address: string; class: AddressClass }
  | { ok: false; address: string; class: AddressClass | null; reason: string };

/**
 * Whether a webhook may connect to `address` over `protocol`: public addresses over https; an
 * allowed range's addresses over https or http; metadata addresses never.
 */
export function checkAddress(
  address: string,
  policy: WebhookNetworkPolicy,
  protocol: 'https:' | 'http:',
): AddressVerdict {
  const cls = classifyAddress(address);
  if (cls === null) return { ok: false, address, class: null, reason: `${address} is not an IP address` };
  if (cls === 'metadata')
    return { ok: false, address, class: cls, reason: `${address} is a cloud metadata address` };
  const opened = policy.allowed.check(withoutZone(address), familyOf(address) as Family);
  if (opened || (cls === 'public' && protocol === 'https:')) return { ok: true, address, class: cls };
  const reason =
    cls === 'public'
      ? `plain http is allowed only to ${ALLOWED_NETWORKS_VARIABLE}, which does not cover ${address}`
      : `${address} is a ${cls.replace('_', '-')} address`;
  return { ok: false, address, class: cls, reason };
}
