export * from './ledger.module';
