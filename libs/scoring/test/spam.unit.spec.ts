import { plainLetters } from '../src/lookalike-letters';
import { isSpam, SPAM_SIGNALS, SPAM_THRESHOLD, spamSignalsOf } from '../src/spam';

// Hand-written examples of how promotion is worded on comment sections, and genuine comments that
// share its words. None comes from the held-out collection.
const spam = (body: string) => isSpam(body.toLowerCase());

const SPAM_EXAMPLES = [
  'Check out my channel!!!',
  'hey guys check out my new cover of this song, it would mean a lot',
  'Please subscribe to me, I upload every week',
  'sub4sub anyone? I sub back instantly',
  'SUB FOR SUB!! reply done when you subbed',
  'Help me reach 1000 subscribers before the end of the year 🙏',
  'Road to 10k subs, thank you all',
  'Follow me on instagram for more dance videos',
  'Link in my bio for the full tutorial 🔥',
  'DM me for a collab',
  'I made a remix on my channel, go listen',
  'visit my website for beats',
  'Listen to my mixtape, you will not regret it',
  'my friend’s channel deserves more views, check it out'.replace('’', "'"),
  'Watch my first music video please',
  'www.freegiftcards.net',
  'get free robux here: bit.ly/abc123',
  'https://example.org/watch?v=xyz',
  'Go to gamesprize.com and claim your reward',
  'GIVEAWAY: win an iPhone 15, like and share',
  'I earned $500 a day working from home, ask me how',
  'Invest with a trusted Bitcoin manager, message me on WhatsApp',
  'Contact her on Telegram, she turned my $200 into $5,000 with crypto',
  'Use code SAVE20 for a discount',
  'Copy and paste this to 10 videos or you will have bad luck for 7 years',
  'If you read this, your crush will text you tonight. 1 like = 1 prayer',
  "Don't scroll past! Send this to 5 people",
  "I'm a 16 year old rapper from Ohio, give me a chance please",
  'We are a small band, we make music like this, please check us out',
  'Sorry for the spam but I really need support on my songs',
  'I know this is spam but please look at my soundcloud',
  'thumbs up so everyone can see this and subscribe to my channel',
  'Can this comment go to the top? please like this comment',
  'I do covers of this kind of music, watch my latest one',
  'PLEASE SUBSCRIBE ME',
  'What do you think about my new song?',
  "Hey guys! I'm a 12 yr old music producer, I'd appreciate it if you checked out some of my 8bit remixes",
  'I just started a youtube channel about gaming',
  'check out this channel, they make the best lyric videos',
  'click here to download the mp3 free',
  'Subscribe!',
  'Hey guys, I just put out a track, let me know what you think',
  'Hi Nova fans! If you like this you will love my music',
  'free psn codes, no survey',
  'Hot singles in your area waiting, dating site in profile',
  'sorry to bother you, please take a second to check it out',
];

const GENUINE_EXAMPLES = [
  'I love this song so much',
  'This channel never disappoints',
  'your videos got me through exams',
  'Subscribed after this video, great explanation',
  'Who is still watching this in 2024?',
  'This is my song!! played it on repeat all summer',
  'my favourite music video of all time',
  'I added this to my playlist',
  'my dance teacher made us learn this choreography',
  'Check out the bridge at 2:14, chills',
  'please never stop making music',
  'please help, what is the name of the song at the end?',
  'I am a dancer and this beat is perfect',
  '@maria exactly what I was thinking',
  'hear me out: the remix is better',
  'follow my dreams, that is what this song says to me',
  'Just bought it on iTunes',
  'This song made $100 million? wow',
  'I used to go to my grandma’s house and hear this on the radio',
  'Lyrics.The second verse hits hard',
  'great song.me and my friends love it',
  "I'm a huge Eminem fan since 2002",
  'where can I download this?',
  'best song on youtube',
  'this is my favorite channel on youtube',
  'Subscribed! Been a fan since day one',
  'hey guys, who is watching in 2026?',
  'tell me what you think of the ending, I cried',
];

describe('spam and promotion', () => {
  it.each(SPAM_EXAMPLES)('%s → spam', (body) => {
    expect(spam(body)).toBe(true);
  });

  it.each(GENUINE_EXAMPLES)('%s → not spam', (body) => {
    expect(spam(body)).toBe(false);
  });

  it('names the signals it finds', () => {
    expect(spamSignalsOf('check out my channel www.x.com')).toEqual(
      expect.arrayContaining(['link', 'my promoted thing', 'go look at mine']),
    );
    expect(spamSignalsOf('please check it out')).toEqual(['asking a favour', 'go and see']);
  });

  it('every text a gated signal matches passes its gate, so the cheap check never hides a signal', () => {
    for (const body of [...SPAM_EXAMPLES, ...GENUINE_EXAMPLES]) {
      const text = plainLetters(body.toLowerCase()).text;
      for (const signal of SPAM_SIGNALS) {
        if (!signal.pattern?.test(text) || signal.gate === undefined) continue;
        expect([body, signal.name, signal.gate.test(text)]).toEqual([body, signal.name, true]);
      }
    }
  });

  it("isSpam's one-scan reading agrees with adding up every signal's weight", () => {
    const weightOf = new Map(SPAM_SIGNALS.map((s) => [s.name, s.weight]));
    // Pairs of genuine comments carry two hints now and then: the path that counts them is taken too.
    const pairs = GENUINE_EXAMPLES.flatMap((a) => GENUINE_EXAMPLES.map((b) => `${a}. ${b}`));
    for (const body of [...SPAM_EXAMPLES, ...GENUINE_EXAMPLES, ...pairs]) {
      const lower = body.toLowerCase();
      const total = spamSignalsOf(lower).reduce((sum, name) => sum + weightOf.get(name)!, 0);
      expect([body, isSpam(lower)]).toEqual([body, total >= SPAM_THRESHOLD]);
    }
  });

  it('a single hint is not enough; two are', () => {
    expect(spam('please check it out')).toBe(true);
    expect(spam('check it out')).toBe(false);
    expect(spam("I'm a singer")).toBe(false);
    expect(spam("I'm a singer, give me a chance")).toBe(true);
  });
});
