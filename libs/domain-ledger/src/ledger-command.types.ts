import type {
  GrantCreditsCommand,
  RefundCreditsCommand,
  ReserveCreditsCommand,
  SettleCreditsCommand,
} from '@analyst/contracts';

/*
 * The commands the ledger decider takes (`LedgerCommand`): the four that other services send on the
 * bus, with the instant they were issued at, and the two the ledger issues itself from team events
 * and the month's turn. Their field checks are in `ledger-command.checks.ts`.
 */

/** Every command carries the instant it was issued at (`at`, ISO), so `decide` never reads a clock. */
interface Timed {
  at: string;
}

export type GrantCredits = { type: 'GrantCredits'; data: GrantCreditsCommand & Timed };
export type ReserveCredits = { type: 'ReserveCredits'; data: ReserveCreditsCommand & Timed };
export type SettleCredits = { type: 'SettleCredits'; data: SettleCreditsCommand & Timed };
export type RefundCredits = { type: 'RefundCredits'; data: RefundCreditsCommand & Timed };
/** From the team's events: the monthly allotment for this and following months. */
export interface MapAllotmentCommand {
  commandId: string;
  allotment: number;
}
export type SetMapAllotment = { type: 'SetMapAllotment'; data: MapAllotmentCommand & Timed };
/** Expire last month's MAPs and grant this month's, if the month has turned since the last event. */
export type ResetMaps = { type: 'ResetMaps'; data: Timed };

export type LedgerCommand =
  GrantCredits | ReserveCredits | SettleCredits | RefundCredits | SetMapAllotment | ResetMaps;
