/**
 * Hand-written AI-search cases for bench/search-paraphrase.ts (written for this project): a query
 * as an analyst types it, and comments that say the same thing without any of its content words
 * (the bench checks that no stem is shared). Comment-style: short, informal, sometimes idiomatic.
 */
export const PARAPHRASE_CASES: { query: string; comments: string[] }[] = [
  {
    query: 'too expensive',
    comments: [
      'costs an arm and a leg',
      'not worth the money at all',
      'way overpriced for what you get',
      'I can not afford this on my salary',
    ],
  },
  {
    query: 'battery drains fast',
    comments: [
      'my phone dies before lunch',
      'needs charging three times a day',
      'the charge barely lasts an hour',
    ],
  },
  {
    query: 'shipping took forever',
    comments: [
      'my package arrived three weeks late',
      'still waiting for the delivery after a month',
      'the parcel was stuck in transit for ages',
    ],
  },
  {
    query: 'customer service was rude',
    comments: [
      'the support agent hung up on me',
      'nobody at the help desk bothered to answer my emails',
      'the staff treated me like garbage when I called',
    ],
  },
  {
    query: 'the sound quality is bad',
    comments: [
      'audio is muffled and crackly',
      'I can barely hear the voices, the mic is awful',
      'terrible speakers, everything is distorted',
    ],
  },
  {
    query: 'funny video',
    comments: [
      'I laughed so hard I cried 😂',
      'this made my whole day lol, hilarious',
      'cracking up at the ending',
    ],
  },
  {
    query: 'boring content',
    comments: [
      'I fell asleep halfway through',
      'so dull, nothing happens',
      'tedious and repetitive, skipped most of it',
    ],
  },
  {
    query: 'the app keeps crashing',
    comments: [
      'it freezes and closes every time I open it',
      'constant force closes since the update',
      'the software is unstable and shuts down randomly',
    ],
  },
  {
    query: 'cheap materials',
    comments: [
      'feels flimsy, the plastic snapped in a week',
      'fell apart after two uses',
      'poorly built, broke the first day',
    ],
  },
  {
    query: 'great recipe',
    comments: [
      'cooked this tonight and my family loved the dish',
      'delicious, I will make it again tomorrow',
      'tasted amazing, thanks for the cooking tips',
    ],
  },
  {
    query: 'misleading title',
    comments: [
      'pure clickbait',
      'the thumbnail lied to me',
      'nothing in the video matches what the headline promised',
    ],
  },
  {
    query: 'scam',
    comments: [
      'they took my money and never sent anything',
      'total fraud, stay away',
      'this is a con to steal your cash',
    ],
  },
  {
    query: 'the music is beautiful',
    comments: ['that song gave me chills', 'lovely melody, soothing tune', 'the soundtrack is gorgeous'],
  },
  {
    query: 'bad acting',
    comments: [
      'the actors delivered their lines like robots',
      'the performances were wooden and unconvincing',
      'the cast could not portray a single emotion',
    ],
  },
  {
    query: 'I want a refund',
    comments: [
      'give me my money back',
      'how do I return this and get reimbursed',
      'demanding reimbursement for this purchase',
    ],
  },
  {
    query: 'the camera takes blurry photos',
    comments: [
      'pictures come out fuzzy and out of focus',
      'every picture I snap is smeared',
      'images look soft and unclear',
    ],
  },
  {
    query: 'the game is too hard',
    comments: [
      'I died on the first level fifty times',
      'the difficulty is brutal, impossible boss',
      'way too challenging for casual players',
    ],
  },
  {
    query: 'dangerous advice',
    comments: [
      'following this could get someone hurt',
      'please do not try this at home, people could be injured',
      'this tip is unsafe and reckless',
    ],
  },
  {
    query: 'political propaganda',
    comments: [
      'this is just election campaign spin',
      'biased government messaging dressed up as news',
      'pushing a party agenda on viewers',
    ],
  },
  {
    query: 'the car is fuel efficient',
    comments: [
      'gets fifty miles per gallon',
      'I barely stop at the gas station anymore',
      'low consumption on the highway',
    ],
  },
  {
    query: 'my dog loves it',
    comments: [
      'my puppy goes crazy for these treats',
      'the pup wags his tail every time',
      'our pet is obsessed with this toy',
    ],
  },
  {
    query: 'weight loss',
    comments: [
      'I dropped ten pounds in a month',
      'finally slimmed down for summer',
      'shed twenty kilos with this diet',
    ],
  },
  {
    query: 'hard to learn',
    comments: [
      'the tutorial confused me completely',
      'steep curve for beginners, the docs are unclear',
      'took me weeks to understand the basics',
    ],
  },
  {
    query: 'thank you for sharing',
    comments: [
      'much appreciated, this helped a lot',
      'grateful you posted this',
      'much obliged for putting this out there',
    ],
  },
  {
    query: 'the hotel room was dirty',
    comments: [
      'stains on the sheets and hair in the bathroom',
      'filthy carpet, the place was never cleaned',
      'our suite smelled and had bugs',
    ],
  },
  {
    query: 'slow internet',
    comments: [
      'pages take ages to load',
      'my connection keeps lagging and buffering',
      'download speeds are painfully sluggish',
    ],
  },
  {
    query: 'fake reviews',
    comments: [
      'those five star ratings are paid for',
      'bots posting praise everywhere',
      'the testimonials are obviously bought',
    ],
  },
  {
    query: 'the food was cold',
    comments: [
      'my meal arrived lukewarm',
      'the soup was freezing when it got to the table',
      'fries were not even warm',
    ],
  },
  {
    query: 'great teacher',
    comments: [
      'she explains everything so clearly',
      'best instructor I ever had',
      'my professor makes hard topics easy to understand',
    ],
  },
  {
    query: 'noisy neighbours',
    comments: [
      'the people upstairs party every night',
      'the folks next door blast music until 3am',
      'loud apartment, thin walls',
    ],
  },
  {
    query: 'uncomfortable shoes',
    comments: [
      'these sneakers gave me blisters',
      'my feet hurt after an hour in these boots',
      'the heels pinch my toes',
    ],
  },
  {
    query: 'excellent value',
    comments: [
      'so much for so little',
      'bargain, would buy again at this price point',
      'affordable and does everything',
    ],
  },
  {
    query: 'the update broke everything',
    comments: [
      'since the patch nothing works',
      'the latest version ruined my setup',
      'after upgrading all my settings are gone and features fail',
    ],
  },
  {
    query: 'climate change',
    comments: [
      'global warming is real',
      'the planet is heating up because of emissions',
      'carbon pollution is wrecking the environment',
    ],
  },
  {
    query: 'mental health',
    comments: [
      'dealing with anxiety and depression every day',
      'therapy helped me cope with stress',
      'taking care of your mind matters',
    ],
  },
  {
    query: 'bad referee decisions',
    comments: [
      'the ref robbed us of a penalty',
      'the officiating was a joke all match',
      'terrible calls from the umpire',
    ],
  },
  {
    query: 'beautiful scenery',
    comments: [
      'stunning views of the mountains',
      'gorgeous landscape, the lake is breathtaking',
      'lovely sunset over the valley',
    ],
  },
  {
    query: 'waste of time',
    comments: [
      'I will never get those twenty minutes back',
      'pointless, should have skipped it',
      'useless video, learned nothing',
    ],
  },
  {
    query: 'kids love this',
    comments: [
      'my children watch it every morning',
      'my son and daughter cannot stop playing with it',
      'the little ones adore it',
    ],
  },
  {
    query: 'privacy concerns',
    comments: [
      'they sell your personal data to advertisers',
      'this tracks everything you do online',
      'creepy how much information the company collects',
    ],
  },
];
