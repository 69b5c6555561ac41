export * from './ledger-balances';
export * from './read-team-credits';
