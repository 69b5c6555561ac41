import { ENGLISH_CLOSED_CLASS_WORDS } from './closed-class-words';

/**
 * Words a word cloud leaves out because they say nothing about what commenters talk about. They stay
 * in the vocabulary: keyword filters and search still match them (search keeps to `STOPWORDS`).
 */

const list = (text: string): string[] => text.trim().split(/\s+/);

/**
 * The closed-class words, and those a cloud also leaves out: quantifiers of order ("last", "whole",
 * "else") and adverbs of degree that say nothing of the subject ("pretty", "totally", "barely").
 */
const FUNCTION_WORDS = [
  ...ENGLISH_CLOSED_CLASS_WORDS,
  ...list(`last whole else well pretty super totally mostly barely hardly nearly though tho`),
];

/**
 * Contractions as the tokenizer leaves them (apostrophes dropped): "we'll" reads "well", "I'll" "ill".
 * Read as contractions, which they are far more often in comments than the words they spell.
 */
const CONTRACTIONS = list(`
  dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent hasnt havent hadnt aint mustnt
  im ive ill youre youve youll youd hes shes weve well theyre theyve theyll thats theres whats whos lets
  shouldve couldve wouldve mightve yall its
`);

/**
 * Verbs any comment uses whatever it is about, in all their forms: "take", "works", "made", "watching".
 * Verbs that carry an opinion (love, hate, recommend) or a subject (cook, charge) stay in.
 */
const GENERIC_VERBS = list(`
  get gets got gotten getting go goes went gone going come comes came coming make makes made making
  take takes took taken taking give gives gave given giving put puts putting let lets letting keep keeps kept
  keeping say says said saying tell tells told telling ask asks asked asking talk talks talked talking
  know knows knew known knowing think thinks thought thinking mean means meant meaning guess guessed
  want wants wanted wanting need needs needed needing seem seems seemed seeming feel feels felt feeling
  look looks looked looking see sees saw seen seeing watch watches watched watching show shows showed shown
  showing hear hears heard hearing find finds found finding use uses used using try tries tried trying
  work works worked working happen happens happened happening become becomes became becoming
  start starts started starting call calls called calling wait waits waited waiting leave leaves left leaving
`);

/** Nouns and adverbs that stand for anything: "thing", "way", "time", "lot", "people". */
const GENERIC_WORDS = list(`
  thing things stuff way ways time times lot lots bit kind sort sorts people person guy guys folks someone
  day days year years week weeks month months moment part video videos vid vids clip clips post posts
  yeah yes yep yup nope nah okay lol lmao lmfao rofl omg omfg wtf tbh imo imho idk ngl btw irl smh ikr fyi
  haha hahaha hehe please pls plz thanks thank thx
`);

/** Words of self-promotion and spam: plugs, links and follow-for-follow ("sub4sub", "check out my channel"). */
const SPAM_TERMS = list(`
  subscribe subscribed subscribing subscriber subscribers sub subs sub4sub subforsub follow follows followed
  following follower followers followback f4f l4l check checks checked checking channel channels dm dms
  inbox bio link links linkinbio giveaway giveaways promo http https www com net org html
`);

export const CLOUD_STOPWORDS: ReadonlySet<string> = new Set([
  ...FUNCTION_WORDS,
  ...CONTRACTIONS,
  ...GENERIC_VERBS,
  ...GENERIC_WORDS,
  ...SPAM_TERMS,
]);
