import type { ContentProvider, Platform } from '@analyst/contracts';
import { providerRoutes, type HealthRegistry, type ProviderSettings } from '@analyst/platform';
import { NO_TELEMETRY, RoutingProvider, type ProviderTelemetry } from '@analyst/provider-core';
import { RedditProvider } from '@analyst/provider-reddit';
import { SimulatedProvider } from '@analyst/provider-sim';
import { YouTubeProvider } from '@analyst/provider-youtube';

/** The provider variables of AnalystConfig. */
export interface ProviderConfig extends ProviderSettings {
  ANALYST_YOUTUBE_BASE_URL?: string;
  ANALYST_REDDIT_BASE_URL?: string;
  ANALYST_REDDIT_TOKEN_URL?: string;
}

/**
 * The provider ANALYST_PROVIDERS asks for: the simulator alone when every platform is simulated
 * (the standalone default, unchanged), otherwise a router over the real adapters and the simulator,
 * where a platform routed to `none` is unsupported. Real adapters report their credentials on /readyz.
 */
export function contentProviderFromConfig(
  config: ProviderConfig,
  telemetry: ProviderTelemetry = NO_TELEMETRY,
  health?: HealthRegistry,
): ContentProvider {
  const routes = providerRoutes(config);
  const choices = Object.entries(routes) as [Platform, (typeof routes)[Platform]][];
  if (choices.every(([, choice]) => choice === 'simulated')) return new SimulatedProvider();
  const simulated = new SimulatedProvider();
  const table: Partial<Record<Platform, ContentProvider>> = {};
  for (const [platform, choice] of choices) {
    if (choice === 'simulated') table[platform] = simulated;
    if (choice === 'youtube') {
      const youtube = new YouTubeProvider({
        apiKey: config.YOUTUBE_API_KEY!,
        baseUrl: config.ANALYST_YOUTUBE_BASE_URL,
        telemetry,
      });
      health?.register('provider:youtube', () => youtube.health());
      table.youtube = youtube;
    }
    if (choice === 'reddit') {
      const reddit = new RedditProvider({
        clientId: config.REDDIT_CLIENT_ID!,
        clientSecret: config.REDDIT_CLIENT_SECRET!,
        userAgent: config.REDDIT_USER_AGENT!,
        baseUrl: config.ANALYST_REDDIT_BASE_URL,
        tokenUrl: config.ANALYST_REDDIT_TOKEN_URL,
        telemetry,
      });
      health?.register('provider:reddit', () => reddit.health());
      table.reddit = reddit;
    }
  }
  return new RoutingProvider(table);
}
