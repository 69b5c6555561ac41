import { Module } from '@nestjs/common';

/** The credit ledger: MAPs and Ad Hoc pools, reserve, settle, refund, audit. */
@Module({})
export class LedgerModule {}
