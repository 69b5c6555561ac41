import { stems } from '@analyst/comment-index';
import type { BenchDomain, BenchSection } from './section';

/** Why a comment is in its section: it means one or more queries, or none (with or without a query's word). */
export type CommentKind = 'relevant' | 'unrelated' | 'near-miss';

export interface LabelledComment {
  text: string;
  kind: CommentKind;
}

export interface LabelledQuery {
  sectionId: string;
  text: string;
  /** Indices (into the section's comments) of the comments that mean it and share no stem with it. */
  relevant: number[];
  /**
   * Comments labelled for it that share a stem with it: left out of its figures, since a keyword
   * search finds them and they test nothing about meaning.
   */
  excluded: number[];
}

export interface LabelledSection {
  id: string;
  domain: BenchDomain;
  comments: LabelledComment[];
  queries: LabelledQuery[];
}

const shareStem = (a: string, b: string): boolean => {
  const mine = new Set(stems(a));
  return stems(b).some((s) => mine.has(s));
};

/**
 * A section as the harness reads it: every comment once, in order (each query's, the shared ones,
 * the unrelated, the near misses), and each query with the comments that mean it.
 */
export function labelSection(section: BenchSection): LabelledSection {
  const comments: LabelledComment[] = [];
  const labels = new Map<string, number[]>(section.queries.map((q) => [q.id, []]));
  const add = (text: string, kind: CommentKind, queryIds: readonly string[]) => {
    const index = comments.push({ text, kind }) - 1;
    for (const id of queryIds) {
      const list = labels.get(id);
      if (!list) throw new Error(`section ${section.id}: a comment names unknown query "${id}"`);
      list.push(index);
    }
  };
  for (const q of section.queries) for (const text of q.comments) add(text, 'relevant', [q.id]);
  for (const s of section.shared) add(s.text, 'relevant', s.queries);
  for (const text of section.unrelated) add(text, 'unrelated', []);
  for (const text of section.nearMisses) add(text, 'near-miss', []);
  const queries = section.queries.map((q) => {
    const labelled = labels.get(q.id) ?? [];
    const excluded = labelled.filter((i) => shareStem(q.text, comments[i].text));
    return {
      sectionId: section.id,
      text: q.text,
      relevant: labelled.filter((i) => !excluded.includes(i)),
      excluded,
    };
  });
  return { id: section.id, domain: section.domain, comments, queries };
}
