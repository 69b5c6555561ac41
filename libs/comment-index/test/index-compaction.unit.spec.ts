import { rollup } from '@analyst/domain-analysis';
import {
  POST_EVENTS_AT as AT,
  commentsOfVersion as commentsOf,
  postCreated as created,
  postEvent as recorded,
  postRefresh as refresh,
  postVersion as version,
} from '@analyst/testing';
import { foldIntoTeams, FoldedTeams } from '@analyst/comment-index';
import { rowsOf } from './rows-of';

const TEAM = 'tm_compact';

describe('team index compaction', () => {
  it('drops the rows of replaced versions once they are half the rows, and every live row reads as before', () => {
    const teams = new FoldedTeams({ minDeadRows: 10 });
    for (const e of [
      created('p1', TEAM),
      ...version('p1', 1, 8),
      created('p2', TEAM),
      ...version('p2', 1, 8),
    ])
      foldIntoTeams(teams, e);
    const team = teams.team(TEAM);
    const p2Before = rowsOf(team, team.postsById.get('p2')!);

    for (const e of [refresh('p1', 2), ...version('p1', 2, 8)]) foldIntoTeams(teams, e);
    // 8 dead of 24: under both the minimum and half.
    expect(team.columns.length).toBe(24);
    expect(team.deadRowCount).toBe(8);
    expect(team.compactions).toBe(0);

    for (const e of [refresh('p1', 3), ...version('p1', 3, 8)]) foldIntoTeams(teams, e);
    // 16 dead of 32: compacted down to the 16 live rows.
    expect(team.compactions).toBe(1);
    expect(team.columns.length).toBe(16);
    expect(team.deadRowCount).toBe(0);
    expect(team.commentIds.filter((id) => id !== undefined)).toHaveLength(16);

    // The same rows as an index that only ever saw the final versions.
    const reference = new FoldedTeams();
    for (const e of [
      created('p1', TEAM),
      refresh('p1', 3),
      ...version('p1', 3, 8),
      created('p2', TEAM),
      ...version('p2', 1, 8),
    ])
      foldIntoTeams(reference, e);
    const ref = reference.team(TEAM);
    for (const id of ['p1', 'p2']) {
      const post = team.postsById.get(id)!;
      const refPost = ref.postsById.get(id)!;
      expect(rowsOf(team, post)).toEqual(rowsOf(ref, refPost));
      for (const scoreVersion of [1, 2, 3] as const) {
        const settings = { scoreVersion, engagementWeight: 1 };
        expect(rollup(team.columns, post.scored!.rows, settings)).toEqual(
          rollup(ref.columns, refPost.scored!.rows, settings),
        );
      }
    }
    expect(rowsOf(team, team.postsById.get('p2')!)).toEqual(p2Before);
    expect(rowsOf(team, team.postsById.get('p1')!)[0].id).toBe('p1-v3-c0');
  });

  it('keeps a version still being fetched, and comments arriving after the compaction land in its rows', () => {
    const teams = new FoldedTeams({ minDeadRows: 4 });
    for (const e of [
      created('p1', TEAM),
      ...version('p1', 1, 6),
      created('p2', TEAM),
      ...version('p2', 1, 2),
    ])
      foldIntoTeams(teams, e);
    const team = teams.team(TEAM);
    // p2's v2 is half fetched when p1's refresh makes the compaction due (6 dead of 12).
    const { fetched, scored } = commentsOf('p2', 2, 4);
    foldIntoTeams(teams, refresh('p2', 2));
    foldIntoTeams(
      teams,
      recorded('CommentsFetched', { postId: 'p2', dataVersion: 2, chunk: 0, comments: fetched.slice(0, 2) }),
    );
    for (const e of [refresh('p1', 2), ...version('p1', 2, 2)]) foldIntoTeams(teams, e);
    expect(team.compactions).toBe(1);
    expect(team.columns.length).toBe(6); // p2 v1 (2) + p2 v2 so far (2) + p1 v2 (2)
    foldIntoTeams(
      teams,
      recorded('CommentsFetched', { postId: 'p2', dataVersion: 2, chunk: 1, comments: fetched.slice(2) }),
    );
    foldIntoTeams(
      teams,
      recorded('CommentsScored', {
        postId: 'p2',
        dataVersion: 2,
        chunk: 0,
        scorer: { name: 'test', version: '1' },
        comments: scored,
      }),
    );
    foldIntoTeams(
      teams,
      recorded('PostScored', {
        postId: 'p2',
        dataVersion: 2,
        jobId: 'cj',
        reservationId: null,
        scorer: { name: 'test', version: '1' },
        topics: [],
        messages: [],
        totalComments: 4,
        at: AT,
      }),
    );
    const rows = rowsOf(team, team.postsById.get('p2')!);
    expect(rows.map((r) => r.id)).toEqual(['p2-v2-c0', 'p2-v2-c1', 'p2-v2-c2', 'p2-v2-c3']);
    expect(rows.map((r) => r.scores[0])).toEqual(scored.map((c) => c.scores.sentiment));
  });

  it('counts the rows of a version that failed or was cancelled before scoring as dead', () => {
    const teams = new FoldedTeams({ minDeadRows: 6 });
    for (const e of [
      created('p1', TEAM),
      ...version('p1', 1, 3),
      refresh('p1', 2),
      ...version('p1', 2, 3, true),
    ])
      foldIntoTeams(teams, e);
    const team = teams.team(TEAM);
    foldIntoTeams(
      teams,
      recorded('PostFetchFailed', {
        postId: 'p1',
        dataVersion: 2,
        jobId: 'cj',
        reservationId: null,
        outcome: 'failed',
        reason: 'x',
        at: AT,
      }),
    );
    expect(team.deadRowCount).toBe(3);
    for (const e of [refresh('p1', 3), ...version('p1', 3, 3, true)]) foldIntoTeams(teams, e);
    foldIntoTeams(teams, recorded('PostCancelled', { postId: 'p1', dataVersion: 3, at: AT }));
    // 6 dead of 9: compacted to v1's 3 rows, which stay the post's analysis.
    expect(team.compactions).toBe(1);
    expect(team.columns.length).toBe(3);
    expect(rowsOf(team, team.postsById.get('p1')!).map((r) => r.id)).toEqual([
      'p1-v1-c0',
      'p1-v1-c1',
      'p1-v1-c2',
    ]);
  });

  it('waits while the team is held, compacts when the last hold is released, and tells listeners the new rows', () => {
    const teams = new FoldedTeams({ minDeadRows: 4 });
    for (const e of [created('p1', TEAM), ...version('p1', 1, 4)]) foldIntoTeams(teams, e);
    const team = teams.team(TEAM);
    const heldRows = Array.from(team.postsById.get('p1')!.scored!.rows);
    const remaps: { remap: number[]; rows: number }[] = [];
    team.onCompaction((remap, rows) => remaps.push({ remap: Array.from(remap), rows }));
    const releaseA = team.hold();
    const releaseB = team.hold();
    for (const e of [refresh('p1', 2), ...version('p1', 2, 4)]) foldIntoTeams(teams, e);
    // Due (4 dead of 8) but held: row numbers taken before stay valid.
    expect(team.compactions).toBe(0);
    expect(heldRows.map((r) => team.commentIds[r])).toEqual(['p1-v1-c0', 'p1-v1-c1', 'p1-v1-c2', 'p1-v1-c3']);
    releaseA();
    releaseA(); // a second call of the same release does nothing
    expect(team.compactions).toBe(0);
    releaseB();
    expect(team.compactions).toBe(1);
    expect(team.columns.length).toBe(4);
    expect(remaps).toEqual([{ remap: [-1, -1, -1, -1, 0, 1, 2, 3], rows: 4 }]);
  });
});
