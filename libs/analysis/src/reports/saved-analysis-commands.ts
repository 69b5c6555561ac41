import { Injectable } from '@nestjs/common';
import {
  savedAnalysisDecider,
  savedAnalysisStream,
  type AnalysisSavedInApp,
  type SaveAnalysisInApp,
  type SavedAnalysisState,
} from '@analyst/domain-analysis';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** A saved analysis's stream, keyed by saved id, bound to the saved-analysis decider. */
@Injectable()
export class SavedAnalysisCommands extends CommandHandler<
  string,
  SaveAnalysisInApp,
  AnalysisSavedInApp,
  SavedAnalysisState
> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: savedAnalysisDecider, streamOf: savedAnalysisStream });
  }
}
