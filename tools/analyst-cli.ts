import { Command } from 'commander';
import { registerAdminCommands } from '../libs/gateway/src/cli/admin-commands';
import { registerLedgerCommands } from '../libs/ledger/src/cli/ledger-commands';

/** `npm run analyst -- <command>`: operator tooling over the admin API and the event log. */
const program = new Command('analyst').description('Analyst operator CLI').option('--json', 'print JSON instead of tables');
registerAdminCommands(program);
registerLedgerCommands(program);
program.parseAsync(process.argv).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
