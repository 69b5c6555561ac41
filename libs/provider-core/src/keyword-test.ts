import type { AccountQuery } from '@analyst/contracts';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** The spec's keyword matches, case-insensitive: includes (substring), exact (whole word or phrase), excludes. */
export function keywordTest(keywords: AccountQuery['keywords']): (caption: string) => boolean {
  if (!keywords || keywords.term.trim() === '') return () => true;
  const term = keywords.term.trim().toLowerCase();
  if (keywords.match === 'excludes') return (caption) => !caption.toLowerCase().includes(term);
  if (keywords.match === 'exact') {
    const whole = new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(term)}($|[^\\p{L}\\p{N}])`, 'iu');
    return (caption) => whole.test(caption);
  }
  return (caption) => caption.toLowerCase().includes(term);
}
