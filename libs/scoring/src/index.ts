export { LexiconScorer, SCORER_NAME, SCORER_VERSION, sentimentOf } from './lexicon-scorer';
export { emotionOf } from './emotion';
export { READABLE_LANGUAGES, detectLanguage, isReadableLanguage } from './language';
export { extractCreatorSide, type CreatorSide, type ExtractedTopic } from './creator-topics';
export { EMOJI_VALENCE, emojiKey, emojiName, emojiValence, replaceEmoji } from './emoji';
export { SLANG } from './slang';
export {
  compoundToScore,
  scoreToCompound,
  LEXICON,
  portCompound,
  vaderCompound,
  vaderReading,
  vaderWords,
} from './vader';
