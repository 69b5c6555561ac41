import type { CommentColumns } from './columns';
import { isOffTopic } from './off-topic';

export const NOTABLE_LIMIT = 10;

/**
 * The one rule that keeps a comment out of every notable list: off-topic (spam and promotion are
 * stored there). `notableRows` (the analysis's `notableComments`) and the sample routes' notable tier
 * (`source=notables` and the head of `source=all`, libs/sampling) both ask it, so the comments one
 * route keeps out of notability are the ones the other keeps out; each then ranks what is left its own
 * way (the sample's tier also asks for high engagement and high relevance).
 */
export function mayBeNotable(relevance: number): boolean {
  return !isOffTopic(relevance);
}

/**
 * Highest-engagement, most relevant matched comments: notability = (1 + ln(1 + likes)) × relevance/10
 * (an unscored relevance counts as 0.5), over the comments that `mayBeNotable`: off-topic comments (spam
 * included) never are, however liked. Ties keep row order. Returns row indices, best first.
 */
export function notableRows(
  columns: CommentColumns,
  rows: ArrayLike<number>,
  limit = NOTABLE_LIMIT,
): number[] {
  const best: { row: number; score: number }[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const rel = columns.relevance[r];
    if (!mayBeNotable(rel)) continue;
    const score = (1 + Math.log1p(columns.likes[r])) * (rel === rel ? rel / 10 : 0.5);
    if (best.length === limit && score <= best[best.length - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score < score) at--;
    best.splice(at, 0, { row: r, score });
    if (best.length > limit) best.pop();
  }
  return best.map((b) => b.row);
}
