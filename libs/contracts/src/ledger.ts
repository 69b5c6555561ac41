/**
 * The credit ledger's shared vocabulary: pools, commands sent to the ledger, its replies, its
 * events (stream `ledger-<teamId>`) and its read shapes. Ingest, the gateway and the audit code
 * against these types; the ledger service owns the behaviour.
 */
export const CREDIT_POOLS = ['map', 'adhoc'] as const;
export type CreditPool = (typeof CREDIT_POOLS)[number];

/** `auto`: MAPs first, then Ad Hoc. `adhoc`: Ad Hoc only. */
export type CreditSource = 'auto' | 'adhoc';

/** Balances as `GET /team` shows them under `credits`. `reserved` is held by open reservations. */
export interface CreditBalances {
  maps: number;
  adhoc: number;
  reserved: number;
}

/** Who asked: carried into every event's metadata. */
export interface LedgerContext {
  correlationId: string;
  causationId?: string | null;
  teamId: string;
}

export interface GrantCreditsCommand {
  commandId: string;
  pool: CreditPool;
  amount: number;
  reason: string;
}

export interface ReserveCreditsCommand {
  commandId: string;
  reservationId: string;
  /** Whole units (posts) wanted; the ledger funds as many as the balances allow. */
  units: number;
  /** Credits per unit: 1, or 5 with `fullRead`. */
  unitCost: number;
  source: CreditSource;
}

export interface SettleCreditsCommand {
  commandId: string;
  reservationId: string;
  /** Units actually consumed, 0..fundedUnits; the rest goes back to the pools it came from. */
  consumed: number;
}

export interface RefundCreditsCommand {
  commandId: string;
  reservationId: string;
  reason: string;
}

export interface GrantResult {
  pool: CreditPool;
  amount: number;
}

export interface ReserveResult {
  reservationId: string;
  fundedUnits: number;
  /** Credits held: fundedUnits × unitCost = fromMaps + fromAdhoc. */
  amount: number;
  fromMaps: number;
  fromAdhoc: number;
}

export interface SettleResult {
  reservationId: string;
  consumedUnits: number;
  /** Credits charged, per pool. */
  charged: { maps: number; adhoc: number };
  /** Credits put back into the pools. */
  returned: { maps: number; adhoc: number };
  /** MAP credits that came back after their month ended and so expired instead of returning. */
  expiredOnReturn: number;
}

export interface RefundResult {
  reservationId: string;
  returned: { maps: number; adhoc: number };
  expiredOnReturn: number;
}

// ---------------------------------------------------------------- bus requests (`commandTopic('ledger')`)

/** Each request the ledger serves on the bus: the command it carries and the result it answers. */
export interface LedgerBusCommands {
  ReserveCredits: { command: ReserveCreditsCommand; result: ReserveResult };
  SettleCredits: { command: SettleCreditsCommand; result: SettleResult };
  RefundCredits: { command: RefundCreditsCommand; result: RefundResult };
  GrantCredits: { command: GrantCreditsCommand; result: GrantResult };
}
export type LedgerBusRequestType = keyof LedgerBusCommands;

/** A request's payload on the wire: its command plus the team it acts for. */
export type LedgerBusPayload<K extends LedgerBusRequestType> = LedgerBusCommands[K]['command'] & {
  teamId: string;
};

/** A bus message's type and payload, one member per request type (the union when `K` is left out). */
export type LedgerBusRequest<K extends LedgerBusRequestType = LedgerBusRequestType> = {
  [P in K]: { type: P; payload: LedgerBusPayload<P> };
}[K];

export const LEDGER_ERROR_CODES = [
  'invalid_command',
  'reservation_exists',
  'reservation_not_found',
  'reservation_already_settled',
  'reservation_already_refunded',
  'settle_exceeds_reservation',
  'command_id_conflict',
  'idempotency_key_reused',
] as const;
export type LedgerErrorCode = (typeof LEDGER_ERROR_CODES)[number];

/** Reply to a ledger command that broke a rule. Anything else is a transport failure. */
export interface LedgerErrorReply {
  error: { code: LedgerErrorCode; message: string };
}

/** What a request of type `K` is answered with when it broke no rule. */
export type LedgerBusResult<K extends LedgerBusRequestType> = LedgerBusCommands[K]['result'];

/** The reply to a request of type `K` as it comes off the bus: its result, or the rule it broke. */
export type LedgerBusReply<K extends LedgerBusRequestType> = LedgerBusResult<K> | LedgerErrorReply;

export function isLedgerErrorReply(reply: unknown): reply is LedgerErrorReply {
  return typeof reply === 'object' && reply !== null && 'error' in reply;
}

