import type { Command } from 'commander';

/** `analyst teams|keys ...`: admin API wrappers, filled in by the gateway service. */
export function registerAdminCommands(_program: Command): void {}
