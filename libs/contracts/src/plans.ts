/** The plan catalog. Operators and scripts rely on these ids. */
export const PLAN_IDS = ['starter', 'growth', 'scale', 'enterprise'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export type RefreshCadence = 'hourly' | 'daily' | 'weekly';

export interface Plan {
  id: PlanId;
  /** Whether the public API is available to the plan's teams. */
  api: boolean;
  includedRefresh: RefreshCadence;
  /** Whether refreshes beyond the included cadence may be paid with credits (otherwise `cooldown`). */
  creditsOnRefresh: boolean;
  subTeams: boolean;
  /** MAPs granted at the start of every UTC month, unless overridden per team. */
  monthlyMapAllotment: number;
}

export const PLANS: Record<PlanId, Plan> = {
  starter: {
    id: 'starter',
    api: false,
    includedRefresh: 'weekly',
    creditsOnRefresh: false,
    subTeams: false,
    monthlyMapAllotment: 100,
  },
  growth: {
    id: 'growth',
    api: true,
    includedRefresh: 'weekly',
    creditsOnRefresh: false,
    subTeams: false,
    monthlyMapAllotment: 500,
  },
  scale: {
    id: 'scale',
    api: true,
    includedRefresh: 'daily',
    creditsOnRefresh: true,
    subTeams: false,
    monthlyMapAllotment: 2000,
  },
  enterprise: {
    id: 'enterprise',
    api: true,
    includedRefresh: 'hourly',
    creditsOnRefresh: true,
    subTeams: true,
    monthlyMapAllotment: 10000,
  },
};

export function isPlanId(value: unknown): value is PlanId {
  return typeof value === 'string' && (PLAN_IDS as readonly string[]).includes(value);
}