/**
 * The bus message of a request, as every requester sends it: the command id is the message id
 * (a retry is the same message), the team id its key (one team's requests are served in order).
 */
export function ledgerBusMessage<K extends LedgerBusRequestType>(
  request: LedgerBusRequest<K>,
  headers?: Record<string, string>,
): { id: string; key: string; type: K; payload: LedgerBusPayload<K>; headers?: Record<string, string> } {
  const { type, payload } = request;
  return { id: payload.commandId, key: payload.teamId, type, payload, ...(headers ? { headers } : {}) };
}

// ---------------------------------------------------------------- events (stream `ledger-<teamId>`)

/**
 * Every ledger event carries the id of the command that produced it (idempotency lives in the
 * stream itself) and the MAP month (`YYYY-MM`, UTC) it happened in.
 */
interface LedgerEventBase {
  commandId: string;
  month: string;
}

export interface CreditsGranted {
  type: 'CreditsGranted';
  data: LedgerEventBase & { pool: CreditPool; amount: number; reason: string };
}

/** Start of a UTC month: the MAPs left are expired, and the month's allotment is granted. */
export interface MapsReset {
  type: 'MapsReset';
  data: LedgerEventBase & { previousMonth: string | null; expired: number; granted: number };
}

/** The team's monthly allotment changed (plan change, operator override, team creation). */
export interface MapAllotmentSet {
  type: 'MapAllotmentSet';
  data: LedgerEventBase & {
    allotment: number;
    previous: number;
    /** Change applied to this month's MAPs: positive is granted, negative expires (never below 0). */
    adjustment: number;
  };
}

export interface CreditsReserved {
  type: 'CreditsReserved';
  data: LedgerEventBase & {
    reservationId: string;
    source: CreditSource;
    requestedUnits: number;
    fundedUnits: number;
    unitCost: number;
    amount: number;
    fromMaps: number;
    fromAdhoc: number;
  };
}

/** Nothing could be funded: no reservation exists, but the audit sees the attempt. */
export interface CreditsReservationRejected {
  type: 'CreditsReservationRejected';
  data: LedgerEventBase & {
    reservationId: string;
    source: CreditSource;
    requestedUnits: number;
    unitCost: number;
    reason: 'insufficient_credits';
    available: { maps: number; adhoc: number };
  };
}

/** The settlement, as its command's answer (SettleResult) reports it. */
export interface CreditsSettled {
  type: 'CreditsSettled';
  data: LedgerEventBase & SettleResult;
}

/** The refund, as its command's answer (RefundResult) reports it, and why it was made. */
export interface CreditsRefunded {
  type: 'CreditsRefunded';
  data: LedgerEventBase & RefundResult & { reason: string };
}

export type LedgerEvent =
  | CreditsGranted
  | MapsReset
  | MapAllotmentSet
  | CreditsReserved
  | CreditsReservationRejected
  | CreditsSettled
  | CreditsRefunded;
export type LedgerEventType = LedgerEvent['type'];

/** Derived from the union so the list can never drift from it. */
const LEDGER_EVENT_TYPE_MAP: { [K in LedgerEventType]: true } = {
  CreditsGranted: true,
  MapsReset: true,
  MapAllotmentSet: true,
  CreditsReserved: true,
  CreditsReservationRejected: true,
  CreditsSettled: true,
  CreditsRefunded: true,
};
export const LEDGER_EVENT_TYPES = Object.keys(LEDGER_EVENT_TYPE_MAP) as LedgerEventType[];

export function isLedgerEventType(type: string): type is LedgerEventType {
  return Object.prototype.hasOwnProperty.call(LEDGER_EVENT_TYPE_MAP, type);
}

export const LEDGER_STREAM_PREFIX = 'ledger-';
export const ledgerStream = (teamId: string): string => `${LEDGER_STREAM_PREFIX}${teamId}`;
export const teamIdOfLedgerStream = (streamId: string): string => streamId.slice(LEDGER_STREAM_PREFIX.length);

// ---------------------------------------------------------------- statement

/** One line of a team's statement: one ledger event, its effect on each figure, and the figures after it. */
export interface StatementLine {
  teamId: string;
  revision: number;
  position: number;
  eventId: string;
  occurredAt: string;
  type: LedgerEventType;
  commandId: string;
  reservationId: string | null;
  month: string;
  /** Signed change of each figure caused by this event. */
  change: CreditBalances;
  /** Figures after this event. */
  balances: CreditBalances;
  /** Human-readable reason: the grant or refund reason, the rejection cause, the reset. */
  note: string;
}

export interface StatementPage {
  data: StatementLine[];
  meta: { nextCursor: string | null; hasMore: boolean };
}
