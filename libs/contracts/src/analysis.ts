/**
 * What POST /analyses may add with `include`. `emotions` (the emotions mix) extends the spec, which
 * names the two clouds.
 */
export const ANALYSIS_INCLUDES = ['wordCloud', 'emojiCloud', 'emotions'] as const;
export type AnalysisInclude = (typeof ANALYSIS_INCLUDES)[number];
