/**
 * What the content-side cross-check of the ledger reports: each charge (settle) or refund weighed
 * against the post data version that caused it. Shapes only; the rules are in `charge-reasons.ts`.
 */

/** The rules, in the order findings are listed. */
export const CHARGE_RULES = [
  'charge_without_post',
  'charge_for_other_team',
  'charge_without_outcome',
  'double_charge',
  'double_reservation',
  'duplicate_post',
  'refund_without_outcome',
  'refund_without_post',
  'version_without_reservation',
  'stale_open_reservation',
] as const;
export type ChargeRule = (typeof CHARGE_RULES)[number];

/** A ledger event a finding rests on: where finance finds it in the log. */
export interface LedgerEventRef {
  reservationId: string;
  eventId: string;
  type: 'CreditsReserved' | 'CreditsSettled' | 'CreditsRefunded';
  position: number;
  revision: number;
  occurredAt: string;
}

/** A post data version a finding is about (`dataVersion` null when the whole post is meant). */
export interface PostVersionRef {
  postId: string;
  teamId: string;
  link: string;
  normalizedLink: string;
  dataVersion: number | null;
}

export interface ChargeFinding {
  rule: ChargeRule;
  teamId: string;
  posts: PostVersionRef[];
  events: LedgerEventRef[];
  message: string;
}

export interface OpenReservationRow {
  teamId: string;
  reservationId: string;
  eventId: string;
  position: number;
  revision: number;
  reservedAt: string;
  amount: number;
  ageMinutes: number;
  /** The post version that names the reservation, if any (none yet while a request is creating it). */
  post: PostVersionRef | null;
  /** Older than the bound: every reservation must end, so this one is a violation. */
  stale: boolean;
}

export interface TeamCharges {
  teamId: string;
  posts: number;
  reservations: number;
  settled: number;
  refunded: number;
  open: number;
  findings: number;
}

export interface ChargeAudit {
  /** The instant open reservations are aged against. */
  asOf: string;
  maxOpenMinutes: number;
  teams: TeamCharges[];
  open: OpenReservationRow[];
  findings: ChargeFinding[];
}
