import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP, type LookupFunction } from 'node:net';
import { checkAddress, type AddressVerdict, type WebhookNetworkPolicy } from './address-policy';

/** Every address a host name resolves to (the resolver the HTTP agent would use, injectable for tests). */
export type ResolveAll = (hostname: string) => Promise<LookupAddress[]>;

export const systemResolveAll: ResolveAll = (hostname) =>
  new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) =>
      error ? reject(error) : resolve(addresses),
    ),
  );

/** Metadata services reached by name; refused before any lookup, whatever they resolve to. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
]);

export type UrlRefusalReason =
  | 'invalid_url'
  | 'scheme_not_allowed'
  | 'credentials_in_url'
  | 'metadata_host'
  | 'unresolvable'
  | 'address_refused';

export type UrlCheck =
  { ok: true; url: URL; addresses: string[] } | { ok: false; reason: UrlRefusalReason; message: string };

/** A URL as far as it can be judged without DNS: its scheme, credentials and host. */
export type UrlShape =
  | { ok: true; url: URL; protocol: 'https:' | 'http:'; hostname: string; literal: boolean }
  | { ok: false; reason: UrlRefusalReason; message: string };

const refuse = (reason: UrlRefusalReason, message: string) => ({ ok: false as const, reason, message });

export function checkUrlShape(raw: string, policy: WebhookNetworkPolicy): UrlShape {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('invalid_url', 'the url is not an absolute URL');
  }
  const httpAllowed = policy.allowedNetworks.length > 0;
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && httpAllowed))
    return refuse('scheme_not_allowed', `the url must use https, not ${url.protocol.replace(':', '')}`);
  // A secret belongs in the signature; a URL is shown back in endpoint lists and delivery logs.
  if (url.username || url.password) return refuse('credentials_in_url', 'the url must not carry credentials');
  // The URL parser has already read decimal, octal and hex IPv4 forms (https://2130706433/) as dotted.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.$/, '');
  if (METADATA_HOSTS.has(hostname)) return refuse('metadata_host', `${hostname} is a cloud metadata service`);
  return {
    ok: true,
    url,
    protocol: url.protocol as 'https:' | 'http:',
    hostname,
    literal: isIP(hostname) !== 0,
  };
}

function refusedAddress(verdicts: AddressVerdict[]): AddressVerdict | undefined {
  return verdicts.find((v) => !v.ok);
}

/**
 * The registration check: the URL's shape, then every address its host resolves to (one refused
 * address refuses the URL: a name that also points inside is not an endpoint).
 */
export async function checkWebhookUrl(
  raw: string,
  policy: WebhookNetworkPolicy,
  resolveAll: ResolveAll = systemResolveAll,
): Promise<UrlCheck> {
  const shape = checkUrlShape(raw, policy);
  if (!shape.ok) return shape;
  let addresses: string[];
  if (shape.literal) addresses = [shape.hostname];
  else {
    try {
      addresses = (await resolveAll(shape.hostname)).map((a) => a.address);
    } catch (error) {
      return refuse('unresolvable', `${shape.hostname} does not resolve (${(error as Error).message})`);
    }
    if (addresses.length === 0) return refuse('unresolvable', `${shape.hostname} has no address`);
  }
  const refused = refusedAddress(addresses.map((a) => checkAddress(a, policy, shape.protocol)));
  if (refused && !refused.ok) return refuse('address_refused', refused.reason);
  return { ok: true, url: shape.url, addresses };
}

/** A connection refused by the guard at connect time; what the sender reports as `address_refused`. */
export class WebhookAddressRefusedError extends Error {
  override readonly name = 'WebhookAddressRefusedError';
  readonly code = 'EWEBHOOKADDRESSREFUSED';
}

/**
 * The `lookup` for the HTTP agent: it resolves as the agent would, then refuses the connection
 * when any address is refused, so a name that passed at registration and now resolves inside
 * (DNS rebinding) never gets a socket. IP literals never reach a lookup; the sender checks them.
 */
export function guardedLookup(
  policy: WebhookNetworkPolicy,
  protocol: 'https:' | 'http:',
  resolveAll: ResolveAll = systemResolveAll,
): LookupFunction {
  return (hostname: string, options: LookupOptions, callback) => {
    resolveAll(hostname).then(
      (found) => {
        const family = options.family === 4 || options.family === 6 ? options.family : null;
        const addresses = family ? found.filter((a) => a.family === family) : found;
        const refused = refusedAddress(addresses.map((a) => checkAddress(a.address, policy, protocol)));
        if (refused && !refused.ok)
          return callback(new WebhookAddressRefusedError(`${hostname}: ${refused.reason}`), '');
        if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`${hostname} has no address`);
          error.code = 'ENOTFOUND';
          return callback(error, '');
        }
        if (options.all) return callback(null, addresses);
        return callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
