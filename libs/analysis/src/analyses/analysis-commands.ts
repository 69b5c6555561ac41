import { Injectable } from '@nestjs/common';
import {
  analysisDecider,
  analysisStream,
  type AnalysisCommand,
  type AnalysisEvent,
  type AnalysisState,
} from '@analyst/domain-analysis';
import { CommandHandler, CommandRunner, ProjectionService } from '@analyst/platform';

/** An analysis's stream, keyed by analysis id, bound to the analysis decider. */
@Injectable()
export class AnalysisCommands extends CommandHandler<string, AnalysisCommand, AnalysisEvent, AnalysisState> {
  constructor(
    runner: CommandRunner,
    private readonly projections: ProjectionService,
  ) {
    super(runner, { decider: analysisDecider, streamOf: analysisStream });
  }

  /**
   * Runs a command on the analysis's stream (correlated by its id) without waiting for the read
   * models. The projection applies the log in order, so waiting for this append would also wait for
   * every other team's writes stored before it (issue 38: a neighbour's import made snapshots 3x
   * slower). Only for commands whose readers wait for the team's own head themselves (list) or read
   * the analysis's stream (find, samples).
   */
  record(analysisId: string, teamId: string, command: AnalysisCommand) {
    return this.handle(analysisId, command, { correlationId: analysisId, teamId });
  }

  /** Runs a command and waits until the read models show it; returns the events it appended. */
  async recordAndProject(
    analysisId: string,
    teamId: string,
    command: AnalysisCommand,
  ): Promise<AnalysisEvent[]> {
    const outcome = await this.record(analysisId, teamId, command);
    await this.projections.waitFor(outcome.position);
    return outcome.events;
  }
}
