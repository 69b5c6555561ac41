import { stems } from '@analyst/comment-index';
import type { BenchSection, BenchSplit } from './section';

/**
 * The split rule: within each domain, sections in the order listed alternate validation, test,
 * validation, ..., so both splits cover every domain and no one chose which section lands where
 * by its figures. Throws where a section's written split breaks it.
 */
export function checkSplitRule(sections: readonly BenchSection[]): void {
  const seen = new Map<string, number>();
  for (const s of sections) {
    const position = seen.get(s.domain) ?? 0;
    seen.set(s.domain, position + 1);
    const expected: BenchSplit = position % 2 === 0 ? 'validation' : 'test';
    if (s.split !== expected)
      throw new Error(
        `section ${s.id}: split ${s.split}, but the rule gives ${expected} (domain ${s.domain})`,
      );
  }
  for (const [domain, count] of seen)
    if (count < 2) throw new Error(`domain ${domain} has ${count} section: it needs one in each split`);
}

/** Each comment is written once in the whole bench, and section ids are unique. */
export function checkUnique(sections: readonly BenchSection[]): void {
  const ids = new Set<string>();
  const texts = new Map<string, string>();
  for (const s of sections) {
    if (ids.has(s.id)) throw new Error(`two sections are named ${s.id}`);
    ids.add(s.id);
    const all = [
      ...s.queries.flatMap((q) => q.comments),
      ...s.shared.map((c) => c.text),
      ...s.unrelated,
      ...s.nearMisses,
    ];
    for (const text of all) {
      const key = text.trim().toLowerCase();
      const other = texts.get(key);
      if (other) throw new Error(`"${text}" is written twice (sections ${other} and ${s.id})`);
      texts.set(key, s.id);
    }
  }
}

/** Near misses that share no stem with any query of their section (they are then plain unrelated comments). */
export function nearMissesWithoutSharedStem(sections: readonly BenchSection[]): string[] {
  const out: string[] = [];
  for (const s of sections) {
    const queryStems = new Set(s.queries.flatMap((q) => stems(q.text)));
    for (const text of s.nearMisses)
      if (!stems(text).some((x) => queryStems.has(x))) out.push(`${s.id}: ${text}`);
  }
  return out;
}
