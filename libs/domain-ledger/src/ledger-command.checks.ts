import {
  CREDIT_POOLS,
  type CreditPool,
  type CreditSource,
  type GrantCreditsCommand,
  type RefundCreditsCommand,
  type ReserveCreditsCommand,
  type SettleCreditsCommand,
} from '@analyst/contracts';
import type { MapAllotmentCommand } from './ledger-command.types';
import { LedgerError } from './ledger-errors';

/**
 * A command's fields as they come from outside (a bus message is untrusted JSON): each may be
 * missing or of any type until its check has read it.
 */
export type Unchecked<T> = { readonly [K in keyof T]?: unknown };

function invalid(message: string): never {
  throw new LedgerError('invalid_command', message);
}

/** A non-empty string, or `invalid_command` naming the field. */
export function requireId(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) invalid(`${name} must be a non-empty string`);
  return value;
}

function requireInt(value: unknown, name: string, min: number): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min) {
    invalid(`${name} must be an integer of at least ${min}`);
  }
  return value;
}

function requireText(value: unknown, name: string): string {
  if (typeof value !== 'string') invalid(`${name} must be a string`);
  return value;
}

function requirePool(value: unknown): CreditPool {
  return (
    CREDIT_POOLS.find((pool) => pool === value) ?? invalid(`pool must be one of ${CREDIT_POOLS.join(', ')}`)
  );
}

function requireSource(value: unknown): CreditSource {
  if (value !== 'auto' && value !== 'adhoc') invalid('source must be auto or adhoc');
  return value;
}

/** The instant a command was issued at: an ISO date-time. */
export function requireInstant(value: unknown): string {
  if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) invalid('at must be an ISO date-time');
  return value;
}

/*
 * One check per command: its fields in a fixed order (the first one that fails is the one named),
 * and only the fields the command has, so what comes back is the typed command and nothing else.
 */

export function checkGrantCredits(data: Unchecked<GrantCreditsCommand>): GrantCreditsCommand {
  return {
    commandId: requireId(data.commandId, 'commandId'),
    pool: requirePool(data.pool),
    amount: requireInt(data.amount, 'amount', 1),
    reason: requireText(data.reason, 'reason'),
  };
}

export function checkReserveCredits(data: Unchecked<ReserveCreditsCommand>): ReserveCreditsCommand {
  return {
    commandId: requireId(data.commandId, 'commandId'),
    reservationId: requireId(data.reservationId, 'reservationId'),
    units: requireInt(data.units, 'units', 1),
    unitCost: requireInt(data.unitCost, 'unitCost', 1),
    source: requireSource(data.source),
  };
}

export function checkSettleCredits(data: Unchecked<SettleCreditsCommand>): SettleCreditsCommand {
  return {
    commandId: requireId(data.commandId, 'commandId'),
    reservationId: requireId(data.reservationId, 'reservationId'),
    consumed: requireInt(data.consumed, 'consumed', 0),
  };
}

export function checkRefundCredits(data: Unchecked<RefundCreditsCommand>): RefundCreditsCommand {
  return {
    commandId: requireId(data.commandId, 'commandId'),
    reservationId: requireId(data.reservationId, 'reservationId'),
    reason: requireText(data.reason, 'reason'),
  };
}

export function checkMapAllotment(data: Unchecked<MapAllotmentCommand>): MapAllotmentCommand {
  return {
    commandId: requireId(data.commandId, 'commandId'),
    allotment: requireInt(data.allotment, 'allotment', 0),
  };
}
