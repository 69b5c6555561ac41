import { bucketOf } from '@analyst/contracts';
import { englishCompound } from '../src/english-sentiment';
import {
  compoundToScore,
  scoreToCompound,
  emojiName,
  portCompound,
  replaceEmoji,
  sentimentOf,
  vaderCompound,
  vaderReading,
} from '@analyst/scoring';

/** Examples from the VADER README with the reference's (vaderSentiment 3.3.2, Python) compound. */
const REFERENCE: [string, number][] = [
  ['VADER is smart, handsome, and funny.', 0.8316],
  ['VADER is smart, handsome, and funny!', 0.8439],
  ['VADER is very smart, handsome, and funny.', 0.8545],
  ['VADER is VERY SMART, handsome, and FUNNY.', 0.9227],
  ['VADER is VERY SMART, handsome, and FUNNY!!!', 0.9342],
  ['VADER is VERY SMART, uber handsome, and FRIGGIN FUNNY!!!', 0.9469],
  ['VADER is not smart, handsome, nor funny.', -0.7424],
  ['The book was good.', 0.4404],
  ["At least it isn't a horrible book.", 0.431],
  ['The book was only kind of good.', 0.3832],
  ['The plot was good, but the characters are uncompelling and the dialog is not great.', -0.7042],
  ['Today SUX!', -0.5461],
  ['Make sure you :) or :D today!', 0.8633],
  ['Sentiment analysis has never been this good!', 0.5672],
  ['Roger Dodger is one of the least compelling variations on this theme.', -0.1695],
  ['Without a doubt, excellent idea.', 0.7013],
];

/**
 * Where the npm port (vader-sentiment 1.1.3, which the product used to call) departs from the reference:
 * [text, reference compound (what we return now), port compound, why].
 */
const PORT_DEPARTURES: [string, number, number, string][] = [
  [
    'Not bad at all',
    0.431,
    -0.5423,
    'negation words matched case-sensitively in the port ("Not" was no negation)',
  ],
  ['NOT worth it', -0.1695, 0.2263, 'case-sensitive negation'],
  ['Never disappoints', 0.2924, -0.3818, 'case-sensitive negation'],
  ['no problem', 0.3089, -0.5994, 'the port has no "no" rule (no + lexicon word negates the word)'],
  ['No problem at all', 0.3089, -0.5994, 'the "no" rule, case-insensitively'],
  ['no good', -0.3412, 0.1779, 'the "no" rule'],
  [
    "Today only kinda sux! But I'll get by, lol",
    0.5249,
    0.2228,
    'the port\'s but_check sees "but"/"BUT" only, not "But"',
  ],
  ['The food was good. But the service was terrible', -0.4939, -0.0516, 'capitalised But'],
  [
    'good...',
    0.4404,
    0,
    'the port keeps "good..." as one unknown token; the reference strips punctuation off words',
  ],
  ['good!!!!', 0.6209, 0, 'punctuation stripping, then "!" emphasis (4 × 0.292)'],
  ['good?!', 0.4926, 0, 'punctuation stripping'],
  ['heart', 0.6369, 0, '"heart" (3.2) is in the reference lexicon, not in the port\'s copy'],
  ['I heart this channel', 0.6369, 0, 'missing lexicon entry "heart"'],
  ['Such a flawed argument', -0.6808, -0.3612, 'missing lexicon entry "flawed" (-2.1)'],
  ['VADER is such a badass!', 0.4003, -0.2244, '"badass" is 1.4 in the reference lexicon, -0.6 in the port'],
];

