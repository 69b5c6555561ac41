import { FixedClock } from '@analyst/platform';
import { ContentError } from '@analyst/domain-content';
import { type PostFetchFailed, type PostScored, type PostTagged } from '@analyst/contracts';
import { delivered, recorded } from '@analyst/testing';
import { JobSettlementManager } from '../../src/pipeline/job-settlement.manager';
import { NO_BUS, RecordingRunner } from './recording-ports';
import { ContentJobCommands } from '../../src/commands/content-job-commands';

const NOW = '2026-03-10T12:05:00.000Z';
const version = {
  postId: 'p1',
  dataVersion: 1,
  jobId: 'j1',
  reservationId: 'res_1',
  at: '2026-03-10T12:00:00.000Z',
};
const scored = (totalComments: number): PostScored => ({
  type: 'PostScored',
  data: { ...version, scorer: { name: 'rules', version: '1' }, topics: [], messages: [], totalComments },
});
const unreachable: PostFetchFailed = {
  type: 'PostFetchFailed',
  data: { ...version, outcome: 'unreachable', reason: 'private post' },
};
const at = { id: 'ev_outcome', streamId: 'post-p1', correlationId: 'corr-3', teamId: 'team-1' };

describe('JobSettlementManager: given a post outcome, expect RecordPostOutcomes on its job', () => {
  let runner: RecordingRunner;
  let manager: JobSettlementManager;
  beforeEach(() => {
    runner = new RecordingRunner();
    manager = new JobSettlementManager(
      NO_BUS,
      new FixedClock(NOW),
      new ContentJobCommands(runner.asRunner()),
    );
  });

  it('PostScored with comments → the post complete and charged, caused by the outcome event', async () => {
    await manager.handle(delivered(recorded(scored(4), at)));
    expect(runner.runs).toEqual([
      {
        streamId: 'contentjob-j1',
        command: {
          type: 'RecordPostOutcomes',
          data: { outcomes: [{ postId: 'p1', status: 'complete', charged: true }], at: NOW },
        },
        context: { correlationId: 'corr-3', causationId: 'ev_outcome', teamId: 'team-1' },
      },
    ]);
  });

  it('PostScored without comments → complete, not charged', async () => {
    await manager.handle(delivered(recorded(scored(0), at)));
    expect(runner.runs.map((r) => r.command)).toEqual([
      {
        type: 'RecordPostOutcomes',
        data: { outcomes: [{ postId: 'p1', status: 'complete', charged: false }], at: NOW },
      },
    ]);
  });

  it('PostFetchFailed → the failure outcome as the status, not charged', async () => {
    await manager.handle(delivered(recorded(unreachable, at)));
    expect(runner.runs.map((r) => r.command)).toEqual([
      {
        type: 'RecordPostOutcomes',
        data: { outcomes: [{ postId: 'p1', status: 'unreachable', charged: false }], at: NOW },
      },
    ]);
  });

  it('an event that is not an outcome → no command', async () => {
    const tagged: PostTagged = {
      type: 'PostTagged',
      data: { postId: 'p1', addedCollectionIds: [], addedTags: ['x'], at: NOW },
    };
    await manager.handle(delivered(recorded(tagged, at)));
    expect(runner.runs).toEqual([]);
  });

  it('a redelivered outcome asks for the same command again (the job records one outcome per post)', async () => {
    await manager.handle(delivered(recorded(scored(4), at)));
    await manager.handle(delivered(recorded(scored(4), at)));
    expect(runner.runs).toHaveLength(2);
    expect(runner.runs[1]).toEqual(runner.runs[0]);
  });

  it('a job that does not exist → nothing to settle; any other failure is rethrown for redelivery', async () => {
    runner.failure = new ContentError('job_not_found', 'no job j1');
    await expect(manager.handle(delivered(recorded(scored(4), at)))).resolves.toBeUndefined();
    runner.failure = new Error('store down');
    await expect(manager.handle(delivered(recorded(scored(4), at)))).rejects.toThrow('store down');
  });
});
