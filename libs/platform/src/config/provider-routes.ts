/** Platforms ANALYST_PROVIDERS may name (the API's post platforms). */
const ROUTABLE = ['youtube', 'tiktok', 'instagram', 'facebook', 'x', 'reddit', 'linkedin', 'threads'] as const;
/** Platforms with a real adapter: `<platform>=<platform>` picks it. */
export const REAL_PROVIDERS = ['youtube', 'reddit'] as const;
export type RealProvider = (typeof REAL_PROVIDERS)[number];
/** `simulated`: the offline simulator; `none`: links of that platform are rejected as unsupported_platform. */
export type ProviderChoice = RealProvider | 'simulated' | 'none';
export type ProviderRoutes = Record<(typeof ROUTABLE)[number], ProviderChoice>;

/**
 * Parses `youtube=youtube,reddit=reddit,*=simulated`: each entry names a platform (or `*` for every
 * platform not named) and its provider. Unnamed platforms with no `*` get `fallback`.
 * Throws a message naming the bad entry.
 */
export function parseProviderRoutes(text: string, fallback: ProviderChoice): ProviderRoutes {
  const entries = text.split(',').map((e) => e.trim()).filter((e) => e !== '');
  const named = new Map<string, ProviderChoice>();
  let rest = fallback;
  for (const entry of entries) {
    const match = /^([a-z*]+)=([a-z]+)$/.exec(entry);
    if (!match) throw new Error(`"${entry}" is not <platform>=<provider>`);
    const [, platform, provider] = match;
    if (platform !== '*' && !(ROUTABLE as readonly string[]).includes(platform)) throw new Error(`"${platform}" is not a platform (${ROUTABLE.join(', ')} or *)`);
    if (named.has(platform)) throw new Error(`"${platform}" is named twice`);
    const own = (REAL_PROVIDERS as readonly string[]).includes(provider);
    if (provider !== 'simulated' && provider !== 'none' && !own) throw new Error(`"${provider}" is not a provider (${REAL_PROVIDERS.join(', ')}, simulated or none)`);
    // A real adapter speaks only its own platform's API.
    if (own && provider !== platform) throw new Error(`the ${provider} provider cannot serve ${platform}`);
    named.set(platform, provider as ProviderChoice);
    if (platform === '*') rest = provider as ProviderChoice;
  }
  const routes = {} as ProviderRoutes;
  for (const platform of ROUTABLE) routes[platform] = named.get(platform) ?? rest;
  return routes;
}
