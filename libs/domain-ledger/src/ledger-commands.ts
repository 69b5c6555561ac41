import type {
  GrantCreditsCommand,
  RefundCreditsCommand,
  ReserveCreditsCommand,
  SettleCreditsCommand,
} from '@analyst/contracts';

/** Every command carries the instant it was issued at (`at`, ISO), so `decide` never reads a clock. */
interface Timed {
  at: string;
}

export type GrantCredits = { type: 'GrantCredits'; data: GrantCreditsCommand & Timed };
export type ReserveCredits = { type: 'ReserveCredits'; data: ReserveCreditsCommand & Timed };
export type SettleCredits = { type: 'SettleCredits'; data: SettleCreditsCommand & Timed };
export type RefundCredits = { type: 'RefundCredits'; data: RefundCreditsCommand & Timed };
/** From the team's events: the monthly allotment for this and following months. */
export type SetMapAllotment = {
  type: 'SetMapAllotment';
  data: { commandId: string; allotment: number } & Timed;
};
/** Expire last month's MAPs and grant this month's, if the month has turned since the last event. */
export type ResetMaps = { type: 'ResetMaps'; data: Timed };

export type LedgerCommand =
  GrantCredits | ReserveCredits | SettleCredits | RefundCredits | SetMapAllotment | ResetMaps;
