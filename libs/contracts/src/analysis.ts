/** What POST /analyses may add with `include`. */
export const ANALYSIS_INCLUDES = ['wordCloud', 'emojiCloud'] as const;
export type AnalysisInclude = (typeof ANALYSIS_INCLUDES)[number];
