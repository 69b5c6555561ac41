import { Command } from 'commander';
import { adminCall } from '../libs/gateway/src/cli/admin-client';
import { registerAdminCommands } from '../libs/gateway/src/cli/admin-commands';
import { reportCliError } from '../libs/gateway/src/cli/cli-errors';
import { registerLedgerCli } from '../libs/ledger/src/cli/ledger-cli';
import { registerProviderCommands } from '../libs/ingest/src/cli/provider-check';
import { registerReadModelCommands } from './read-model-commands';

/** `npm run analyst -- <command>`: operator tooling over the admin API and the event log. */
const program = new Command('analyst')
  .description('Analyst operator CLI')
  .option('--json', 'print JSON instead of tables (errors as a JSON object on stderr)');
// `--json` may not be parsed yet when commander itself refuses the arguments.
const json = (): boolean => Boolean(program.opts().json) || process.argv.slice(2).includes('--json');
// Set before the commands are added so every subcommand inherits them: commander throws instead of
// exiting, and stays quiet in JSON mode so the one error object below is all stderr carries.
program.exitOverride();
program.configureOutput({ outputError: (text, write) => (json() ? undefined : write(text)) });
registerAdminCommands(program);
registerLedgerCli(program, { admin: adminCall });
registerProviderCommands(program, json);
registerReadModelCommands(program);
program.parseAsync(process.argv).catch((error: unknown) => {
  process.exit(reportCliError(error, json()));
});
