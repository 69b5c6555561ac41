import { PLANS, type PlanId, type RefreshCadence, type PostStatus } from '@analyst/contracts';
import { MIN_REFRESH_INTERVAL_HOURS, type SkipReason } from './content-job.decider';
import { IN_FLIGHT_STATUSES } from './post.decider';

const HOUR = 3_600_000;
export const CADENCE_MS: Record<RefreshCadence, number> = {
  hourly: HOUR,
  daily: 24 * HOUR,
  weekly: 7 * 24 * HOUR,
};

export interface RefreshFacts {
  status: PostStatus;
  lastRefreshedAt: string;
  lastIncludedRefreshAt: string;
}

export type RefreshDecision =
  { kind: 'skip'; reason: SkipReason; nextRefreshAt?: string } | { kind: 'included' } | { kind: 'credit' };

/**
 * Rules 1, 2 and 4 of POST /content/posts/refresh for one post, in this order: unreachable posts
 * cannot be fetched again; posts in flight or holding are `already_processing`; the 12-hour floor counts from
 * the last fetch request, whoever made it (`min_interval`); a post is free when a whole cadence
 * period of the plan has passed since its last free refresh (or its creation); otherwise it costs
 * credits, or is `cooldown` on plans that cannot spend credits on refresh.
 */
export function decideRefresh(post: RefreshFacts, plan: PlanId, now: Date): RefreshDecision {
  if (post.status === 'unreachable') return { kind: 'skip', reason: 'unreachable' };
  // A held post is resumed by its own job when the platform's window reopens.
  if (IN_FLIGHT_STATUSES.includes(post.status) || post.status === 'holding')
    return { kind: 'skip', reason: 'already_processing' };
  const floorEnds = new Date(post.lastRefreshedAt).getTime() + MIN_REFRESH_INTERVAL_HOURS * HOUR;
  if (now.getTime() < floorEnds)
    return { kind: 'skip', reason: 'min_interval', nextRefreshAt: new Date(floorEnds).toISOString() };
  const { includedRefresh, creditsOnRefresh } = PLANS[plan];
  if (now.getTime() - new Date(post.lastIncludedRefreshAt).getTime() >= CADENCE_MS[includedRefresh])
    return { kind: 'included' };
  return creditsOnRefresh ? { kind: 'credit' } : { kind: 'skip', reason: 'cooldown' };
}
