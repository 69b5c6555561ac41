export * from './ledger-balances';
export * from './read-team-credits';
export * from './fold-ledger-balances';
