import {
  allRows,
  appendRow,
  createColumns,
  isCloudStopword,
  STOPWORDS,
  Vocabulary,
  wordCloud,
  type WordCloudItem,
} from '../src';

/** A word cloud (v2) over comment bodies, each read 7 (relevance unscored: no comment is off-topic). */
function cloudOf(bodies: readonly string[]): WordCloudItem[] {
  const vocab = new Vocabulary();
  const columns = createColumns(bodies.length);
  for (const body of bodies) appendRow(columns, { scores: { sentiment: 7 }, tokens: vocab.encode(body) });
  return wordCloud(columns, allRows(columns), vocab, 2);
}
const words = (cloud: WordCloudItem[], n: number) =>
  cloud
    .filter((w) => w.type === 'word')
    .slice(0, n)
    .map((w) => `${w.text} ${w.value}`);
const phrases = (cloud: WordCloudItem[]) =>
  cloud.filter((w) => w.type === 'phrase').map((w) => `${w.text} ${w.value}`);

const LASAGNA = [
  'I made this last night and my whole family loved it 😍 the ragù is insane',
  'Take my advice and let the ragù simmer even longer, it works every time',
  "Nonna's lasagna hits different fr 🔥",
  'ok but how do you get the pasta sheets this thin??',
  'Made it for sunday dinner, the béchamel was perfect',
  'I think you need more cheese lol',
  'This recipe works so well, my kids asked for seconds',
  'Does anyone know if I can make the ragù the day before?',
  'the pasta sheets kept tearing on me, any tips?',
  'Sub4sub? Check out my channel www.cookingwithme.com',
  'Going to try this lasagna this weekend!!',
  'Lasagna is my comfort food ❤️ thank you for sharing',
];

const PHONE_REVIEW = [
  'Battery life on my Pixel is a joke, barely makes it to 6pm',
  'The camera takes insane night shots 📸',
  'Got mine last week, the zoom is unreal',
  'honestly the battery life is the only thing holding it back',
  'Is it worth upgrading from the Pixel 7? I mostly use it for photos',
  'Night mode is so good I stopped carrying my camera',
  'The price tho... $999 is crazy',
  'Tensor chip still runs hot when gaming 🥵',
  'idk man my iPhone works just fine',
  'Watching this on my Pixel 9 lol',
  'Thanks for the honest review, subscribed!',
];

const MUSIC_VIDEO = [
  'this song is on repeat 🔁🔥',
  'the bridge at 2:45 gives me chills',
  'LUNA NEVER MISSES 😭😭',
  'who else is watching this at 3am',
  'the visuals are insane, that coast highway shot 😍',
  "been listening to this song nonstop, it's such a vibe",
  'this goes so hard omg',
  'the bridge tho 😩',
  'Dropping my cover of this tomorrow, go check my channel!! follow me',
  "vocals are unreal, she sounds even better live, we'll be there",
  'can we talk about the car scene at 1:30',
];

describe('word clouds without filler', () => {
  it('a cooking video: the dish words lead; take, works, made, know, think and the spam plug are out', () => {
    const cloud = cloudOf(LASAGNA);
    expect(words(cloud, 8)).toEqual([
      'lasagna 3',
      'ragù 3',
      'pasta 2',
      'sheets 2',
      'advice 1',
      'béchamel 1',
      'cheese 1',
      'comfort 1',
    ]);
    expect(phrases(cloud)).toEqual(['pasta sheets 2']);
    const texts = cloud.map((w) => w.text);
    for (const filler of [
      'take',
      'works',
      'made',
      'make',
      'know',
      'think',
      'need',
      'going',
      'try',
      'asked',
      'last',
      'lol',
    ])
      expect(texts).not.toContain(filler);
    for (const spam of ['sub4sub', 'check', 'channel', 'www', 'com']) expect(texts).not.toContain(spam);
    expect(texts).toContain('cookingwithme'); // the plugged name is a word; the plug words around it are not
  });

  it('a phone review: the phone and its parts lead; got, use, works, watching and "subscribed" are out', () => {
    const cloud = cloudOf(PHONE_REVIEW);
    expect(words(cloud, 7)).toEqual([
      'pixel 3',
      'battery 2',
      'camera 2',
      'life 2',
      'night 2',
      '6pm 1',
      'carrying 1',
    ]);
    expect(phrases(cloud)).toEqual(['battery life 2']);
    const texts = cloud.map((w) => w.text);
    for (const filler of [
      'got',
      'use',
      'works',
      'watching',
      'makes',
      'takes',
      'thing',
      'week',
      'mostly',
      'barely',
      'subscribed',
      'idk',
      'tho',
    ])
      expect(texts).not.toContain(filler);
  });

  it('a music video with slang and typos: song, bridge lead; "we\'ll" is no "well", and the cover plug adds no "check" or "follow"', () => {
    const cloud = cloudOf(MUSIC_VIDEO);
    expect(words(cloud, 6)).toEqual(['bridge 2', 'song 2', '3am 1', 'better 1', 'car 1', 'chills 1']);
    const texts = cloud.map((w) => w.text);
    for (const filler of [
      'well',
      'goes',
      'else',
      'watching',
      'check',
      'channel',
      'follow',
      'omg',
      'tomorrow',
      'talk',
      'never',
    ])
      expect(texts).not.toContain(filler);
  });

  it('phrases never start or end on a dropped word', () => {
    for (const section of [LASAGNA, PHONE_REVIEW, MUSIC_VIDEO]) {
      for (const p of cloudOf([...section, ...section]).filter((w) => w.type === 'phrase')) {
        const [first, last] = p.text.split(' ');
        expect([first, last].filter(isCloudStopword)).toEqual([]);
      }
    }
  });

  it('search keeps its own stopwords: cloud filler such as "works", "home" or "channel" stays searchable', () => {
    for (const word of ['works', 'take', 'channel', 'home', 'battery'])
      expect(STOPWORDS.has(word)).toBe(false);
    expect(isCloudStopword('works')).toBe(true);
    expect(isCloudStopword('take')).toBe(true);
    expect(isCloudStopword('channel')).toBe(true);
    // "home" names things (home workouts, a home tour, a home charger): it stays in clouds.
    expect(isCloudStopword('home')).toBe(false);
  });
});
