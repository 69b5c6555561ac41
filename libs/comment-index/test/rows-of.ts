import { emotionOfCode } from '@analyst/domain-analysis';
import type { PostEntry, TeamIndex } from '../src';

/** Everything the team holds for a post's rows, by value (term and author names, not ids). */
export function rowsOf(team: TeamIndex, entry: PostEntry) {
  const c = team.columns;
  const d = team.details;
  const authorName = new Map(Array.from(team.authors, ([name, id]) => [id, name]));
  return Array.from(entry.scored!.rows, (r) => ({
    id: team.commentIds[r],
    body: d.body(r),
    author: authorName.get(c.authorId[r]),
    shownAs: d.authors[r],
    postedAt: [d.postedAtOf(r), c.postedAt[r]],
    idHash: d.idHash[r],
    links: [d.topicIndex[r], d.messageIndex[r], d.languages[r]],
    scores: [c.sentiment[r], c.content[r], c.topic[r], c.relevance[r], c.consensus[r]],
    emotion: emotionOfCode(c.emotion[r]),
    flags: [
      c.likes[r],
      c.isReply[r],
      c.hidden[r],
      c.isCreator[r],
      c.hasQuestion[r],
      c.hasMention[r],
      c.hasEmoji[r],
      c.postIndex[r],
    ],
    tokens: Array.from(c.tokenIds.subarray(c.tokenStart[r], c.tokenStart[r + 1]), (t) => [
      team.vocab.term(t),
      team.vocab.kind(t),
    ]),
  }));
}
