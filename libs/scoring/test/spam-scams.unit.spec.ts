import { isSpam, SPAM_SIGNALS, SPAM_THRESHOLD, spamSignalsOf } from '../src/spam';

// Hand-written in the shapes of scam comments (fake investment testimonials, "contact @account", fund
// recovery, prize notices, phone numbers, spells) and genuine comments that share their words. None is
// taken from a labelled set.
const spam = (body: string): boolean => isSpam(body.toLowerCase());

const SCAMS: [signal: string, body: string][] = [
  [
    'investment testimony',
    'I put $500 into her program, invested it for ten days and got back $6,200, unbelievable',
  ],
  ['investment testimony', 'deposited €2 000 on monday and withdrew €19 500 by friday'],
  ['money account', 'made $40k this month thanks to @coach.fx_daniel'],
  [
    'testimony naming an account',
    'She got me out of debt, my first payout came yesterday #mrs_clara_invests',
  ],
  [
    'testimony naming an account',
    'I was introduced to her platform by a friend, thank you @nora.wealthcoach',
  ],
  ['contact this account', 'Reach out to @recover_funds_pro, they got my stolen bitcoin back'],
  ['contact this account', 'contact her directly @anna.trades_fx on here'],
  ['fund recovery', 'Lost everything to a fake exchange until a recovery expert helped me'],
  ['money testimony', 'ᴛʜᴀɴᴋꜱ ᴛᴏ ʜᴇʀ ɪ ᴍᴀᴅᴇ $3000 ɪɴ ᴏɴᴇ ᴡᴇᴇᴋ'],
  ['first comers paid', 'Paying $1,000 to the first 20 people who message me "blessed"'],
  ['prize notice', 'Congratulations, you have won a $500 voucher, claim it before midnight'],
  ['prize notice', 'claim your free prize today'],
  ['call this number', 'Call 0800 123 4567 now for your free quote'],
  ['call this number', 'Text WIN to 80082 for a chance at tickets'],
  ['cures and spells', 'Spell caster Dr Ade brought my husband back, contact him'],
  ['cures and spells', 'an herbal doctor cured me of herpes in two weeks'],
  ['hit me up', 'hit me up if you want to learn how I trade forex'],
  ['disguised letters', 'ɪɴᴠᴇꜱᴛ ᴡɪᴛʜ ᴍᴇ ᴀɴᴅ ᴇᴀʀɴ ᴅᴀɪʟʏ'],
  ['urgency', 'URGENT: limited spots left, send me a direct message'],
];

const GENUINE: string[] = [
  'I invested 200 hours in this game and it was worth it',
  'Bitcoin to the moon lol',
  'Do you have Cash App? I owe you $20',
  'I work from home and this video helped me set up my desk',
  'this song saved my life @bestie remember',
  'stop spamming the chat',
  'my grandma won a $50 gift card at bingo lol',
  'he is such a good trader, learned a lot from this channel',
  'thanks @maria for sharing this',
  'lol @jake you need to see this',
  'my phone number changed so I lost my account',
  'urgent question: what guitar is that?',
  'the first 10 seconds are the best part',
  'porn addiction is real, this video helped',
  'I made $5 from my lemonade stand today',
  'we traded $20 for a signed copy worth $200',
  'You won the Grammy and you deserved it',
  'that was a dead giveaway',
  'love you xxx',
  'Called it in 2014 2015 2016, they always win',
  'paypal charged me twice for the concert tickets',
];

describe('scam comments are spam', () => {
  it.each(SCAMS)('%s: %s', (signal, body) => {
    expect(spamSignalsOf(body.toLowerCase())).toContain(signal);
    expect(spam(body)).toBe(true);
  });
});

describe('genuine comments that share their words are not', () => {
  it.each(GENUINE)('%s', (body) => {
    expect(spam(body)).toBe(false);
  });
});

it("isSpam's one-scan reading agrees with adding up every signal's weight on these comments", () => {
  const weightOf = new Map(SPAM_SIGNALS.map((s) => [s.name, s.weight]));
  for (const body of [...SCAMS.map(([, b]) => b), ...GENUINE]) {
    const lower = body.toLowerCase();
    const total = spamSignalsOf(lower).reduce((sum, name) => sum + weightOf.get(name)!, 0);
    expect([body, isSpam(lower)]).toEqual([body, total >= SPAM_THRESHOLD]);
  }
});
