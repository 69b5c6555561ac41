import type { Dimension } from '@analyst/contracts';
import type { CommentColumns } from './columns';
import type { Mix } from './mix';
import { rollup, type RollupScores } from './rollup';
import type { RollupSettings } from './rollup-settings';

export interface DailyMetric {
  /** UTC day, YYYY-MM-DD, of the comments' own timestamps. */
  date: string;
  comments: number;
  scores: RollupScores;
  /** content and topic only for score version 2 and up. */
  mix: Partial<Record<Dimension, Mix>>;
}

/** One rollup per UTC day of the comments' timestamps, oldest first. */
export function dailyMetrics(
  columns: CommentColumns,
  rows: ArrayLike<number>,
  settings: RollupSettings,
): DailyMetric[] {
  const byDay = new Map<number, number[]>();
  for (let i = 0; i < rows.length; i++) {
    const day = Math.floor(columns.postedAt[rows[i]] / 86400);
    let list = byDay.get(day);
    if (!list) byDay.set(day, (list = []));
    list.push(rows[i]);
  }
  return [...byDay.keys()]
    .sort((a, b) => a - b)
    .map((day) => {
      const r = rollup(columns, byDay.get(day)!, settings);
      const { content, topic, ...rest } = r.mix;
      return {
        date: new Date(day * 86400_000).toISOString().slice(0, 10),
        comments: r.comments,
        scores: r.scores,
        mix: settings.scoreVersion >= 2 ? { ...rest, content, topic } : rest,
      };
    });
}
