import { commentsOfVersion, postCreated, postRefresh, postVersion } from '@analyst/testing';
import { foldIntoTeams, FoldedTeams, fnv1a32 } from '../src';

const TEAM = 'tm_sampling_compact';

describe('row details across a compaction of the comment columns', () => {
  it('moves every row detail (author, postedAt, id hash, topic and message) with its row', () => {
    const teams = new FoldedTeams({ minDeadRows: 4 });
    const events = [
      postCreated('p1', TEAM),
      ...postVersion('p1', 1, 5),
      postCreated('p2', TEAM),
      ...postVersion('p2', 1, 3),
    ];
    // Give p2's comments topic and message indexes, so the remap of those columns is visible.
    const scoredP2 = events.find(
      (e) => e.type === 'CommentsScored' && (e.data as { postId: string }).postId === 'p2',
    )!;
    (
      scoredP2.data as { comments: { topicIndex: number | null; messageIndex: number | null }[] }
    ).comments.forEach((c, i) => {
      c.topicIndex = i;
      c.messageIndex = 2 - i;
    });
    for (const e of [...events, postRefresh('p1', 2), ...postVersion('p1', 2, 1)]) foldIntoTeams(teams, e);

    const team = teams.team(TEAM);
    // 5 dead of 9 after the refresh: compacted once, down to the 4 live rows.
    expect(team.compactions).toBe(1);
    expect(team.deadRowCount).toBe(0);
    expect(team.columns.length).toBe(4);
    const details = team.details;
    const read = (postId: string) =>
      Array.from(team.postsById.get(postId)!.scored!.rows, (r) => ({
        id: team.commentIds[r],
        author: details.authors[r],
        postedAt: details.postedAtOf(r),
        idHash: details.idHash[r],
        topic: details.topicIndex[r],
        message: details.messageIndex[r],
      }));
    const expected = (
      postId: string,
      version: number,
      count: number,
      topics: (i: number) => [number, number],
    ) =>
      commentsOfVersion(postId, version, count).fetched.map((c, i) => ({
        id: c.id,
        author: c.authorUsername,
        postedAt: c.postedAt,
        idHash: fnv1a32(c.id),
        topic: topics(i)[0],
        message: topics(i)[1],
      }));
    expect(read('p2')).toEqual(expected('p2', 1, 3, (i) => [i, 2 - i]));
    expect(read('p1')).toEqual(expected('p1', 2, 1, () => [-1, -1]));
  });
});
