import type { Command } from 'commander';

/** `analyst ledger ...`: filled in by the ledger service. */
export function registerLedgerCommands(_program: Command): void {}
