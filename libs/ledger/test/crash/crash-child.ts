// Child of the crash test: boots the platform and the ledger on a data dir and runs commands for
// several teams concurrently, printing `ACK <teamId> <commandId>` after each command returns.
// `node -r ./ts-loader.js crash-child.ts <dataDir> <fromIteration> <iterations>`
import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { loadConfig, PlatformModule } from '@analyst/platform';
import { LedgerModule, LedgerService } from '@analyst/ledger';

const [dataDir, fromText, countText] = process.argv.slice(2);
const TEAMS = ['team_x', 'team_y', 'team_z'];

async function main(): Promise<void> {
  class ChildModule {}
  Module({
    imports: [
      PlatformModule.forRoot(loadConfig({ ANALYST_DATA_DIR: dataDir, LOG_LEVEL: 'silent' })),
      LedgerModule,
    ],
  })(ChildModule);
  const app = await NestFactory.createApplicationContext(ChildModule, { logger: false });
  const ledger = app.get(LedgerService);
  const ack = (teamId: string, commandId: string) => process.stdout.write(`ACK ${teamId} ${commandId}\n`);
  const from = Number(fromText);
  const to = from + Number(countText);
  await Promise.all(
    TEAMS.map(async (teamId) => {
      const ctx = { correlationId: 'crash', teamId };
      await ledger.grant(teamId, { commandId: 'seed', pool: 'adhoc', amount: 100, reason: 'seed' }, ctx);
      ack(teamId, 'seed');
      for (let i = from; i < to; i++) {
        const r = await ledger.reserve(
          teamId,
          { commandId: `r${i}`, reservationId: `p${i}`, units: 2, unitCost: 1, source: 'auto' },
          ctx,
        );
        ack(teamId, `r${i}`);
        if (r.fundedUnits > 0) {
          if (i % 4 === 0)
            await ledger.refund(
              teamId,
              { commandId: `f${i}`, reservationId: `p${i}`, reason: 'failed' },
              ctx,
            );
          else
            await ledger.settle(
              teamId,
              {
                commandId: `s${i}`,
                reservationId: `p${i}`,
                consumed: Math.min(r.fundedUnits, i % 3 === 0 ? 2 : 1),
              },
              ctx,
            );
          ack(teamId, i % 4 === 0 ? `f${i}` : `s${i}`);
        }
        if (i % 5 === 0) {
          await ledger.grant(teamId, { commandId: `g${i}`, pool: 'adhoc', amount: 3, reason: 'top-up' }, ctx);
          ack(teamId, `g${i}`);
        }
      }
    }),
  );
  await app.close();
  process.stdout.write('DONE\n');
}

main().catch((error) => {
  process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
