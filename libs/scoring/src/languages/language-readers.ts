/**
 * Readers for the languages other than English that the scorer reads: ISO 639-1 code → the
 * compound (-1..1) of a text in that language whose emoji are already spelled out by replaceEmoji.
 */
export const LANGUAGE_READERS: ReadonlyMap<string, (text: string) => number> = new Map();
