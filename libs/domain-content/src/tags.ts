/** Trims, drops a leading `#`, drops empties, and merges case-insensitively (the first spelling wins). */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim().replace(/^#+/, '').trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

/** Tags in `incoming` that `existing` does not hold yet (case-insensitively). */
export function newTags(existing: readonly string[], incoming: readonly string[]): string[] {
  const have = new Set(existing.map((t) => t.toLowerCase()));
  return normalizeTags(incoming).filter((t) => !have.has(t.toLowerCase()));
}
