/**
 * Words a word cloud leaves out because they say nothing about what commenters talk about. They stay
 * in the vocabulary: keyword filters and search still match them (search keeps to `STOPWORDS`).
 */

const list = (text: string): string[] => text.trim().split(/\s+/);

/**
 * English closed-class words: prepositions, determiners and quantifiers, pronouns, conjunctions,
 * auxiliaries and modals, particles and closed-class adverbs of place, time and degree.
 */
const FUNCTION_WORDS = list(`
  aboard about above across after against ago ahead along alongside amid amidst among amongst around as aside
  astride at atop barring before behind below beneath beside besides between beyond but by circa concerning
  considering despite down during except excluding following for from in inside into like minus near nearby
  next notwithstanding of off on onto opposite out outside over past per plus regarding round save since than
  through throughout till to toward towards under underneath unlike until unto up upon versus via vs with within
  without
  a an the this that these those each every either neither some any no all both half several many much more most
  few fewer less least enough such what whatever which whichever whose another other others own same certain
  last whole else
  i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its itself
  we us our ours ourselves they them their theirs themselves one ones oneself who whom whoever someone somebody
  something anyone anybody anything everyone everybody everything nobody nothing none noone whatsoever
  and or nor so yet because although though while whereas whether if unless once lest whenever wherever
  am is are was were be been being have has had having do does did doing done shall should will would can could
  may might must ought need dare gonna gotta wanna
  not never ever also too very quite rather just only even still already again almost always often sometimes
  seldom rarely usually soon later now then today tonight tomorrow yesterday here there where when why how
  away back forward forth hence thus therefore however anyway anyhow somewhat somehow sometime elsewhere
  everywhere anywhere somewhere nowhere indeed perhaps maybe instead otherwise really actually literally
  basically honestly truly simply definitely probably certainly especially well pretty super totally mostly
  barely hardly nearly though tho
`);

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
