import { PLATFORMS, type Platform } from '@analyst/contracts';

/** Platforms with a real adapter: `<platform>=<platform>` picks it. */
export const REAL_PROVIDERS = ['youtube', 'reddit'] as const;
export type RealProvider = (typeof REAL_PROVIDERS)[number];
/** `simulated`: the offline simulator; `none`: links of that platform are rejected as unsupported_platform. */
export type ProviderChoice = RealProvider | 'simulated' | 'none';
/** A provider for every one of the API's post platforms (ANALYST_PROVIDERS may name any of them). */
export type ProviderRoutes = Record<Platform, ProviderChoice>;

/**
 * Parses `youtube=youtube,reddit=reddit,*=simulated`: each entry names a platform (or `*` for every
 * platform not named) and its provider. Unnamed platforms with no `*` get `fallback`.
 * Throws a message naming the bad entry.
 */
export function parseProviderRoutes(text: string, fallback: ProviderChoice): ProviderRoutes {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '');
  const named = new Map<string, ProviderChoice>();
  let rest = fallback;
  for (const entry of entries) {
    const match = /^([a-z*]+)=([a-z]+)$/.exec(entry);
    if (!match) throw new Error(`"${entry}" is not <platform>=<provider>`);
    const [, platform, provider] = match;
    if (platform !== '*' && !(PLATFORMS as readonly string[]).includes(platform))
      throw new Error(`"${platform}" is not a platform (${PLATFORMS.join(', ')} or *)`);
    if (named.has(platform)) throw new Error(`"${platform}" is named twice`);
    const own = (REAL_PROVIDERS as readonly string[]).includes(provider);
    if (provider !== 'simulated' && provider !== 'none' && !own)
      throw new Error(`"${provider}" is not a provider (${REAL_PROVIDERS.join(', ')}, simulated or none)`);
    // A real adapter speaks only its own platform's API.
    if (own && provider !== platform) throw new Error(`the ${provider} provider cannot serve ${platform}`);
    named.set(platform, provider as ProviderChoice);
    if (platform === '*') rest = provider as ProviderChoice;
  }
  const routes = {} as ProviderRoutes;
  for (const platform of PLATFORMS) routes[platform] = named.get(platform) ?? rest;
  return routes;
}

/** What providerRoutes reads from the validated config. */
export interface ProviderSettings {
  ANALYST_MODE: 'standalone' | 'distributed';
  ANALYST_PROVIDERS?: string;
  YOUTUBE_API_KEY?: string;
  REDDIT_CLIENT_ID?: string;
  REDDIT_CLIENT_SECRET?: string;
  REDDIT_USER_AGENT?: string;
}

/**
 * The provider of each platform. Standalone defaults to the simulator everywhere (an offline demo);
 * distributed to the real adapter where its credentials are set and `none` (unsupported) elsewhere,
 * so a deployment never serves invented comments by accident.
 */
export function providerRoutes(config: ProviderSettings): ProviderRoutes {
  if (config.ANALYST_PROVIDERS)
    return parseProviderRoutes(
      config.ANALYST_PROVIDERS,
      config.ANALYST_MODE === 'standalone' ? 'simulated' : 'none',
    );
  if (config.ANALYST_MODE === 'standalone') return parseProviderRoutes('*=simulated', 'simulated');
  const real = [
    config.YOUTUBE_API_KEY ? 'youtube=youtube' : '',
    redditCredentials(config) ? 'reddit=reddit' : '',
  ];
  return parseProviderRoutes([...real, '*=none'].join(','), 'none');
}

function redditCredentials(config: ProviderSettings): boolean {
  return Boolean(config.REDDIT_CLIENT_ID && config.REDDIT_CLIENT_SECRET && config.REDDIT_USER_AGENT);
}

/** Config problems of the provider variables, each naming its variable (exit 2 at start). */
export function providerProblems(config: ProviderSettings): string[] {
  const problems: string[] = [];
  let routes: ProviderRoutes;
  try {
    routes = providerRoutes(config);
  } catch (error) {
    return [`ANALYST_PROVIDERS: ${(error as Error).message}`];
  }
  if (routes.youtube === 'youtube' && !config.YOUTUBE_API_KEY)
    problems.push('YOUTUBE_API_KEY: required when ANALYST_PROVIDERS routes youtube to the youtube provider');
  const reddit = ['REDDIT_CLIENT_ID', 'REDDIT_CLIENT_SECRET', 'REDDIT_USER_AGENT'] as const;
  const given = reddit.filter((k) => config[k]);
  if (routes.reddit === 'reddit' || given.length > 0) {
    // Half a set of Reddit credentials is a typo, not a choice.
    for (const key of reddit)
      if (!config[key])
        problems.push(
          `${key}: required when ${routes.reddit === 'reddit' ? 'ANALYST_PROVIDERS routes reddit to the reddit provider' : `${given.join(' and ')} ${given.length > 1 ? 'are' : 'is'} set`}`,
        );
  }
  return problems;
}
