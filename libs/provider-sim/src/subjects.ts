/** What a simulated post is about: its topic phrases, how titles read, and the hashtags it uses. */
export interface Subject {
  key: string;
  topics: readonly string[];
  titles: readonly string[];
  hashtags: readonly string[];
  /** Where the subject is discussed: used in comments ("Does this apply in {place}?"). */
  places: readonly string[];
}

export const SUBJECTS: readonly Subject[] = [
  {
    key: 'housing',
    topics: ['rent control', 'zoning reform', 'mortgage rates', 'first-time buyers', 'housing supply'],
    titles: [
      'Why {T} will not fix the housing crisis',
      'The truth about {t}',
      '{T}: what nobody tells you',
      'I tried to buy a house in 2026 ({t})',
    ],
    hashtags: ['#housing', '#realestate', '#rent'],
    places: ['Toronto', 'Berlin', 'Austin', 'London'],
  },
  {
    key: 'cooking',
    topics: ['sourdough starter', 'cast iron', 'meal prep', 'air fryer', 'knife skills'],
    titles: [
      'The only {t} guide you need',
      '{T} mistakes everyone makes',
      'I cooked with {t} for 30 days',
      'Stop doing {t} like this',
    ],
    hashtags: ['#cooking', '#recipe', '#foodtok'],
    places: ['a tiny apartment kitchen', 'high altitude', 'a dorm', 'a gas stove'],
  },
  {
    key: 'fitness',
    topics: ['progressive overload', 'protein intake', 'zone 2 cardio', 'creatine', 'home workouts'],
    titles: ['{T} explained in 8 minutes', 'The science of {t}', 'I did {t} for a year', 'Is {t} overrated?'],
    hashtags: ['#fitness', '#gym', '#health'],
    places: ['a home gym', 'a busy commercial gym', 'my fifties', 'a cut'],
  },
  {
    key: 'personal-finance',
    topics: ['index funds', 'emergency fund', 'credit card debt', 'budgeting apps', 'early retirement'],
    titles: ['{T} in plain English', 'How I paid off {t}', 'The problem with {t}', '{T}: a beginner guide'],
    hashtags: ['#personalfinance', '#money', '#investing'],
    places: ['the UK', 'Canada', 'a single income', 'a student budget'],
  },
  {
    key: 'electric-cars',
    topics: ['charging network', 'battery range', 'heat pumps', 'used EV prices', 'home charger'],
    titles: [
      'Living with an EV: {t}',
      'The {t} problem nobody talks about',
      '{T} tested in winter',
      'Is the {t} good enough yet?',
    ],
    hashtags: ['#EV', '#electriccars', '#tesla'],
    places: ['Norway', 'rural areas', 'an apartment', 'cold winters'],
  },
  {
    key: 'smartphones',
    topics: ['battery life', 'camera quality', 'foldable phones', 'software updates', 'USB-C charging'],
    titles: ['{T} after six months', 'Honest review: {t}', 'The {t} test', 'Why {t} matters more than specs'],
    hashtags: ['#tech', '#smartphone', '#review'],
    places: ['low light', 'a long flight', 'the budget tier', 'daily use'],
  },
  {
    key: 'gaming',
    topics: ['open world design', 'microtransactions', 'speedrunning', 'indie games', 'game preservation'],
    titles: ['How {t} ruined games', 'In defense of {t}', 'A deep dive into {t}', 'What happened to {t}?'],
    hashtags: ['#gaming', '#videogames', '#indiedev'],
    places: ['console', 'PC', 'handhelds', 'mobile'],
  },
  {
    key: 'climate',
    topics: ['solar panels', 'carbon tax', 'heat waves', 'public transit', 'plant-based diets'],
    titles: [
      '{T}: the numbers',
      'Does {t} actually work?',
      'Why {t} matters for your city',
      'The case for {t}',
    ],
    hashtags: ['#climate', '#sustainability', '#environment'],
    places: ['Spain', 'California', 'small towns', 'the suburbs'],
  },
  {
    key: 'remote-work',
    topics: ['return to office', 'four-day week', 'async meetings', 'home office setup', 'burnout'],
    titles: [
      '{T}: what the data says',
      'We tried {t} for a quarter',
      'Managers are wrong about {t}',
      'My honest take on {t}',
    ],
    hashtags: ['#remotework', '#careers', '#leadership'],
    places: ['startups', 'big tech', 'a hospital', 'government jobs'],
  },
  {
    key: 'travel',
    topics: ['budget airlines', 'overtourism', 'travel insurance', 'night trains', 'solo travel'],
    titles: ['{T} survival guide', 'The dark side of {t}', 'Is {t} worth it in 2026?', '{T} done right'],
    hashtags: ['#travel', '#backpacking', '#wanderlust'],
    places: ['Lisbon', 'Japan', 'Mexico City', 'Iceland'],
  },
];

/** How the creator frames each topic in the caption; the scorer reads stance back from these sentences. */
export const STANCE_SENTENCES = {
  supports: [
    'I am a big fan of {t}, it really works.',
    'I love how {t} makes life easier for so many people.',
    'Honestly, going all in on {t} was worth it and the results are amazing.',
    '{T}: the best change we have seen in years.',
  ],
  criticizes: [
    'Sorry, but {t} is a terrible idea that keeps failing.',
    'I think the hype around {t} is overrated and a waste of money.',
    'The hype around {t} is misleading and the results are awful.',
    'Nobody wants to admit how broken the case for {t} has become.',
  ],
  explains: [
    'Here is how {t} works, step by step.',
    'In this one I break down {t} and the numbers behind it.',
    'We look at what {t} means in practice.',
    'A walkthrough of {t} from the basics.',
  ],
} as const;
export type CreatorStance = keyof typeof STANCE_SENTENCES;

export const FIRST_NAMES = [
  'Maya',
  'Leo',
  'Ava',
  'Noah',
  'Zoe',
  'Omar',
  'Lena',
  'Kai',
  'Nora',
  'Ravi',
  'Iris',
  'Theo',
  'Sofia',
  'Jonas',
  'Amara',
  'Hugo',
  'Priya',
  'Diego',
  'Elif',
  'Sam',
];
export const LAST_NAMES = [
  'Chen',
  'Okafor',
  'Silva',
  'Novak',
  'Haddad',
  'Larsen',
  'Moreau',
  'Tanaka',
  'Garcia',
  'Kowalski',
  'Nguyen',
  'Ibrahim',
  'Rossi',
  'Patel',
  'Fischer',
  'Brooks',
];
export const HANDLE_WORDS = [
  'daily',
  'talks',
  'lab',
  'hq',
  'official',
  'tv',
  'explains',
  'studio',
  'works',
  'plus',
];
export const COMMENTER_WORDS = [
  'sunny',
  'pixel',
  'mango',
  'river',
  'night',
  'echo',
  'lucky',
  'nova',
  'frost',
  'cactus',
  'ember',
  'willow',
  'atlas',
  'biscuit',
  'comet',
  'maple',
  'orbit',
  'pepper',
  'quartz',
  'tango',
];
