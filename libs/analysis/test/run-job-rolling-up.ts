import type { INestApplication } from '@nestjs/common';
import { AnalysisJobWorker } from '@analyst/analysis';
import { AnalysisCommands } from '../src/analyses/analysis-commands';

/**
 * Runs one analysis job and calls `whileRollingUp` once, right after the worker has put the job's
 * `rolling_up` progress on record and before it rolls up: the moment a reader sees the job running
 * at 90 %. The worker has no hook for this; the test listens to the commands it records.
 */
export async function runJobRollingUp(
  app: INestApplication,
  analysisId: string,
  whileRollingUp: () => Promise<void>,
): Promise<void> {
  const commands = app.get(AnalysisCommands);
  const record = commands.recordAndProject.bind(commands);
  let called = false;
  const spy = jest.spyOn(commands, 'recordAndProject').mockImplementation(async (id, teamId, command) => {
    const events = await record(id, teamId, command);
    const rollingUp = command.type === 'ReportProgress' && command.data.phase === 'rolling_up';
    if (id === analysisId && rollingUp && !called) {
      called = true;
      await whileRollingUp();
    }
    return events;
  });
  try {
    await app.get(AnalysisJobWorker).runJob(analysisId);
  } finally {
    spy.mockRestore();
  }
  if (!called) throw new Error(`analysis ${analysisId} never reached rolling_up`);
}
