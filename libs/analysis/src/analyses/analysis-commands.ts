import { Injectable } from '@nestjs/common';
import {
  analysisDecider,
  analysisStream,
  type AnalysisCommand,
  type AnalysisEvent,
  type AnalysisState,
} from '@analyst/domain-analysis';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** An analysis's stream, keyed by analysis id, bound to the analysis decider. */
@Injectable()
export class AnalysisCommands extends CommandHandler<string, AnalysisCommand, AnalysisEvent, AnalysisState> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: analysisDecider, streamOf: analysisStream });
  }
}
