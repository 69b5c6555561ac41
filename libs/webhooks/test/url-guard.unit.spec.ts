import type { LookupAddress } from 'node:dns';
import {
  checkAddress,
  checkWebhookUrl,
  classifyAddress,
  guardedLookup,
  WebhookAddressRefusedError,
  webhookNetworkPolicy,
  webhookNetworkPolicyFromEnv,
  type ResolveAll,
} from '../src';

const DEFAULT = webhookNetworkPolicy(undefined);
const PUBLIC_V4 = '93.184.215.14';
const PUBLIC_V6 = '2606:4700:4700::1111';

/** A resolver answering from a table, as DNS would; a name not in it does not resolve. */
function resolverOf(table: Record<string, string[]>): ResolveAll & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    calls.push(hostname);
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { calls });
}

describe('classifyAddress', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.0.0.0', 'private'],
    ['10.255.255.255', 'private'],
    ['172.16.5.4', 'private'],
    ['172.32.0.1', 'public'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.255', 'cgnat'],
    ['169.254.169.254', 'metadata'],
    ['169.254.170.2', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['169.254.1.1', 'link_local'],
    ['224.0.0.1', 'multicast'],
    ['239.255.255.250', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.1', 'reserved'],
    [PUBLIC_V4, 'public'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00::1', 'private'],
    ['fc00::1', 'private'],
    ['fe80::1', 'link_local'],
    ['fe80::1%eth0', 'link_local'],
    ['ff02::1', 'multicast'],
    ['fd00:ec2::254', 'metadata'],
    [PUBLIC_V6, 'public'],
    // IPv4-mapped IPv6, dotted and hex, and the translation prefixes: the IPv4 inside decides
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['0:0:0:0:0:ffff:7f00:0001', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    [`::ffff:${PUBLIC_V4}`, 'public'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::808:808', 'public'],
    ['2002:7f00:1::', 'loopback'],
    ['2002:0a00:0001::1', 'private'],
    ['::127.0.0.1', 'reserved'],
  ])('%s is %s', (address, cls) => {
    expect(classifyAddress(address)).toBe(cls);
  });

  it('a name or garbage is not an address', () => {
    expect(classifyAddress('example.com')).toBeNull();
    expect(classifyAddress('127.1')).toBeNull();
  });
});

describe('checkWebhookUrl, default policy', () => {
  const never = resolverOf({});

  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.0.0.1:8443/hook', 'loopback'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://10.200.3.4/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data/', 'cloud metadata'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:a9fe:a9fe]/hook', 'cloud metadata'],
    ['https://[fd00:ec2::254]/hook', 'cloud metadata'],
    ['https://[fe80::1]/hook', 'link-local'],
    ['https://2130706433/hook', 'loopback'], // 127.0.0.1 in decimal
    ['https://0x7f.1/hook', 'loopback'],
    ['https://0177.0.0.1/hook', 'loopback'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://100.64.1.1/hook', 'cgnat'],
    ['https://224.0.0.251/hook', 'multicast'],
  ])('refuses %s (%s) without asking DNS', async (url, words) => {
    const check = await checkWebhookUrl(url, DEFAULT, never);
    expect(check).toEqual({ ok: false, reason: 'address_refused', message: expect.stringContaining(words) });
    expect(never.calls).toEqual([]);
  });

  it('refuses other schemes, plain http, credentials and what is not a URL', async () => {
    const shapes = await Promise.all(
      ['http://example.com/hook', 'ftp://example.com/', 'not a url', 'https://u:p@example.com/hook'].map(
        (u) => checkWebhookUrl(u, DEFAULT, never),
      ),
    );
    expect(shapes.map((c) => (c.ok ? 'ok' : c.reason))).toEqual([
      'scheme_not_allowed',
      'scheme_not_allowed',
      'invalid_url',
      'credentials_in_url',
    ]);
  });

  it('refuses metadata host names before any lookup', async () => {
    for (const url of ['https://metadata.google.internal/computeMetadata/v1/', 'https://METADATA.goog./x'])
      await expect(checkWebhookUrl(url, DEFAULT, never)).resolves.toMatchObject({
        ok: false,
        reason: 'metadata_host',
      });
    expect(never.calls).toEqual([]);
  });

  it('refuses a name resolving to loopback, 10/8 or metadata, and one with any address inside', async () => {
    const dns = resolverOf({
      'loop.example': ['127.0.0.1'],
      'ten.example': ['10.1.2.3'],
      'meta.example': ['169.254.169.254'],
      'mapped.example': ['::ffff:10.0.0.7'],
      'mixed.example': [PUBLIC_V4, '10.0.0.9'],
      'v6.example': [PUBLIC_V6, 'fd12::1'],
    });
    for (const [host, words] of [
      ['loop.example', '127.0.0.1 is a loopback address'],
      ['ten.example', '10.1.2.3 is a private address'],
      ['meta.example', '169.254.169.254 is a cloud metadata address'],
      ['mapped.example', '::ffff:10.0.0.7 is a private address'],
      ['mixed.example', '10.0.0.9 is a private address'],
      ['v6.example', 'fd12::1 is a private address'],
    ])
      await expect(checkWebhookUrl(`https://${host}/hook`, DEFAULT, dns)).resolves.toEqual({
        ok: false,
        reason: 'address_refused',
        message: words,
      });
  });

  it('accepts an https name whose every address is public, and says which addresses it checked', async () => {
    const dns = resolverOf({ 'hooks.example.com': [PUBLIC_V4, PUBLIC_V6] });
    const check = await checkWebhookUrl('https://hooks.example.com/analyst?x=1', DEFAULT, dns);
    expect(check).toMatchObject({ ok: true, addresses: [PUBLIC_V4, PUBLIC_V6] });
    expect(dns.calls).toEqual(['hooks.example.com']);
  });

  it('a name that does not resolve is unresolvable', async () => {
    await expect(checkWebhookUrl('https://nowhere.example/', DEFAULT, never)).resolves.toMatchObject({
      ok: false,
      reason: 'unresolvable',
    });
  });
});

describe(`checkWebhookUrl with ANALYST_WEBHOOK_ALLOWED_NETWORKS`, () => {
  const policy = webhookNetworkPolicyFromEnv({
    ANALYST_WEBHOOK_ALLOWED_NETWORKS: ' 127.0.0.0/8, fd00::/8 ,',
  });

  it('reads the variable as a list of CIDRs', () => {
    expect(policy.allowedNetworks).toEqual(['127.0.0.0/8', 'fd00::/8']);
    expect(webhookNetworkPolicyFromEnv({}).allowedNetworks).toEqual([]);
  });

  it('allows http and https to the ranges, IPv4-mapped forms included', async () => {
    const dns = resolverOf({ localhost: ['127.0.0.1'], 'inside.example': ['fd00::5'] });
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'https://127.0.0.1/hook',
      'http://[::ffff:127.0.0.1]:8080/hook',
      'http://localhost:8080/hook',
      'https://inside.example/hook',
    ])
      await expect(checkWebhookUrl(url, policy, dns)).resolves.toMatchObject({ ok: true });
  });

  it('keeps refusing what the ranges do not cover, and plain http outside them', async () => {
    const dns = resolverOf({ 'public.example': [PUBLIC_V4] });
    await expect(checkWebhookUrl('https://10.0.0.1/', policy, dns)).resolves.toMatchObject({ ok: false });
    await expect(checkWebhookUrl('http://public.example/', policy, dns)).resolves.toEqual({
      ok: false,
      reason: 'address_refused',
      message: `plain http is allowed only to ANALYST_WEBHOOK_ALLOWED_NETWORKS, which does not cover ${PUBLIC_V4}`,
    });
    await expect(checkWebhookUrl('https://public.example/', policy, dns)).resolves.toMatchObject({
      ok: true,
    });
  });

  it('refuses metadata addresses even when a range covers them', async () => {
    const everything = webhookNetworkPolicy('0.0.0.0/0,::/0');
    for (const url of [
      'http://169.254.169.254/',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
    ])
      await expect(checkWebhookUrl(url, everything)).resolves.toMatchObject({
        ok: false,
        message: expect.stringContaining('cloud metadata'),
      });
    expect(checkAddress('10.0.0.1', everything, 'http:')).toMatchObject({ ok: true, class: 'private' });
  });

  it('refuses a variable with an entry that is not a CIDR, naming it', () => {
    for (const bad of ['10.0.0.0/33', 'ten', '10.0.0.0/8/1', '::/129', '10.0.0.0/x', '300.0.0.0/8'])
      expect(() => webhookNetworkPolicy(`127.0.0.0/8,${bad}`)).toThrow(
        `'${bad}' is not an IPv4 or IPv6 CIDR`,
      );
  });
});

