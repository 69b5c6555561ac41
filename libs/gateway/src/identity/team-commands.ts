import { Injectable } from '@nestjs/common';
import { teamStream, type TeamEvent } from '@analyst/contracts';
import { teamDecider, type TeamCommand, type TeamState } from '@analyst/domain-identity';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** A team's stream, keyed by team id, bound to the team decider. */
@Injectable()
export class TeamCommands extends CommandHandler<string, TeamCommand, TeamEvent, TeamState> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: teamDecider, streamOf: teamStream });
  }
}
