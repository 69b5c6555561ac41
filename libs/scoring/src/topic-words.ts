/**
 * Word lists that keep creator topics to the subject a person would name. The part-of-speech
 * tagger decides most of it; these lists cover what a tagger cannot know or gets wrong in titles.
 */

const list = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/**
 * English closed-class words: prepositions, determiners and quantifiers, pronouns, conjunctions,
 * auxiliaries and modals, particles and closed-class adverbs of place, time and degree. Never part
 * of a topic, whatever a tagger reads in a title-cased line ("The Numbers Behind Rent Control").
 */
export const CLOSED_CLASS = list(`
  aboard about above across after against ago ahead along alongside amid amidst among amongst around as aside
  astride at atop barring before behind below beneath beside besides between beyond but by circa concerning
  considering despite down during except excluding following for from in inside into like minus near nearby
  next notwithstanding of off on onto opposite out outside over past per plus regarding round save since than
  through throughout till to toward towards under underneath unlike until unto up upon versus via vs with within
  without
  a an the this that these those each every either neither some any no all both half several many much more most
  few fewer less least enough such what whatever which whichever whose another other others own same certain
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
  basically honestly truly simply definitely probably certainly especially yes no ok okay oh
`);

/**
 * Nouns that frame a post rather than name its subject: the post and its parts, the act of
 * presenting or arguing, people in general, and time or amounts. Alone they are never a topic; a
 * longer phrase may hold one ("battery life", "four-day week", "video games").
 */
export const FRAMING_NOUNS = list(`
  video videos clip clips post posts reel reels short shorts vlog episode episodes part parts series intro outro
  chapter chapters wrap-up recap update updates stream livestream channel content thumbnail title description link
  guide guides tutorial tutorials recipe recipes walkthrough breakdown review reviews reaction explainer dive overview summary
  idea ideas step steps basics tip tips trick tricks hack hacks number numbers data result results truth fact facts
  case defense side myth myths problem problems issue issues question questions answer answers mistake mistakes reason reasons
  thought thoughts take takes opinion opinions story stories thing things stuff way ways lot lots kind sort bit
  hype fan fans practice change changes matter matters point points version science test tests money
  people person guy guys folks everyone life
  time times minute minutes hour hours day days week weeks month months year years decade moment term
`);

/**
 * Adjectives of evaluation, order, completeness or plain description, which frame a subject without
 * naming it: "the ultimate sourdough guide", "my honest take", "the first look". A topic never starts
 * with one. Adjectives that make a name with their noun stay out ("tiny home", "main street", "final boss",
 * "whole wheat").
 */
export const GENERIC_ADJECTIVES = list(`
  new latest ultimate official viral honest complete full entire quick easy simple plain actual different same
  other next last first second third only own various certain popular important perfect favorite favourite typical normal proper good
  bad great best worst better worse
`);

/** A run of words opening with this labels the post ("Official Music Video", "official trailer"). */
export const POST_LABEL = 'official';
