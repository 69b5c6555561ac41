import type {
  AccountQuery,
  ContentProvider,
  DiscoveredPost,
  FetchOptions,
  FetchResult,
  Platform,
} from '@analyst/contracts';
import { classifyLink } from '@analyst/links';

/**
 * Sends each link to the provider of its platform. A platform without one is not supported here:
 * intake rejects its links (`supports`), and a fetch that reaches this anyway fails with that reason.
 */
export class RoutingProvider implements ContentProvider {
  constructor(private readonly routes: Partial<Record<Platform, ContentProvider>>) {}

  supports(platform: Platform): boolean {
    return this.routes[platform] !== undefined;
  }

  async fetchPost(link: string, options: FetchOptions): Promise<FetchResult> {
    const target = this.route(link);
    if (typeof target === 'string') return { status: 'failed', reason: target };
    return target.fetchPost(link, options);
  }

  async discoverAccount(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    const target = this.route(accountUrl);
    if (typeof target === 'string') throw new Error(target);
    return target.discoverAccount(accountUrl, query);
  }

  private route(link: string): ContentProvider | string {
    const classified = classifyLink(link);
    if (!classified.ok) return `not a supported link: ${link}`;
    return (
      this.routes[classified.platform] ??
      `no provider is configured for ${classified.platform} (ANALYST_PROVIDERS)`
    );
  }
}
