import {
  ProviderUnavailableError,
  type AccountQuery,
  type ContentProvider,
  type DiscoveredPost,
  type FetchOptions,
  type FetchResult,
} from '@analyst/contracts';
import { classifyLink } from '@analyst/links';
import { simulateAccount } from './simulated-account';
import { simulateComments } from './simulated-comments';
import { simulatePost } from './simulated-post';

export const DEFAULT_REFERENCE_DATE = '2026-11-01T00:00:00Z';

/** Substrings of a link that make the simulated provider fail in a chosen way (see README). */
export const SIM_MARKERS = {
  unreachable: 'sim-unreachable',
  empty: 'sim-empty',
  failed: 'sim-fail',
  holding: 'sim-holding',
  providerDown: 'sim-provider-down',
  noMatch: 'sim-no-match',
} as const;

/**
 * A deterministic stand-in for the social platforms: posts and comment sections are invented from
 * a SHA-256 of the normalized link, relative to a fixed reference date (never the wall clock).
 */
export class SimulatedProvider implements ContentProvider {
  private readonly reference: Date;

  constructor(options: { referenceDate?: string } = {}) {
    this.reference = new Date(options.referenceDate ?? DEFAULT_REFERENCE_DATE);
    if (Number.isNaN(this.reference.getTime()))
      throw new RangeError(`invalid reference date ${options.referenceDate}`);
  }

  async fetchPost(link: string, options: FetchOptions): Promise<FetchResult> {
    return this.fetchPostSync(link, options);
  }

  /** The same as fetchPost, synchronously (benchmarks and tests). */
  fetchPostSync(link: string, options: FetchOptions): FetchResult {
    const classified = classifyLink(link);
    if (!classified.ok || classified.kind !== 'post')
      return { status: 'failed', reason: `not a post link: ${link}` };
    const normalized = classified.normalized;
    const marker = normalized.toLowerCase();
    if (marker.includes(SIM_MARKERS.unreachable))
      return { status: 'unreachable', reason: 'simulated: the post is deleted or private' };
    if (marker.includes(SIM_MARKERS.holding))
      return { status: 'holding', reason: 'simulated: the platform asked us to hold off' };
    if (marker.includes(SIM_MARKERS.failed))
      return { status: 'failed', reason: 'simulated: the platform returned an error' };

    const sim = simulatePost(normalized, classified.platform, this.reference);
    if (marker.includes(SIM_MARKERS.empty)) {
      return {
        status: 'ok',
        post: { ...sim.post, engagement: { ...sim.post.engagement, comments: 0 } },
        comments: [],
      };
    }
    const cap = options.fullRead
      ? sim.totalComments
      : Math.max(0, Math.floor(options.commentLimit ?? sim.totalComments));
    return { status: 'ok', post: sim.post, comments: simulateComments(sim, cap, this.reference) };
  }

  async discoverAccount(accountUrl: string, query: AccountQuery): Promise<DiscoveredPost[]> {
    const classified = classifyLink(accountUrl);
    if (!classified.ok || classified.kind !== 'account') return [];
    const normalized = classified.normalized.toLowerCase();
    if (normalized.includes(SIM_MARKERS.providerDown))
      throw new ProviderUnavailableError('simulated: the platform is unavailable');
    if (normalized.includes(SIM_MARKERS.noMatch)) return [];
    return simulateAccount(classified.normalized, classified.platform, query, this.reference);
  }
}

/** The size of a link's full simulated comment section (what fullRead returns); null for non-post links. */
export function simulatedCommentCount(link: string, referenceDate = DEFAULT_REFERENCE_DATE): number | null {
  const classified = classifyLink(link);
  if (!classified.ok || classified.kind !== 'post') return null;
  if (classified.normalized.toLowerCase().includes(SIM_MARKERS.empty)) return 0;
  return simulatePost(classified.normalized, classified.platform, new Date(referenceDate)).totalComments;
}