describe('guardedLookup (at connect time)', () => {
  const lookupOnce = (
    lookup: ReturnType<typeof guardedLookup>,
    host: string,
    options: { all?: boolean; family?: number } = {},
  ) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      lookup(host, options, (error, address, family) => resolve({ error, address, family })),
    );

  it('refuses a name that rebinds to loopback after it passed, on the next connection', async () => {
    const answers = [[PUBLIC_V4], ['127.0.0.1']];
    const rebinding: ResolveAll = async () =>
      (answers.shift() ?? []).map((address) => ({ address, family: 4 }));
    const lookup = guardedLookup(DEFAULT, 'https:', rebinding);
    await expect(lookupOnce(lookup, 'rebind.example')).resolves.toEqual({
      error: null,
      address: PUBLIC_V4,
      family: 4,
    });
    const second = await lookupOnce(lookup, 'rebind.example');
    expect(second.error).toBeInstanceOf(WebhookAddressRefusedError);
    expect(second.error?.code).toBe('EWEBHOOKADDRESSREFUSED');
    expect(second.error?.message).toBe('rebind.example: 127.0.0.1 is a loopback address');
  });

  it('answers every address when asked for all, and only the asked family', async () => {
    const dns = resolverOf({ 'both.example': [PUBLIC_V4, PUBLIC_V6] });
    const lookup = guardedLookup(DEFAULT, 'https:', dns);
    await expect(lookupOnce(lookup, 'both.example', { all: true })).resolves.toMatchObject({
      error: null,
      address: [
        { address: PUBLIC_V4, family: 4 },
        { address: PUBLIC_V6, family: 6 },
      ],
    });
    await expect(lookupOnce(lookup, 'both.example', { family: 6 })).resolves.toEqual({
      error: null,
      address: PUBLIC_V6,
      family: 6,
    });
  });

  it('passes a resolver failure through', async () => {
    const { error } = await lookupOnce(guardedLookup(DEFAULT, 'https:', resolverOf({})), 'nowhere.example');
    expect(error?.code).toBe('ENOTFOUND');
  });
});
