import { BlockList, isIP } from 'node:net';
import { ConfigError } from './config-error';

/** One `address[/prefix]` entry of ANALYST_TRUST_PROXY, or null when it is not one. */
function parseCidr(entry: string): { address: string; prefix: number; type: 'ipv4' | 'ipv6' } | null {
  const [address, prefixText, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return null;
  const max = family === 4 ? 32 : 128;
  const prefix = prefixText === undefined ? max : /^\d{1,3}$/.test(prefixText) ? Number(prefixText) : NaN;
  if (!(prefix >= 0 && prefix <= max)) return null;
  return { address, prefix, type: family === 4 ? 'ipv4' : 'ipv6' };
}

/**
 * The trust test for a socket peer (and each further X-Forwarded-For hop), from ANALYST_TRUST_PROXY;
 * null when nothing is trusted. IPv4-mapped IPv6 peers (`::ffff:10.0.0.1`) match IPv4 ranges.
 */
export function trustedProxies(list: string | undefined): ((address: string) => boolean) | null {
  const entries = (list ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  if (entries.length === 0) return null;
  const blocks = new BlockList();
  for (const entry of entries) {
    const cidr = parseCidr(entry);
    if (!cidr) throw new ConfigError(`ANALYST_TRUST_PROXY: "${entry}" is not an IP address or CIDR range`);
    blocks.addSubnet(cidr.address, cidr.prefix, cidr.type);
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && blocks.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}
