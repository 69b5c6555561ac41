import * as contracts from '@analyst/contracts';
import {
  type ContentJobOpenedTeam,
  asPostOutcome,
  outcomeStatus,
  versionIsCharged,
} from '@analyst/contracts';
import { type ContentJobOpened } from '@analyst/domain-content';

const base = { postId: 'po_1', dataVersion: 1, jobId: 'cj_1', reservationId: 'res_1' };

describe('post outcomes, as the settlement process managers read them', () => {
  it('recognises only outcome events', () => {
    expect(asPostOutcome({ type: 'PostCreated', data: {} })).toBeNull();
    expect(asPostOutcome({ type: 'CommentsScored', data: {} })).toBeNull();
    expect(asPostOutcome({ type: 'PostCancelled', data: { ...base, reason: 'x', at: 't' } })?.type).toBe(
      'PostCancelled',
    );
  });

  it('maps each outcome to the post status and the charge', () => {
    const scored = asPostOutcome({
      type: 'PostScored',
      data: {
        ...base,
        scorer: { name: 's', version: '1' },
        topics: [],
        messages: [],
        totalComments: 3,
        at: 't',
      },
    })!;
    const empty = asPostOutcome({
      type: 'PostScored',
      data: {
        ...base,
        scorer: { name: 's', version: '1' },
        topics: [],
        messages: [],
        totalComments: 0,
        at: 't',
      },
    })!;
    const unreachable = asPostOutcome({
      type: 'PostFetchFailed',
      data: { ...base, outcome: 'unreachable', reason: 'x', at: 't' },
    })!;
    const cancelled = asPostOutcome({ type: 'PostCancelled', data: { ...base, reason: 'x', at: 't' } })!;
    expect([scored, empty, unreachable, cancelled].map(outcomeStatus)).toEqual([
      'complete',
      'complete',
      'unreachable',
      'cancelled',
    ]);
    expect([scored, empty, unreachable, cancelled].map(versionIsCharged)).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it('are the ones @analyst/contracts defines (the ledger domain reads them from there)', () => {
    expect(asPostOutcome).toBe(contracts.asPostOutcome);
    expect(outcomeStatus).toBe(contracts.outcomeStatus);
    expect(versionIsCharged).toBe(contracts.versionIsCharged);
  });

  it('ContentJobOpened carries the job and team the ledger audit reads (ContentJobOpenedTeam)', () => {
    const opened = {
      type: 'ContentJobOpened',
      data: { jobId: 'cj_1', teamId: 'team_1' },
    } as ContentJobOpened;
    // Type-checked: this assignment stops compiling if the two shapes part.
    const read: ContentJobOpenedTeam = opened;
    expect(read.data).toEqual({ jobId: 'cj_1', teamId: 'team_1' });
  });
});
