import { plainLetters, type PlainLetters } from './lookalike-letters';
import { readsAsLink } from './obfuscated-links';

/**
 * Spam and promotion: comments written to send readers elsewhere (a channel, a link, a shop, a giveaway,
 * an "investment manager") or to farm likes, rather than to react to the post. Written from how such
 * comments are built, checked on the development halves of two labelled sets (bench/spam-dev-sets.ts);
 * the held-out check is bench/spam-off-topic.ts.
 *
 * The signals read the comment with look-alike letters made plain (`plainLetters`: full-width, small
 * capitals, Cyrillic inside Latin words). Each signal adds its weight once; a comment is spam at
 * SPAM_THRESHOLD. A weight of 2 is a signal that is promotion on its own (a link, "check out my",
 * "sub4sub", a giveaway); a weight of 1 is a hint that a genuine comment can carry alone ("please",
 * "my song", "I'm a rapper") and counts only with another.
 */

export interface SpamSignal {
  name: string;
  weight: 1 | 2;
  /** The signal's one pattern over the plain-letter text, when it is one (see `pattern`). */
  pattern?: RegExp;
  /** A cheap pattern every text carrying the signal matches, tested first (see `pattern`). */
  gate?: RegExp;
  /** Whether the comment, as the spam reading sees it, carries the signal. */
  test(reading: PlainLetters): boolean;
}

/**
 * A signal that is one pattern over the plain-letter text. `gate`, when given, is a cheaper pattern that
 * every match of `re` also matches ("@" for a signal about accounts, a digit for one about sums): the
 * costly scan runs only past it.
 */
function pattern(name: string, weight: 1 | 2, re: RegExp, gate?: RegExp): SpamSignal {
  if (gate === undefined) return { name, weight, pattern: re, test: (reading) => re.test(reading.text) };
  return {
    name,
    weight,
    pattern: re,
    gate,
    test: (reading) => gate.test(reading.text) && re.test(reading.text),
  };
}

export const SPAM_THRESHOLD = 2;

/** Things a promoter calls "my …" and a viewer rarely does. */
const PROMOTED_THING =
  '(?:channel|videos?|vids?|vlogs?|website|web ?site|blog|mixtape|soundcloud|covers?|remix(?:es)?|parody|beats|rap video|music video|page|profile|insta(?:gram)?|twitter|facebook|tiktok|twitch|stream|shop|store|merch|app|ebook|podcast|fan ?page)';

/** Words that tie the "my" to a promoted thing: "my new", "my first ever", "my brother's". */
const MY =
  "\\b(?:my|our)\\s+(?:(?:new|first|latest|own|little|small|official|music|youtube|cover|dance|rap|friend'?s|brother'?s|sister'?s|cousin'?s|ever)\\s+){0,3}";

/** A sum of money: "$1,000", "£ 500", "$26 000", "75k", "5 grand", "2000 dollars". */
const AMOUNT =
  '(?:[$£€]\\s?\\d[\\d,.]*(?:\\s\\d{3})*\\s?k?|\\b\\d[\\d,.]*\\s?(?:k|usd|dollars|pounds|euros?|btc|grand)\\b)';
const AMOUNTS = new RegExp(AMOUNT, 'g');
const INVESTED = /\b(?:invest(?:ed|ing|ment)?|deposit(?:ed)?|capital)\b/;

/** How a scam's testimonial speaks of the "manager" it advertises. */
const TESTIMONY =
  /\b(?:out\s+of\s+(?:all\s+)?(?:my\s+)?debts?|financial(?:ly)?\s+(?:freedom|stable|free)|got\s+paid|(?:first|second|third|my)\s+(?:payout|pay\s+out|withdrawal)s?|pay(?:\s+off)?(?:\s+up)?\s+my\s+bills|(?:referred|introduced)\s+(?:me\s+)?to|convinced\s+by|zero\s+to\s+hero|i\s+must\s+confess|wish\s+i\s+(?:had\s+)?contacted|came\s+across\s+(?:your|her|his)\s+(?:page|platform|post)|(?:her|his|your)\s+platform|trading\s+skills?|account\s+manager|profits?|trad(?:e|ing|ed)\s+with|earn(?:ing)?\s+with|my\s+investment|testify(?:ing)?|testimony)\b/;
