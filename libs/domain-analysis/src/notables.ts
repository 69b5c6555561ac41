import type { CommentColumns } from './columns';
import { isOffTopic } from './off-topic';

export const NOTABLE_LIMIT = 10;

/**
 * Highest-engagement, most relevant matched comments: notability = (1 + ln(1 + likes)) × relevance/10
 * (an unscored relevance counts as 0.5). Off-topic comments (spam included) are never notable, however
 * liked. Ties keep row order. Returns row indices, best first.
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
    if (isOffTopic(rel)) continue;
    const score = (1 + Math.log1p(columns.likes[r])) * (rel === rel ? rel / 10 : 0.5);
    if (best.length === limit && score <= best[best.length - 1].score) continue;
    let at = best.length;
    while (at > 0 && best[at - 1].score < score) at--;
    best.splice(at, 0, { row: r, score });
    if (best.length > limit) best.pop();
  }
  return best.map((b) => b.row);
}
