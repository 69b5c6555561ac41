export { LexiconScorer, SCORER_NAME, SCORER_VERSION } from './lexicon-scorer';
export { extractCreatorSide, type CreatorSide, type ExtractedTopic } from './creator-topics';
export { emojiName, replaceEmoji } from './emoji';
export { compoundToScore, vaderCompound, vaderReferenceCompound, vaderWords } from './vader';
