import { englishCompound } from './english-sentiment';
import { LANGUAGE_READERS } from './languages/language-readers';

/**
 * The compound (-1..1) of a text (emoji already spelled out by replaceEmoji) read by the reader of
 * its language, or null when no reader reads that language (unscored, never neutral). A null
 * language (too short to tell) is read as English.
 */
export function readCompound(text: string, language: string | null): number | null {
  if (language === null || language === 'en') return englishCompound(text);
  const reader = LANGUAGE_READERS.get(language);
  return reader ? reader(text) : null;
}
