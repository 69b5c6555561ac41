import { plainLetters } from '../src/lookalike-letters';
import { readsAsLink } from '../src/obfuscated-links';
import { isSpam, spamSignalsOf } from '../src/spam';

// Hand-written: each way a link is written to get past a filter, and prose that looks like one.
const reads = (body: string): boolean => readsAsLink(plainLetters(body.toLowerCase()).text);

const OBFUSCATED_LINKS: [shape: string, body: string][] = [
  ['spaced dot', 'free gift cards at freegiftz. net'],
  ['dot spaced on both sides', 'go to freegiftz . com now'],
  ['dot before a space-led tld', 'freegiftz .org has them'],
  ['DOT glued into the name', 'winprizesDOTorg'],
  ['DOT as a word', 'winprizes DOT org'],
  ['(dot)', 'claim yours at winprizes(dot)com'],
  ['(dot) spaced', 'winprizes (dot) com'],
  ['[.]', 'cheapfollowers[.]io'],
  ['[dot]', 'cheapfollowers [dot] xyz'],
  ['{dot}', 'cheapfollowers{dot}net'],
  ['(.)', 'cheapfollowers(.)com'],
  ['* for the dot in a shortener', 'robux here bit*ly/3xYz'],
  ['shortener with a spaced dot', 'bit . ly/3xYz'],
  ['shortener written without its dot', 'bit ly/3xYz for the rest'],
  ['shortener named alone', 'full song on my tinyurl'],
  ['dot com spelled out', 'freestuff dot com'],
  ['full-width letters', 'ｗｗｗ．ｆｒｅｅｇｉｆｔ．ｃｏｍ'],
  ['full-width www then a plain domain', 'ｗｗｗ.freegift.com'],
  ['w w w', 'w w w . freegifts . com'],
  ['www dot', 'www dot freegifts dot top'],
  ['digits for letters in the tld', 'g00gle.c0m/prize'],
  ['digits for letters in a shortener', 'b1t.ly/abc'],
  ['digits in the name', 'g00gle.com'],
  ['Cyrillic look-alikes', 'www.ехаmрlе.соm'],
  ['Cyrillic letters in the tld only', 'freegifts.соm'],
  ['mathematical bold letters', '𝐟𝐫𝐞𝐞𝐠𝐢𝐟𝐭𝐬.𝐜𝐨𝐦'],
  ['a new generic tld', 'earnmoney.online'],
  ['another new generic tld', 'cheapbeats.shop is the place'],
  ['a country code', 'fastloans.ru'],
  ['a prose-like tld with a path', 'mixtape.me/listen'],
  ['a prose-like tld after www.', 'www.mybeats.top'],
  ['a link page', 'everything at linktr.ee/djnova'],
  ['a scheme', 'http://example.org'],
  ['a telegram link', 't.me/cryptosignals'],
  ['a youtube short link', 'youtu.be/dQw4w9WgXcQ'],
];

const PROSE: string[] = [
  'i.e. the best part',
  'e.g. the bridge',
  'Mr. Smith would approve',
  'Dr. Dre produced it',
  'St. Louis crowd was loud',
  '3.5 stars from me',
  'version 2.0 is better',
  'it was good.so good',
  'U.S. tour dates please',
  'this song is a 10/10',
  'great song.me and my friends love it',
  'Lyrics.The second verse hits hard',
  'wow...amazing',
  'ok.so who else is here',
  'this is it.it was perfect',
  'the dot com bubble was before my time',
  'connect the dots',
  'a red dot on the map',
  'the chorus.love it',
  'amazing.love it',
  'no.1 on the charts',
  'it dropped at 7.30pm',
  'he gained 1.5m followers',
  'p.s. love you',
  'lol.this is great',
  'this song is sh*t',
  'good. Net worth of the band must be huge',
  'that was the best. top 10 for sure',
  'Jr. is his son',
  'wwwwww so funny',
  'ｗｗｗ',
  'a.m. radio played it',
  'Ph.D in music theory',
];

describe('links written to dodge a filter are read as links', () => {
  it.each(OBFUSCATED_LINKS)('%s: %s', (_shape, body) => {
    expect(reads(body)).toBe(true);
  });

  it.each(OBFUSCATED_LINKS)('%s is spam on its own (a link weighs 2): %s', (_shape, body) => {
    expect(spamSignalsOf(body.toLowerCase())).toContain('link');
    expect(isSpam(body.toLowerCase())).toBe(true);
  });
});

describe('prose that only looks like a link stays prose', () => {
  it.each(PROSE)('%s', (body) => {
    expect(reads(body)).toBe(false);
    expect(isSpam(body.toLowerCase())).toBe(false);
  });
});

describe('plainLetters', () => {
  it('reads full-width, mathematical and circled letters as plain ones, without calling them disguised', () => {
    expect(plainLetters('ｗｗｗ．ｆｒｅｅ．ｃｏｍ')).toEqual({ text: 'www.free.com', disguised: false });
    expect(plainLetters('ⓕⓡⓔⓔ')).toEqual({ text: 'free', disguised: false });
  });

  it('calls small capitals, mathematical letters and a Cyrillic letter in a Latin word disguised', () => {
    expect(plainLetters('ɪ ᴅᴇᴘᴏꜱɪᴛᴇᴅ $1000')).toEqual({ text: 'i deposited $1000', disguised: true });
    expect(plainLetters('𝐟𝐫𝐞𝐞')).toEqual({ text: 'free', disguised: true });
    expect(plainLetters('spеechless')).toEqual({ text: 'speechless', disguised: true });
  });

  it('strips accents stacked on letters and straightens a curly apostrophe', () => {
    expect(plainLetters('#hāźeł_mcẹ̀wǝṅ').text).toBe('#hazel_mcewen');
    expect(plainLetters('don’t')).toEqual({ text: "don't", disguised: false });
  });

  it('leaves Russian and Greek letters, accents of Latin languages and emoji alone', () => {
    for (const text of ['привет как дела', 'café olé 😀', 'canción bonita'])
      expect(plainLetters(text)).toEqual({ text, disguised: false });
    // Greek keeps its letters; only the accent marks go.
    expect(plainLetters('καλημέρα σε όλους')).toEqual({ text: 'καλημερα σε ολους', disguised: false });
  });

  it('reads a word all in Cyrillic look-alikes as Latin only inside Latin text', () => {
    expect(plainLetters('visit freegifts.сом today').text).toBe('visit freegifts.com today');
    expect(plainLetters('сом и рыба').text).toBe('сом и рыба');
  });
});
