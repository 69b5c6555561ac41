/** Markers read from a comment's raw body (lowercased), compiled once. */

/** Agreement with the comment replied to. */
export const AGREE =
  /\b(agree[ds]?|agreed|exactly|so true|this is true|facts|well said|same here|yes+|yep|yup|indeed|absolutely|100%|precisely|true that|you'?re right|good point|fair point|this\b(?=[\s.!]*$))|💯|👍|👏|\+1\b/;
/** "don't agree", "not true": a negated agreement is a disagreement even though AGREE matches it. */
export const NEGATED_AGREE = /\b(don'?t|do not|not|can'?t|never) (agree|true|right)\b/;
/** Disagreement with the comment replied to. */
export const DISAGREE =
  /\b(disagree|(don'?t|do not|not|can'?t) agree|wrong|not true|nope|nah|false|source\?|lol no|that'?s not|isn'?t how|not how|doesn'?t work|incorrect|misleading|cope|no way)\b|^no\b|👎/;
/** Personal hostility. */
export const HOSTILE =
  /\b(idiot|stupid|dumb|clown|moron|shut up|troll|nobody cares|pathetic|garbage|loser|go away|delete your)\b|🤡/;

/** Second person and nouns that point at the post or its creator. */
export const CREATOR_WORDS = new Set([
  'you',
  'your',
  'youre',
  "you're",
  'yours',
  'yourself',
  'u',
  'ur',
  'ya',
  "you've",
  "you'll",
  'video',
  'videos',
  'vid',
  'vids',
  'post',
  'clip',
  'reel',
  'content',
  'channel',
  'editing',
  'explanation',
  'breakdown',
  'episode',
  'thread',
  'title',
  'thumbnail',
  'upload',
  'pacing',
  'podcast',
  'stream',
]);
/**
 * Words for a post's medium, for watching or hearing it and for what it brings back: a comment that
 * names the song, the views or "reminds me of" reacts to the post even when the post never says "song".
 */
export const MEDIUM_WORDS = new Set([
  'song',
  'songs',
  'music',
  'track',
  'tune',
  'beat',
  'beats',
  'lyrics',
  'lyric',
  'verse',
  'chorus',
  'melody',
  'voice',
  'vocals',
  'sing',
  'sings',
  'singing',
  'singer',
  'rap',
  'rapping',
  'rapper',
  'dance',
  'dancing',
  'dancer',
  'choreography',
  'album',
  'mv',
  'views',
  'watch',
  'watching',
  'watched',
  'listen',
  'listening',
  'listened',
  'replay',
  'repeat',
  'hear',
  'heard',
  'hearing',
  'play',
  'played',
  'playing',
  'billion',
  'million',
  'remind',
  'reminds',
  'reminded',
  'memories',
  'childhood',
  'nostalgia',
  'performance',
  'scene',
  'ending',
  'intro',
  'part',
]);
/** "this take", "your take": a take is the creator's only after a determiner. */
export const TAKE = /\b(this|that|your|the|hot|what a) take\b/;

/** Clause boundaries: sentence ends, semicolons, line breaks and contrastive conjunctions. */
export const CLAUSE = /[.!?;\n]+|\s+(?:but|however|although|though|yet|while)\s+/i;
