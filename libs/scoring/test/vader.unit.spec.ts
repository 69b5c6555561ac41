import { bucketOf } from '@analyst/contracts';
import fc from 'fast-check';
import { compoundToScore, emojiName, replaceEmoji, vaderCompound, vaderReferenceCompound } from '@analyst/scoring';

/** Examples from the VADER paper / README with the reference (Python) compound. */
const REFERENCE: [string, number][] = [
  ['VADER is smart, handsome, and funny.', 0.8316],
  ['VADER is smart, handsome, and funny!', 0.8439],
  ['VADER is very smart, handsome, and funny.', 0.8545],
  ['VADER is VERY SMART, handsome, and FUNNY.', 0.9227],
  ['VADER is VERY SMART, handsome, and FUNNY!!!', 0.9342],
  ['VADER is VERY SMART, uber handsome, and FRIGGIN FUNNY!!!', 0.9469],
  ['VADER is not smart, handsome, nor funny.', -0.7424],
  ['The book was good.', 0.4404],
  ['At least it isn\'t a horrible book.', 0.431],
  ['The book was only kind of good.', 0.3832],
  ['The plot was good, but the characters are uncompelling and the dialog is not great.', -0.7042],
  ['Today SUX!', -0.5461],
  ['Make sure you :) or :D today!', 0.8633],
];
/** Where the JS port (vader-sentiment 1.1.3) deviates from the reference: [text, reference, port]. */
const PORT_DEVIATIONS: [string, number, number][] = [
  // The port's but_check looks for "but"/"BUT" only, so a capitalised "But" is not a contrast.
  ["Today only kinda sux! But I'll get by, lol", 0.5249, 0.2228],
  // The reference handles "not bad at all"-style idioms; the port negates "bad" instead.
  ['Not bad at all', 0.431, -0.5423],
];

describe('VADER compound (vader-sentiment port)', () => {
  it.each(REFERENCE)('%s → %d, as the reference VADER', (text, compound) => {
    expect(vaderReferenceCompound(text)).toBe(compound);
    expect(vaderCompound(text)).toBe(compound);
  });

  it.each(PORT_DEVIATIONS)('%s: reference %d, the port returns %d (documented deviation)', (text, _reference, port) => {
    expect(vaderReferenceCompound(text)).toBe(port);
    expect(vaderCompound(text)).toBe(port);
  });

  it('the fast tokenization gives exactly the port\'s compound on arbitrary comment-like text', () => {
    const vocabulary = fc.constantFrom(
      'good', 'GOOD', 'bad', 'not', "isn't", 'never', 'so', 'this', 'very', 'kind', 'of', 'sort', 'kinda', 'but', 'BUT', 'least', 'at', 'the', 'shit', 'bomb',
      'love', 'hate', 'funny', 'FUNNY', 'sux', 'lol', ':)', ':D', ':(', '<3', 'great', 'terrible', 'uber', 'friggin', 'without', 'doubt', 'yeah', 'right', 'it',
      'you', 'nailed', 'fire', 'cut', 'mustard', 'a', 'b', "don't", 'really', 'extremely', 'barely', 'nope', 'kiss', 'death',
    );
    const punct = fc.constantFrom('', '', '', '!', '!!', '!!!', '?', '??', '.', ',', '...', "'", '"', ':', '-', '?!?');
    const token = fc.tuple(fc.constantFrom('', '', '', '"', '(', ',', '#'), vocabulary, punct).map(([a, w, b]) => a + w + b);
    fc.assert(
      fc.property(fc.array(token, { minLength: 0, maxLength: 14 }), fc.constantFrom(' ', '  ', '\n'), (tokens, sep) => {
        const text = tokens.join(sep);
        expect(vaderCompound(text)).toBe(vaderReferenceCompound(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('maps compound -1..1 onto 1..10, linear on each side of 0, with no sentiment in the middle of the neutral band', () => {
    expect(compoundToScore(-1)).toBe(1);
    expect(compoundToScore(-0.5)).toBe(3);
    expect(compoundToScore(0)).toBe(5);
    expect(compoundToScore(0.5)).toBe(7.5);
    expect(compoundToScore(1)).toBe(10);
    expect(compoundToScore(0.4404)).toBeCloseTo(7.202, 3);
    expect(bucketOf('sentiment', compoundToScore(0), 2)).toBe('neutral');
    expect(bucketOf('sentiment', compoundToScore(0.05), 2)).toBe('neutral');
    expect(bucketOf('sentiment', compoundToScore(-0.05), 2)).toBe('neutral');
    expect(bucketOf('sentiment', compoundToScore(0.1), 2)).toBe('lean_positive');
    expect(bucketOf('sentiment', compoundToScore(-0.2), 2)).toBe('lean_negative');
  });
});

describe('emoji, as the reference VADER handles them (replaced by their short names)', () => {
  it('names single emoji, skin tones, missing VS16 and ZWJ sequences', () => {
    expect(emojiName('😍')).toBe('smiling face with heart-eyes');
    expect(emojiName('👍🏽')).toBe('thumbs up');
    expect(emojiName('❤')).toBe('red heart');
    expect(emojiName('❤️')).toBe('red heart');
    expect(emojiName('🤦‍♂️')).toBe('man facepalming');
    expect(emojiName('🤦🏻‍♂️')).toBe('man facepalming');
    expect(emojiName('🇫🇷')).toBe('flag France');
  });

  it('replaces emoji in text', () => {
    expect(replaceEmoji('I love it 😍').replace(/\s+/g, ' ').trim()).toBe('I love it smiling face with heart-eyes');
    expect(replaceEmoji('plain text')).toBe('plain text');
  });

  it('"I love it 😍" scores higher than "I love it"; "😡😡" is negative; 😂 is positive', () => {
    expect(vaderCompound(replaceEmoji('I love it 😍'))).toBeGreaterThan(vaderCompound('I love it'));
    expect(vaderCompound(replaceEmoji('😡😡'))).toBeLessThan(-0.5);
    expect(vaderCompound(replaceEmoji('😂'))).toBeGreaterThan(0);
    expect(vaderCompound(replaceEmoji('👍🏽'))).toBeGreaterThanOrEqual(0);
  });
});
