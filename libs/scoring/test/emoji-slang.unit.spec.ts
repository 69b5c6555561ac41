import {
  EMOJI_VALENCE,
  emojiKey,
  emojiValence,
  replaceEmoji,
  sentimentOf,
  vaderCompound,
} from '@analyst/scoring';

const compound = (text: string) => vaderCompound(replaceEmoji(text));

describe('emoji valences', () => {
  it('uses the Emoji Sentiment Ranking figure, 4 × ((P+1) − (Neg+1)) / (N+3), where it has one', () => {
    // ❤ 0x2764: N 8050, Neg 355, P 6361 → 4 × 6006/8053 = 2.98
    expect(emojiValence('❤')).toBe(2.98);
    // 😂: N 14622, Neg 3614, P 6845 → 0.88
    expect(emojiValence('😂')).toBe(0.88);
    // 🔥: N 651 → 0.56 (the reference reads it as "fire", -1.4)
    expect(emojiValence('🔥')).toBe(0.56);
    expect(emojiValence('💀')).toBe(-0.83);
    expect(emojiValence('👎')).toBe(-0.75);
    expect(emojiValence('😒')).toBe(-1.5);
  });

  it('uses reviewed values for emoji newer than the ranking', () => {
    expect(emojiValence('🙄')).toBe(-1.5);
    expect(emojiValence('🤡')).toBe(-1.8);
    expect(emojiValence('🤮')).toBe(-2.5);
    expect(emojiValence('🥰')).toBe(2.8);
    expect(emojiValence('🫶')).toBe(2.8);
  });

  it('normalises VS16, skin tones and ZWJ sequences', () => {
    expect(emojiKey('❤️')).toBe('❤');
    expect(emojiKey('👍🏽')).toBe('👍');
    expect(emojiValence('👍🏿')).toBe(emojiValence('👍'));
    expect(emojiKey('🤦🏻‍♂️')).toBe('🤦');
    expect(emojiValence('❤️‍🔥')).toBe(2.8);
    expect(emojiValence('🇫🇷')).toBeNull();
  });

  it('covers Smileys & Emotion faces, hearts and hand gestures in common use', () => {
    const common = [
      ...'😀😃😄😁😆😅🤣😂🙂🙃😉😊😇🥰😍🤩😘😋😛😜🤪😝🤗🤭🤔🤨😐😑😶😏😒🙄😬😌😔😪😴😷🤒🤢🤮🥵🥶🥴😵🤯🥳😎🤓😕😟🙁😮😯😲😳🥺😦😧😨😰😥😢😭😱😖😣😞😓😩😫🥱😤😡😠🤬😈👿💀💩🤡',
    ];
    const hearts = [...'❤🧡💛💚💙💜🖤🤍🤎💔💕💞💓💗💖💘💝'];
    const hands = [...'👍👎👌🤌✌🤞🤟🤘🤙👈👉👆👇👋🤚🖐✋👏🙌🫶👐🤲🤝🙏💪'];
    for (const e of [...common, ...hearts, ...hands]) expect([e, EMOJI_VALENCE.has(e)]).toEqual([e, true]);
  });

  it('reads what users mean', () => {
    expect(compound('🔥🔥🔥')).toBeGreaterThan(0.3); // reference -0.7351
    expect(compound('❤️❤️')).toBeGreaterThan(0.8);
    expect(compound('🙄')).toBeLessThan(-0.3);
    expect(compound('🤮')).toBeLessThan(-0.5);
    expect(compound('🤡')).toBeLessThan(-0.3);
    expect(compound('👎🏽')).toBeLessThan(0);
    expect(compound('I love it 😍')).toBeGreaterThan(vaderCompound('I love it'));
  });
});

describe('slang and intensifiers', () => {
  it.each([
    ['This is fire', 0.4939],
    ['Killed it 🔥', 0.6322],
    ['This is sick!', 0.5093],
    ['this song slaps', 0.5106],
    ['goated', 0.5859],
    ['W', 0.4588],
    ['huge W for the team', 0.7213],
  ])('%s reads positive: %d', (text, expected) => {
    expect(compound(text)).toBe(expected);
  });

  it.each([
    ['kinda mid tbh', -0.2748],
    ['so mid', -0.4005],
    ['L', -0.4588],
    ['ratio', -0.3818],
    ['trash take', -0.4588],
  ])('%s reads negative: %d', (text, expected) => {
    expect(compound(text)).toBe(expected);
  });

  it('keeps the ordinary sense outside slang contexts', () => {
    expect(compound('The house caught fire last night')).toBe(-0.34); // lexicon "fire" -1.4
    expect(compound("I'm sick of this")).toBeLessThan(0);
    expect(compound('what aspect ratio do you film in')).toBe(0);
    expect(compound('l')).toBe(0.4588); // the reference lexicon's lowercase "l" 2.0 stays
  });

  it('W and L are initials in names, not a win or a loss', () => {
    expect(compound('Samuel L. Jackson is one of the best actors')).toBe(
      compound('Samuel Jackson is one of the best actors'),
    );
    expect(compound('taking potshots at George W. Bush')).toBe(compound('taking potshots at George Bush'));
    expect(compound('H. L. Mencken wrote it')).toBe(0);
    expect(compound('Massive W')).toBeGreaterThan(0.4);
  });

  it('trash, dope, sick, cringe and "ate it" read as slang only where they judge', () => {
    expect(compound('this thing is trash')).toBeLessThan(-0.3);
    expect(compound('they reached the trash receptacles in the lobby')).toBe(
      compound('they reached the steel receptacles in the lobby'),
    );
    expect(compound('that beat is dope')).toBeGreaterThan(0.3);
    expect(compound('no good inside dope')).toBe(compound('no good inside info'));
    expect(compound('lets see how sick I get')).toBeLessThan(0);
    expect(compound('I ate it all :c')).toBeLessThan(0); // a meal, and the emoticon's -2.1
    expect(compound('so cringe')).toBeLessThan(-0.3);
    expect(compound('made me cringe')).toBeLessThan(0);
    expect(compound('the car wash dudes probably cringe when they see my truck')).toBe(0);
    expect(compound('Dragon loses its fire midway')).toBeLessThan(0); // the possessive: the lexicon's "fire"
    expect(compound('The Banger Sisters opens Friday')).toBe(0); // a title, not "banger"
  });

  it('"lowkey" hedges and "highkey" boosts like kinda / very; "no cap" boosts and negates nothing', () => {
    expect(compound('lowkey good')).toBeLessThan(compound('good'));
    expect(compound('highkey good')).toBeGreaterThan(compound('good'));
    expect(compound('no cap this is good')).toBeGreaterThan(compound('this is good'));
    expect(compound('no cap good')).toBeGreaterThan(0);
  });

  it('sentimentOf reads slang and emoji too', () => {
    expect(sentimentOf('🔥🔥🔥')).toBeGreaterThan(6);
    expect(sentimentOf('Killed it 🔥')).toBeGreaterThanOrEqual(7.5);
  });
});
