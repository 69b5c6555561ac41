/**
 * Spam and promotion: comments written to send readers elsewhere (a channel, a link, a shop, a giveaway)
 * or to farm likes, rather than to react to the post. Written from how such comments are built, not
 * fitted to a labelled set; the held-out check is bench/spam-off-topic.ts.
 *
 * Each signal adds its weight once; a comment is spam at SPAM_THRESHOLD. A weight of 2 is a signal that
 * is promotion on its own (a link, "check out my", "sub4sub", a giveaway); a weight of 1 is a hint that
 * a genuine comment can carry alone ("please", "my song", "I'm a rapper") and counts only with another.
 */

export interface SpamSignal {
  name: string;
  /**
   * Substrings every match of the pattern holds, searched first when the pattern's scan costs more
   * than the search (the link pattern tries a domain at every word); absent: test the pattern.
   */
  needles?: readonly string[];
  weight: 1 | 2;
  pattern: RegExp;
}

export const SPAM_THRESHOLD = 2;

/** Things a promoter calls "my …" and a viewer rarely does. */
const PROMOTED_THING =
  '(?:channel|videos?|vids?|vlogs?|website|web ?site|blog|mixtape|soundcloud|covers?|remix(?:es)?|parody|beats|rap video|music video|page|profile|account|insta(?:gram)?|twitter|facebook|tiktok|twitch|stream|shop|store|merch|app|ebook|podcast|fan ?page)';

/** Words that tie the "my" to a promoted thing: "my new", "my first ever", "my brother's". */
const MY =
  "\\b(?:my|our)\\s+(?:(?:new|first|latest|own|little|small|official|music|youtube|cover|dance|rap|friend'?s|brother'?s|sister'?s|cousin'?s|ever)\\s+){0,3}";