describe('VADER compound (reference rules)', () => {
  it.each(REFERENCE)('%s → %d, as the reference VADER', (text, compound) => {
    expect(vaderCompound(text)).toBe(compound);
  });

  it.each(PORT_DEPARTURES)('%s → %d as the reference (the port: %d; %s)', (text, reference, port) => {
    expect(vaderCompound(text)).toBe(reference);
    expect(portCompound(text)).toBe(port);
  });

  it('tells a text without sentiment words from one whose words cancel out, and says when slang was read', () => {
    expect(vaderReading('When is the next video?')).toEqual({ compound: 0, signal: false, slang: false });
    expect(vaderReading('good')).toEqual({ compound: 0.4404, signal: true, slang: false });
    expect(vaderReading('this is sick').slang).toBe(true);
    expect(vaderReading('I am sick of it').slang).toBe(false);
    expect(vaderReading('you killed it').slang).toBe(true);
    expect(vaderReading("that's cap").slang).toBe(true);
    expect(vaderReading('no cap this is good').slang).toBe(false);
  });

  it('maps compound -1..1 onto 1..10 through the knots: ±0.5 at the strong bucket edges, the calibrated neutral band -0.075 .. 0.35, no sentiment at 5', () => {
    expect(compoundToScore(-1)).toBe(1);
    expect(compoundToScore(-0.5)).toBe(3);
    expect(compoundToScore(0)).toBe(5);
    expect(compoundToScore(0.5)).toBe(7.5);
    expect(compoundToScore(1)).toBe(10);
    expect(compoundToScore(-0.075)).toBeCloseTo(4.5, 9);
    expect(compoundToScore(0.35)).toBeCloseTo(5.5, 9);
    expect(compoundToScore(0.4404)).toBeCloseTo(6.7053, 4); // 5.5 + 2 × (0.4404 - 0.35) / 0.15
    expect(bucketOf('sentiment', compoundToScore(0), 2)).toBe('neutral');
    expect(bucketOf('sentiment', compoundToScore(0.3), 2)).toBe('neutral'); // "ok": people call it neutral
    expect(bucketOf('sentiment', compoundToScore(-0.05), 2)).toBe('neutral');
    expect(bucketOf('sentiment', compoundToScore(0.36), 2)).toBe('lean_positive');
    expect(bucketOf('sentiment', compoundToScore(-0.1), 2)).toBe('lean_negative');
    for (const c of [-1, -0.7, -0.5, -0.2, -0.075, 0, 0.2, 0.35, 0.42, 0.5, 0.8, 1])
      expect(scoreToCompound(compoundToScore(c))).toBeCloseTo(c, 9);
  });
});

describe('sentimentOf: the v1 reading of a comment body', () => {
  it('is the mapped compound rounded to 3 decimals; 5 without signal; NaN for an empty body', () => {
    // The compound is the English reader's (the trained model blended with VADER, english-sentiment.ts).
    for (const text of ['The book was good.', 'Not bad at all', 'VADER is not smart, handsome, nor funny.'])
      expect(sentimentOf(text)).toBe(Math.round(compoundToScore(englishCompound(text)) * 1000) / 1000);
    expect(sentimentOf('The book was good.')).toBe(9.035);
    expect(sentimentOf('VADER is not smart, handsome, nor funny.')).toBe(1.724); // negative, as VADER alone (2.03); negated words read apart
    // from plain ones, character grams included (English sentiment model, README)
    expect(sentimentOf('Saving this for later')).toBe(5);
    expect(sentimentOf('')).toBeNaN();
    expect(sentimentOf('   ')).toBeNaN();
  });
});

describe('emoji names (CLDR), kept for display', () => {
  it('names single emoji, skin tones, missing VS16 and ZWJ sequences', () => {
    expect(emojiName('😍')).toBe('smiling face with heart-eyes');
    expect(emojiName('👍🏽')).toBe('thumbs up');
    expect(emojiName('❤')).toBe('red heart');
    expect(emojiName('🤦🏻‍♂️')).toBe('man facepalming');
    expect(emojiName('🇫🇷')).toBe('flag France');
  });

  it('replaces emoji by their lexicon key as words of their own, dropping those without a valence', () => {
    expect(replaceEmoji('I love it😍').replace(/\s+/g, ' ').trim()).toBe('I love it 😍');
    expect(replaceEmoji('ok 🇫🇷').trim()).toBe('ok');
    expect(replaceEmoji('plain text')).toBe('plain text');
  });
});