/** An @account or an #account_name after the comment's start. */
const NAMED_ACCOUNT = /\s[@#][a-z0-9_.]{4,}|#[a-z0-9.]*_[a-z0-9_.]/;

function amountCount(text: string): number {
  return text.match(AMOUNTS)?.length ?? 0;
}

export const SPAM_SIGNALS: readonly SpamSignal[] = [
  { name: 'link', weight: 2, test: (reading) => readsAsLink(reading.text) },
  pattern('my promoted thing', 2, new RegExp(`${MY}${PROMOTED_THING}\\b`)),
  pattern(
    'my new release',
    2,
    /\b(?:my|our)\s+(?:brand\s+new|new|latest|newest|debut|own|first\s+ever)\s+(?:\w+\s+)?(?:songs?|tracks?|singles?|album|ep|music|raps?|beats?|mixtape|remix|cover|freestyle)\b|\b(?:my|our)\s+(?:[\w-]+\s+)?(?:remix(?:es)?|mixtapes?|soundcloud|covers|vlogs|beats\s+and)\b/,
  ),
  pattern(
    'a channel or release of my own',
    2,
    /\bi\s+(?:just\s+|recently\s+)?(?:started|created|made|opened|launched|have)\s+(?:a|my|an)\s+(?:own\s+|new\s+|small\s+|youtube\s+|music\s+|gaming\s+)*channel\b|\bi\s+(?:just\s+|finally\s+)?(?:put\s+out|released|dropped|uploaded|posted)\s+(?:a|my|an|our)\s+(?:new\s+|first\s+)?(?:track|song|video|mixtape|single|album|ep|cover|remix|music\s+video)\b|\bcheck(?:ed|ing)?\s*(?:out\s+)?(?:this|that|his|her|their|the)\s+(?:\w+\s+)?(?:channel|website|site|link|app|playlist)\b/,
  ),
  pattern(
    'my work',
    1,
    new RegExp(
      `${MY}(?:songs?|music|tracks?|album|ep|single|raps?|art|artwork|work|band|content|book|game|dance)\\b`,
    ),
  ),
  pattern(
    'go look at mine',
    2,
    /\b(?:check(?:ing)?\s*(?:out\s+)?|listen\s+to|visit|look\s+at|click\s+(?:on\s+)?|subscribe\s+to|sub\s+to)\s*(?:out\s+)?(?:my|our)\b|\bcheck\s+(?:me|us)\s+out\b|\bfollow\s+(?:my|our)\s+(?:account|page|insta\w*|tiktok|twitter|profile)\b|\bsupport\s+(?:me|us)\b|\b(?:you'?ll|you\s+will|you\s+might|you\s+may|u\s+will)\s+(?:also\s+)?(?:love|like|enjoy)\s+(?:my|our)\b/,
  ),
  pattern(
    'subscriber farming',
    2,
    /\bsub\s?(?:4|for|4a)\s?sub\b|\bsubscribe\s+(?:back|(?:to\s+)?(?:me|my|us|our))\b|\bsub\s+(?:back|(?:to\s+)?me)\b|\b(?:reach|get|hit|need|to|want|gain)\s+(?:\d[\d,.]*k?|a\s+few|some|more)\s+(?:subs|subscribers|followers)\b|\broad\s+to\s+\d/,
  ),
  pattern('subscribe', 1, /\bsubscrib|\bsubs\b/),
  // "Subscribe!" opening a sentence asks for something; "subscribed" reports it.
  pattern(
    'subscribe, imperative',
    2,
    /(?:^|[.!?\n]\s*)(?:pl(?:ea)?se?\s+|pls\s+|plz\s+)?(?:subscribe|sub)(?:\s+(?:now|guys|everyone|pl(?:ea)?se|pls|plz))?\s*(?:[.!?\n]|$)/,
  ),
  pattern(
    'follow me, click here',
    2,
    /\b(?:follow|add|dm|message|text|inbox|contact)\s+me\b|\blink\s+in\s+(?:my\s+)?(?:bio|profile|description)\b|\bcheck\s+(?:my|the)\s+(?:bio|profile)\b|\bclick\s+(?:the|this|my|on\s+(?:the|my))\s+(?:link|name|profile|picture|pic)\b|\bclick\s+(?:here|below)\b/,
  ),
  // Not @handles: a reply names the person it answers that way.
  pattern(
    'elsewhere on the web',
    1,
    /\b(?:instagram|insta|twitter|facebook|snapchat|soundcloud|tiktok|twitch|spotify|itunes|bandcamp|kik|skype)\b/,
  ),
  pattern(
    'like farming',
    1,
    /\blike\s+this\s+comment\b|\bthumbs?\s+(?:this\s+)?up\s+(?:this|if|so)\b|\bso\s+(?:that\s+)?(?:every\s?one|every\s?body|more\s+people|people|others|the\s+world)\s+(?:can|will|could)\s+see\b|\b(?:comment|this)\s+to\s+the\s+top\b/,
  ),
  pattern(
    'chain letter',
    2,
    /\bcopy\s+(?:and|&|n|\+)\s+paste\b|\bif\s+you\s+(?:read|see)\s+this\b|\b(?:1|one)\s+(?:like|share|comment|thumbs?\s+up)\s*(?:=|equals)|\bsend\s+this\s+to\b|\brepost\s+this\b|\bdon'?t\s+(?:scroll|ignore\s+this)\b|\bbad\s+luck\s+for\b/,
  ),
  pattern(
    'money and giveaways',
    2,
    /(?<!dead\s)\bgive\s?aways?\b|\b(?:free|win|get|claim|earn)\s+(?:an?\s+)?(?:[$£€]?\d+\s+)?(?:amazon\s+|steam\s+|itunes\s+|google\s+play\s+|psn\s+)?gift\s?cards?\b|\bfree\s+(?:iphone|ipad|xbox|ps[345]|money|cash|crypto|followers|subscribers|subs|likes|views|gifts?|robux|v-?bucks|coins|gems|vouchers?|psn|codes?|xbox\s+live|minecraft)\b|\bwin\s+(?:an?\s+)?(?:free|iphone|ipad|\$|cash|prize)|\binvest(?:ing|ment|ments)?\s+(?:plan|platform|opportunit|advi[cs]|with)|\bearn(?:ed|ing|s)?\s+(?:\$|£|€|money|cash|extra|\d)|\bmak(?:e|ing)\s+(?:\$|£|€|\d[\d,.]*\s*(?:dollars|a\s+day|per)|(?:money|cash)\s+(?:online|from\s+home|fast|daily|weekly|every|easily|with|while))|(?:\$|£|€)\s?\d[\d,.]*k?\s*(?:a|per|every|each|\/)\s*(?:day|week|month|hour|hr)\b|\b(?:promo\s+code|discount\s+code|use\s+(?:my\s+)?code)\b/,
  ),
  // Named in genuine talk too ("I work from home", "do you have Cash App?"): a hint only.
  pattern(
    'money apps and home jobs',
    1,
    /\b(?:work(?:ing)?\s+from\s+home|online\s+job|paypal|cash\s?app|venmo|zelle|whatsapp|telegram|coupon)\b/,
  ),
  pattern(
    'asking a favour',
    1,
    /\b(?:please|pls|plz|plzz|pleas|pleeease)\b.{0,40}?\b(?:subscribe|sub|like|share|check|watch|visit|listen|follow|support|help|view|click|give)\b|\bgive\s+(?:me|my|us|it|him|her)\s+(?:a\s+)?(?:chance|shot|try|listen)\b|\bhelp\s+(?:me|us)\s+(?:reach|get|grow|achieve|make|out|by)\b|\b(?:would|will)\s+(?:really\s+)?(?:mean\s+a\s+lot|appreciate)|\b(?:really\s+)?appreciate\s+it\b|\bthanks?\s+(?:you\s+)?(?:in\s+advance|for\s+(?:reading|your\s+time|listening|watching\s+my))\b/,
  ),
  // A reaction answers the post; a pitch opens by hailing the readers ("Hey guys", "Hi Katy fans").
  pattern(
    'hello everyone',
    1,
    /^\W*(?:hey|hi|hello|yo|sup|hiya|greetings)\s+(?:guys|everyone|everybody|people|all|there|y'?all|(?:[\w-]+\s+)?fans|friends)\b/,
  ),
  pattern(
    'a minute of your time',
    1,
    /\b(?:let\s+me\s+know|tell\s+me)\s+what\s+(?:you|u)\s+think\b|\b(?:please\s+)?vote\s+for\s+(?:me|my|us|our)\b|\btake\s+a\s+(?:minute|second|moment|sec)\s+(?:to|and)\b|\bi\s+know\s+(?:most\s+(?:of\s+)?)?(?:you|people|u)\s+(?:won'?t|will\s+not|don'?t|do\s+not|never)\s+(?:read|care|see)/,
  ),
  pattern(
    'adult and dating',
    2,
    /\b(?:xxx\s+(?:videos?|movies?|pics?|cams?|sites?)|(?:free|my|see|send)\s+nudes|nudes\s+in\s+(?:my\s+)?(?:bio|profile)|sex\s*cams?|webcam\s+girls?|hot\s+(?:singles|girls|women)\s+(?:in|near)|dating\s+(?:site|app)|hook\s?up\s+(?:site|app|tonight))\b/,
  ),
  // Talked about as often as advertised: a hint only.
  pattern('adult words', 1, /\b(?:porn\w*|nudes?|onlyfans)\b/),
  pattern(
    'sorry for the spam',
    2,
    /\bsorry\s+(?:for|about)\s+(?:the\s+|this\s+|my\s+)?(?:spam(?:ming)?|advertising|ad|self[\s-]promo)|\b(?:i\s+know\s+)?this\s+is\s+(?:spam|self[\s-]promo)|\bnot\s+(?:a\s+)?spam\b|\bself[\s-]promo(?:tion)?\b|\bsorry\s+(?:to|for)\s+(?:bother|interrupt)/,
  ),
  pattern(
    'aspiring artist',
    1,
    /\b(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:an?\s+|just\s+an?\s+)?(?:\d+\s+(?:year|yr)s?\s+old\s+|young\s+|new\s+|upcoming\s+|up\s+and\s+coming\s+|independent\s+|aspiring\s+|unsigned\s+|small\s+|local\s+|struggling\s+)*(?:[\w-]+\s+){0,2}(?:rapper|singer|artist|producer|musician|youtuber|vlogger|songwriter|band|dancer|channel|mc|dj|gamer|creator)s?\b|\bi\s+(?:make|made|upload|post|do)\s+(?:music|videos|covers|beats|raps|songs|vlogs|content)\b/,
  ),
  pattern(
    'go and see',
    1,
    /\bcheck(?:ed|ing)?\s*(?:it|this|them|that)?\s*out\b|\bgo\s+(?:check|watch|see)\b|\bwatch\s+my\b|\bview\s+my\b/,
  ),
  pattern(
    'call to action',
    1,
    /\bsign\s+up\b|\bjoin\s+(?:now|us|my|our|today)\b|\bregister\b|\bdownload\b|\bbuy\s+(?:now|it\s+here|cheap)\b|\bcheap\b|\bdiscount\b|\bfree\s+shipping\b|\blimited\s+offer\b|\d+%\s+off\b|\bon\s+youtube\b/,
  ),
  // Crypto and trading words are a hint only: under a post about them they are the subject.
  pattern(
    'investment pitch',
    1,
    /\b(?:invest(?:ed|ing|ment|ments|or|ors)?|trad(?:er|ers|ing)|account\s+manager|financial\s+(?:freedom|advi[cs]\w*|expert|coach)|passive\s+income|profits?|payouts?|withdrawals?|broker|bitcoin|btc|crypto\w*|ethereum|forex|binary|nft)\b/,
  ),
  // "I invested $1,000 and got $9,500 back": the testimonial a scam posts under someone else's name.
  {
    name: 'investment testimony',
    weight: 2,
    gate: /\d/,
    test: (reading) =>
      /\d/.test(reading.text) && INVESTED.test(reading.text) && amountCount(reading.text) >= 2,
  },
  pattern(
    'money testimony',
    1,
    new RegExp(
      `\\bi(?:'ve|\\s+have|\\s+just|\\s+now)?\\s+(?:made|earned|received|got|gained|cashed\\s+out|withdr[ae]w)\\s+(?:over\\s+|more\\s+than\\s+|about\\s+|up\\s+to\\s+|a\\s+total\\s+of\\s+|my\\s+)?${AMOUNT}|\\b(?:profits?|payouts?|payments?|returns?|withdrawals?|income)\\s+of\\s+${AMOUNT}`,
    ),
    /\d/,
  ),
  // The account a scam sends readers to: "contact @trade_with_x", "thanks to #mrs_y".
  pattern(
    'contact this account',
    2,
    /\b(?:contact|message|inbox|dm|text|write\s+to|reach\s+out\s+to|reach|hit\s+up|get\s+in\s+touch\s+with|connect\s+with)\s+(?:(?:him|her|them|mr|mrs|ms|miss|dr|via|on|at|with|directly)\.?\s+)*[@#][a-z0-9_.]{3,}/,
    /[@#]/,
  ),
  pattern(
    'thanks to this account',
    1,
    /\b(?:thanks?(?:\s+you)?(?:\s+so\s+much)?(?:\s+to)?|the\s+help\s+of|through|via|grateful\s+to|because\s+of|with|by|recommend)\s+(?:(?:mr|mrs|ms|miss|dr)\.?\s*)?[@#][a-z0-9_.]{3,}/,
    /[@#]/,
  ),
  // The scam's own words with an account named after the start (a leading @name is a reply).
  {
    name: 'testimony naming an account',
    weight: 2,
    gate: /[@#]/,
    test: (reading) =>
      /[@#]/.test(reading.text) && NAMED_ACCOUNT.test(reading.text) && TESTIMONY.test(reading.text),
  },
  pattern(
    'money account',
    1,
    /[@#][a-z0-9_.]*(?:earn|trad(?:e|es|ing|er)|invest|profit|wealth|financ|income|money|capital|forex|fx)[a-z0-9_.]*(?:with|_|\d)[a-z0-9_.]*|[@#][a-z0-9_.]*(?:with|_)[a-z0-9_.]*(?:earn|trad(?:e|es|ing|er)|invest|profit|wealth|financ|income|money|capital|forex|fx)/,
    /[@#]/,
  ),
  pattern(
    'first comers paid',
    2,
    /\b(?:first|1st)\s*\(?\s*\d+\s*\)?\s*(?:people|persons|ppl|followers|individuals|subscribers|to\s+(?:dm|message|text|inbox|comment|reply|hmu))\b/,
    /\d/,
  ),
  pattern(
    'hit me up',
    1,
    /\bhmu\b|\bhit\s+me\s+(?:up|in\s+(?:my\s+)?(?:dm|inbox))\b|\bcheck\s+(?:out\s+)?(?:my\s+)?(?:dms?|inbox)\b|\bsend\s+(?:me\s+)?(?:an?\s+)?(?:inbox|dm|direct\s+message)\b|\bdirect\s+message\b|\binbox\b/,
    /hmu|hit|dm|inbox|message/,
  ),
  pattern(
    'cures and spells',
    2,
    /\b(?:spell\s*casters?|love\s+spells?|cast(?:s|ing)?\s+(?:a\s+|any\s+(?:kind\s+of\s+)?)?spells?|herbal\s+(?:medicine|remedy|cure|doctor)|cured?\s+(?:me\s+)?(?:of|from)\s+(?:herpes|hiv|hpv|diabetes|cancer)|(?:herpes|hiv)\s+(?:cure|virus)|restor(?:e|ed|ing)\s+(?:my|our)\s+(?:marriage|relationship))\b/,
    /spell|herbal|cure|herpes|hiv|restor/,
  ),
  pattern(
    'fund recovery',
    2,
    /\brecover(?:y|ed|ing)?\s+(?:of\s+)?(?:my\s+|your\s+|their\s+|his\s+|her\s+|the\s+)?(?:lost|stolen|scammed)\b|\b(?:funds?|crypto|bitcoin|assets?|money|account)\s+recovery\b|\brecovery\s+(?:expert|agent|hacker|company|service|specialist)s?\b|\b(?:hire|contact)\s+(?:a\s+)?(?:hacker|recovery)\b|\bhelped\s+(?:me\s+)?(?:in\s+the\s+)?recover/,
    /recover|hacker/,
  ),
  pattern(
    'prize notice',
    2,
    /\b(?:you|u)(?:'ve|\s+have|\s+are|\s+r|'re)?\s+(?:a\s+)?(?:won|winner|been\s+(?:specially\s+)?(?:selected|chosen)|awarded)\b.{0,60}?(?:[$£€]\s?\d|\d[\d,]*\s*(?:pounds|dollars|euros)|cash|prize|voucher|gift\s*card|bonus|holiday|iphone)|\b(?:claim|collect|redeem)\s+(?:your\s+|ur\s+|the\s+|a\s+|yr\s+)?(?:free\s+|\w+\s+)?(?:prize|reward|award|cash|gift|voucher|bonus|winnings|holiday)s?\b/,
    /won|winner|selected|chosen|awarded|claim|collect|redeem/,
  ),
  pattern(
    'call this number',
    2,
    /\b(?:call|text|txt|ring|phone|dial|whatsapp|sms|contact|reach)(?:\b|(?=\d))[^.!?\n]{0,25}?\+?\d(?:[\s-]?\d){8,}|\b(?:txt|text|send|reply)\s+(?:\w+\s+){0,3}to\s+\d{4,6}\b/,
    /\d/,
  ),
  pattern('a phone number', 1, /\d{10,}|\+\d{1,3}[\s-]?\d(?:[\s-]?\d){7,}/, /\d{8}|\+\d/),
  pattern(
    'urgency',
    1,
    /\burgent(?:ly)?\b|\bact\s+(?:now|fast)\b|\blimited\s+(?:time|spots?|slots?)\b|\bdon'?t\s+miss\s+out\b|\boffer\s+(?:ends|expires|valid)\b|\blast\s+chance\b/,
  ),
  { name: 'disguised letters', weight: 1, test: (reading) => reading.disguised },
];

/** The names of the signals a comment's lowercased body carries (every signal tested), for tests and diagnosis. */
export function spamSignalsOf(lower: string): string[] {
  const reading = plainLetters(lower);
  return SPAM_SIGNALS.filter((s) => s.test(reading)).map((s) => s.name);
}

/**
 * The ungated pattern signals of one weight as one alternation: it matches a text exactly when one of
 * them does, in one scan instead of one a signal (most comments carry no signal, and the scans were most
 * of the reading's cost). Gated and other signals are asked one by one, each behind its cheap gate.
 */
function scanOf(signals: readonly SpamSignal[]): RegExp {
  return new RegExp(signals.map((s) => `(?:${s.pattern!.source})`).join('|'));
}

const scanned = (s: SpamSignal): boolean => s.pattern !== undefined && s.gate === undefined;
const STRONG = SPAM_SIGNALS.filter((s) => s.weight === 2);
const HINTS = SPAM_SIGNALS.filter((s) => s.weight === 1);
const STRONG_SCAN = scanOf(STRONG.filter(scanned));
const STRONG_ASKED = STRONG.filter((s) => !scanned(s));
const HINTS_SCANNED = HINTS.filter(scanned);
const HINT_SCAN = scanOf(HINTS_SCANNED);
const HINTS_ASKED = HINTS.filter((s) => !scanned(s));
/** Any gate of the asked signals: when none passes, no gated signal is asked at all. */
const ANY_GATE = new RegExp(
  SPAM_SIGNALS.filter((s) => s.gate && !scanned(s))
    .map((s) => s.gate!.source)
    .join('|'),
);

/**
 * Whether a comment's lowercased body is spam or promotion: its signals' weights reach SPAM_THRESHOLD,
 * that is one signal of weight 2, or two hints (weight 1).
 */
export function isSpam(lower: string): boolean {
  const reading = plainLetters(lower);
  if (STRONG_SCAN.test(reading.text)) return true;
  const gated = ANY_GATE.test(reading.text);
  for (const signal of STRONG_ASKED)
    if ((gated || signal.gate === undefined) && signal.test(reading)) return true;
  let hints = 0;
  for (const signal of HINTS_ASKED) if ((gated || signal.gate === undefined) && signal.test(reading)) hints++;
  if (!HINT_SCAN.test(reading.text)) return hints >= SPAM_THRESHOLD;
  if (hints + 1 >= SPAM_THRESHOLD) return true;
  // One scanned hint at least and no asked one: spam when a second scanned hint is there too.
  for (const signal of HINTS_SCANNED) if (signal.test(reading) && ++hints >= SPAM_THRESHOLD) return true;
  return false;
}