export const SPAM_SIGNALS: readonly SpamSignal[] = [
  {
    name: 'link',
    needles: [
      'http',
      'www.',
      '.com',
      '.net',
      '.org',
      '.info',
      '.biz',
      '.ly',
      '.gl',
      '.tk',
      '.xyz',
      '.be/',
      '.co/',
      '.me/',
      '.io/',
      '.tv/',
      'dot',
    ],
    weight: 2,
    pattern:
      /https?:\/\/|\bwww\.|\b[a-z0-9][a-z0-9-]+\.(?:(?:com|net|org|info|biz|ly|gl|tk|xyz)(?![a-z])|(?:be|co|me|io|tv)\/)|\bdot\s?com\b/,
  },
  {
    name: 'my promoted thing',
    weight: 2,
    pattern: new RegExp(`${MY}${PROMOTED_THING}\\b`),
  },
  {
    name: 'my new release',
    weight: 2,
    pattern:
      /\b(?:my|our)\s+(?:brand\s+new|new|latest|newest|debut|own|first\s+ever)\s+(?:\w+\s+)?(?:songs?|tracks?|singles?|album|ep|music|raps?|beats?|mixtape|remix|cover|freestyle)\b|\b(?:my|our)\s+(?:[\w-]+\s+)?(?:remix(?:es)?|mixtapes?|soundcloud|covers|vlogs|beats\s+and)\b/,
  },
  {
    name: 'a channel or release of my own',
    weight: 2,
    pattern:
      /\bi\s+(?:just\s+|recently\s+)?(?:started|created|made|opened|launched|have)\s+(?:a|my|an)\s+(?:own\s+|new\s+|small\s+|youtube\s+|music\s+|gaming\s+)*channel\b|\bi\s+(?:just\s+|finally\s+)?(?:put\s+out|released|dropped|uploaded|posted)\s+(?:a|my|an|our)\s+(?:new\s+|first\s+)?(?:track|song|video|mixtape|single|album|ep|cover|remix|music\s+video)\b|\bcheck(?:ed|ing)?\s*(?:out\s+)?(?:this|that|his|her|their|the)\s+(?:\w+\s+)?(?:channel|website|site|link|app|playlist)\b/,
  },
  {
    name: 'my work',
    weight: 1,
    pattern: new RegExp(
      `${MY}(?:songs?|music|tracks?|album|ep|single|raps?|art|artwork|work|band|content|book|game|dance)\\b`,
    ),
  },
  {
    name: 'go look at mine',
    weight: 2,
    pattern:
      /\b(?:check(?:ing)?\s*(?:out\s+)?|listen\s+to|visit|look\s+at|click\s+(?:on\s+)?|subscribe\s+to|sub\s+to)\s*(?:out\s+)?(?:my|our)\b|\bcheck\s+(?:me|us)\s+out\b|\bsupport\s+(?:me|us)\b|\b(?:you'?ll|you\s+will|you\s+might|you\s+may|u\s+will)\s+(?:also\s+)?(?:love|like|enjoy)\s+(?:my|our)\b/,
  },
  {
    name: 'subscriber farming',
    weight: 2,
    pattern:
      /\bsub\s?(?:4|for|4a)\s?sub\b|\bsubscribe\s+(?:back|(?:to\s+)?(?:me|my|us|our))\b|\bsub\s+(?:back|(?:to\s+)?me)\b|\b(?:reach|get|hit|need|to|want|gain)\s+(?:\d[\d,.]*k?|a\s+few|some|more)\s+(?:subs|subscribers|followers)\b|\broad\s+to\s+\d/,
  },
  { name: 'subscribe', weight: 1, pattern: /\bsubscrib|\bsubs\b/ },
  {
    name: 'subscribe, imperative',
    weight: 2,
    // "Subscribe!" opening a sentence asks for something; "subscribed" reports it.
    pattern:
      /(?:^|[.!?\n]\s*)(?:pl(?:ea)?se?\s+|pls\s+|plz\s+)?(?:subscribe|sub)(?:\s+(?:now|guys|everyone|pl(?:ea)?se|pls|plz))?\s*(?:[.!?\n]|$)/,
  },
  {
    name: 'follow me, click here',
    weight: 2,
    pattern:
      /\b(?:follow|add|dm|message|text|inbox|contact)\s+me\b|\blink\s+in\s+(?:my\s+)?(?:bio|profile|description)\b|\bcheck\s+(?:my|the)\s+(?:bio|profile)\b|\bclick\s+(?:the|this|my|on\s+(?:the|my))\s+(?:link|name|profile|picture|pic)\b|\bclick\s+(?:here|below)\b/,
  },
  {
    name: 'elsewhere on the web',
    weight: 1,
    // Not @handles: a reply names the person it answers that way.
    pattern:
      /\b(?:instagram|insta|twitter|facebook|snapchat|soundcloud|tiktok|twitch|spotify|itunes|bandcamp|kik|skype)\b/,
  },
  {
    name: 'like farming',
    weight: 1,
    pattern:
      /\blike\s+this\s+comment\b|\bthumbs?\s+(?:this\s+)?up\s+(?:this|if|so)\b|\bso\s+(?:that\s+)?(?:every\s?one|every\s?body|more\s+people|people|others|the\s+world)\s+(?:can|will|could)\s+see\b|\b(?:comment|this)\s+to\s+the\s+top\b/,
  },
  {
    name: 'chain letter',
    weight: 2,
    pattern:
      /\bcopy\s+(?:and|&|n|\+)\s+paste\b|\bif\s+you\s+(?:read|see)\s+this\b|\b(?:1|one)\s+(?:like|share|comment|thumbs?\s+up)\s*(?:=|equals)|\bsend\s+this\s+to\b|\brepost\s+this\b|\bdon'?t\s+(?:scroll|ignore\s+this)\b|\bbad\s+luck\s+for\b/,
  },
  {
    name: 'money and giveaways',
    weight: 2,
    pattern:
      /\bgive\s?aways?\b|\bgift\s?cards?\b|\bfree\s+(?:iphone|ipad|xbox|ps[345]|money|cash|crypto|followers|subscribers|subs|likes|views|gifts?|robux|v-?bucks|coins|gems|vouchers?|psn|codes?|xbox\s+live|minecraft)\b|\bwin\s+(?:an?\s+)?(?:free|iphone|ipad|\$|cash|prize)|\b(?:bitcoin|btc|crypto(?:currency)?|ethereum|forex|binary\s+options|nft)\b|\binvest(?:ing|ment|ments)?\s+(?:plan|platform|opportunit|advi[cs]|with)|\bearn(?:ed|ing|s)?\s+(?:\$|£|€|money|cash|extra|\d)|\bmak(?:e|ing)\s+(?:\$|£|€|money|cash|\d[\d,.]*\s*(?:dollars|a\s+day|per))|(?:\$|£|€)\s?\d[\d,.]*k?\s*(?:a|per|every|each|\/)\s*(?:day|week|month|hour|hr)\b|\b(?:work(?:ing)?\s+from\s+home|online\s+job|paypal|cash\s?app|venmo|onlyfans|whatsapp|telegram|promo\s+code|discount\s+code|coupon|use\s+(?:my\s+)?code)\b/,
  },
  {
    name: 'asking a favour',
    weight: 1,
    pattern:
      /\b(?:please|pls|plz|plzz|pleas|pleeease)\b.{0,40}?\b(?:subscribe|sub|like|share|check|watch|visit|listen|follow|support|help|view|click|give)\b|\bgive\s+(?:me|my|us|it|him|her)\s+(?:a\s+)?(?:chance|shot|try|listen)\b|\bhelp\s+(?:me|us)\s+(?:reach|get|grow|achieve|make|out|by)\b|\b(?:would|will)\s+(?:really\s+)?(?:mean\s+a\s+lot|appreciate)|\b(?:really\s+)?appreciate\s+it\b|\bthanks?\s+(?:you\s+)?(?:in\s+advance|for\s+(?:reading|your\s+time|listening|watching\s+my))\b/,
  },
  {
    name: 'hello everyone',
    weight: 1,
    // A reaction answers the post; a pitch opens by hailing the readers ("Hey guys", "Hi Katy fans").
    pattern:
      /^\W*(?:hey|hi|hello|yo|sup|hiya|greetings)\s+(?:guys|everyone|everybody|people|all|there|y'?all|(?:[\w-]+\s+)?fans|friends)\b/,
  },
  {
    name: 'a minute of your time',
    weight: 1,
    pattern:
      /\b(?:let\s+me\s+know|tell\s+me)\s+what\s+(?:you|u)\s+think\b|\b(?:please\s+)?vote\s+for\s+(?:me|my|us|our)\b|\btake\s+a\s+(?:minute|second|moment|sec)\s+(?:to|and)\b|\bi\s+know\s+(?:most\s+(?:of\s+)?)?(?:you|people|u)\s+(?:won'?t|will\s+not|don'?t|do\s+not|never)\s+(?:read|care|see)/,
  },
  {
    name: 'adult and dating',
    weight: 2,
    pattern:
      /\b(?:porn|xxx|nudes?|sex\s*cams?|webcam\s+girls?|hot\s+(?:singles|girls|women)\s+(?:in|near)|dating\s+(?:site|app)|hook\s?up\s+(?:site|app|tonight))\b/,
  },
  {
    name: 'sorry for the spam',
    weight: 2,
    pattern:
      /\bsorry\s+(?:for|about)\s+(?:the\s+|this\s+|my\s+)?(?:spam|advertising|ad|self[\s-]promo)|\b(?:i\s+know\s+)?this\s+is\s+(?:spam|self[\s-]promo)|\bnot\s+(?:a\s+)?spam\b|\bspamming\b|\bself[\s-]promo(?:tion)?\b|\bsorry\s+(?:to|for)\s+(?:bother|interrupt)/,
  },
  {
    name: 'aspiring artist',
    weight: 1,
    pattern:
      /\b(?:i'?m|i\s+am|we'?re|we\s+are)\s+(?:an?\s+|just\s+an?\s+)?(?:\d+\s+(?:year|yr)s?\s+old\s+|young\s+|new\s+|upcoming\s+|up\s+and\s+coming\s+|independent\s+|aspiring\s+|unsigned\s+|small\s+|local\s+|struggling\s+)*(?:[\w-]+\s+){0,2}(?:rapper|singer|artist|producer|musician|youtuber|vlogger|songwriter|band|dancer|channel|mc|dj|gamer|creator)s?\b|\bi\s+(?:make|made|upload|post|do)\s+(?:music|videos|covers|beats|raps|songs|vlogs|content)\b/,
  },
  {
    name: 'go and see',
    weight: 1,
    pattern:
      /\bcheck(?:ed|ing)?\s*(?:it|this|them|that)?\s*out\b|\bgo\s+(?:check|watch|see)\b|\bwatch\s+my\b|\bview\s+my\b/,
  },
  {
    name: 'call to action',
    weight: 1,
    pattern:
      /\bsign\s+up\b|\bjoin\s+(?:now|us|my|our|today)\b|\bregister\b|\bdownload\b|\bbuy\s+(?:now|it\s+here|cheap)\b|\bcheap\b|\bdiscount\b|\bfree\s+shipping\b|\blimited\s+offer\b|\d+%\s+off\b|\bon\s+youtube\b/,
  },
];

function mayMatch(signal: SpamSignal, lower: string): boolean {
  if (signal.needles === undefined) return true;
  for (const needle of signal.needles) if (lower.includes(needle)) return true;
  return false;
}

/** The names of the signals a comment's lowercased body carries (every pattern tested), for tests and diagnosis. */
export function spamSignalsOf(lower: string): string[] {
  return SPAM_SIGNALS.filter((s) => s.pattern.test(lower)).map((s) => s.name);
}

/** Whether a comment's lowercased body is spam or promotion: its signals' weights reach SPAM_THRESHOLD. */
export function isSpam(lower: string): boolean {
  let score = 0;
  for (const signal of SPAM_SIGNALS) {
    if (!mayMatch(signal, lower) || !signal.pattern.test(lower)) continue;
    score += signal.weight;
    if (score >= SPAM_THRESHOLD) return true;
  }
  return false;
}
