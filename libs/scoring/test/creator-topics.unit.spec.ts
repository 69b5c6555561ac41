import type { ProviderPost } from '@analyst/contracts';
import { SimulatedProvider } from '@analyst/provider-sim';
import { extractCreatorSide } from '@analyst/scoring';
import { CLOSED_CLASS, FRAMING_NOUNS } from '../src/topic-words';

function post(fields: Partial<ProviderPost>): ProviderPost {
  return {
    link: 'https://www.youtube.com/watch?v=abcdefghijk',
    platform: 'youtube',
    creator: { username: 'creator', name: 'Some Creator' },
    title: '',
    caption: '',
    description: null,
    engagement: { views: 10_000, likes: 500, comments: 20, shares: 10 },
    postedAt: '2026-10-01T00:00:00Z',
    postType: 'video',
    thumbnail: null,
    ...fields,
  };
}

const titles = (p: ProviderPost) => extractCreatorSide(p).topics.map((t) => t.title);

describe('creator topics are noun phrases a person would name', () => {
  it('a cooking video: the dish and its parts, not "recipe", "minute" or the subscribe plug', () => {
    const lasagna = post({
      creator: { username: 'nonnarosa', name: 'Rosa Bianchi' },
      title: "Grandma's Sunday Lasagna | Easy Family Recipe",
      caption:
        "My nonna's lasagna recipe, finally on camera! Fresh pasta sheets, a slow-cooked ragù and a creamy béchamel. The ragù takes three hours but it's worth every minute. Full recipe is in the description below 👇 #lasagna #italianfood #recipe",
      description:
        'Ingredients for the ragù and the béchamel are below.\n\n0:00 Intro\n1:20 Making the ragù\n6:45 Fresh pasta sheets\n11:30 Béchamel\n14:10 Assembling the lasagna\n\nSubscribe for more family recipes!',
    });
    expect(titles(lasagna)).toEqual(['lasagna', 'fresh pasta sheets', 'ragù', 'béchamel']);
  });

  it('a phone review in title case: the product and what is reviewed, no "review" or price', () => {
    const pixel = post({
      creator: { username: 'techwithjay', name: 'Jay Okafor' },
      title: 'Pixel 9 Pro Review: The Camera Is Finally Great (But The Battery...)',
      caption:
        'Two weeks with the Pixel 9 Pro. The camera is the best I have used on a phone, but battery life is still behind the iPhone. Night mode and the new zoom are incredible. Is it worth $999? Let me know below.',
    });
    const side = extractCreatorSide(pixel);
    expect(side.topics.map((t) => t.title)).toEqual(['pixel', 'camera', 'battery', 'night mode']);
    // "behind the iPhone" is a preposition: never a topic, and never glued to one.
    expect(side.topics.some((t) => t.title.includes('behind'))).toBe(false);
  });

  it('a music video: the song and the scene, not the "Official Music Video" label or the streaming plug', () => {
    const song = post({
      creator: { username: 'lunavelvet', name: 'Luna Velvet' },
      title: 'Luna Velvet - Midnight Drive (Official Music Video)',
      caption:
        'Midnight Drive is out now everywhere! 🌙 Shot the whole video in one night on the coast highway. Stream Midnight Drive on Spotify and Apple Music. #newmusic #midnightdrive',
    });
    expect(titles(song)).toEqual(['midnight drive', 'coast highway']);
  });

  it('an Instagram home tour: "tiny home" is a name (its adjective stays), its pieces are one topic', () => {
    const tour = post({
      link: 'https://www.instagram.com/p/Abc123/',
      platform: 'instagram',
      creator: { username: 'homewithmia', name: 'Mia Torres' },
      title: '',
      caption:
        'Our tiny home tour is finally here 🏡 We built the loft bed and the fold-down desk ourselves. The tiny home cost less than a car! Swipe for the before photos ✨ #tinyhome #vanlife',
    });
    expect(titles(tour)).toEqual(['tiny home', 'loft bed', 'fold-down desk']);
  });

  it('"behind", "around", "enough" and "yet" are never topics, whatever the casing', () => {
    const rent = post({
      creator: { username: 'mayachen', name: 'Maya Chen' },
      title: 'The Numbers Behind Rent Control',
      caption:
        'Rent control keeps coming back around. I look at what rent control does to housing supply and the numbers behind it. Is it good enough yet? #housing',
    });
    expect(titles(rent)).toEqual(['rent control', 'housing supply']);
  });

  it('a noun misread as a verb after "how" or "is" is read back in a noun frame ("how cast iron", "is solo travel")', () => {
    const travel = post({
      title: 'Is solo travel worth it?',
      caption:
        'I love how cast iron pans survive any trip. Here is how solo travel changed my cooking. #travel',
    });
    expect(titles(travel)).toEqual(['solo travel', 'cast iron pans']);
  });

  it('inflections are one topic, named by their first form; a lone word only inside longer phrases is none', () => {
    const funds = post({
      title: 'Index funds vs an emergency fund',
      caption: 'Why I keep an emergency fund before buying index funds. Index funds still win long term.',
    });
    expect(titles(funds)).toEqual(['index funds', 'emergency fund']);
  });
  it('a phrase holding two chosen words names them both; naming adjectives stay ("whole wheat", "main street")', () => {
    const sourdough = post({
      title: 'Why Everyone Is Wrong About Sourdough',
      caption:
        'Sourdough starter myths, debunked. You do not need to feed your starter twice a day. Whole wheat flour makes a stronger starter.',
    });
    expect(titles(sourdough)).toEqual(['sourdough starter', 'whole wheat flour']);
    const thread = post({
      link: 'https://x.com/citydesk/status/1900000000000000000',
      platform: 'x',
      caption:
        'The city council just voted to ban cars from Main Street on weekends. Small businesses on Main Street are split. Thread 🧵 on what the ban means for parking and delivery trucks.',
    });
    expect(titles(thread)).toEqual(['city council', 'main street', 'small businesses', 'delivery trucks']);
  });
});

describe('creator topics on the demo data', () => {
  it('never hold a closed-class word, and are never a framing noun alone', async () => {
    const provider = new SimulatedProvider();
    const seen: string[] = [];
    for (let n = 1; n <= 12; n++) {
      const link = `https://www.youtube.com/watch?v=demoVid${String(n).padStart(4, '0')}`;
      const fetched = await provider.fetchPost(link, { fullRead: false });
      if (fetched.status !== 'ok') continue;
      for (const t of extractCreatorSide(fetched.post).topics) seen.push(t.title);
    }
    expect(seen.length).toBeGreaterThan(12);
    for (const title of seen) {
      const words = title.split(' ');
      expect(words.filter((w) => CLOSED_CLASS.has(w))).toEqual([]);
      expect(words.length === 1 && FRAMING_NOUNS.has(words[0])).toBe(false);
    }
  });
});
