import { ENGLISH_CLOSED_CLASS_WORDS } from '@analyst/domain-analysis';

/**
 * Word lists that keep creator topics to the subject a person would name. The part-of-speech
 * tagger decides most of it; these lists cover what a tagger cannot know or gets wrong in titles.
 */

const list = (text: string): ReadonlySet<string> => new Set(text.trim().split(/\s+/));

/**
 * English closed-class words and a few interjections ("yes", "oh"). Never part of a topic, whatever
 * a tagger reads in a title-cased line ("The Numbers Behind Rent Control").
 */
export const CLOSED_CLASS: ReadonlySet<string> = new Set([
  ...ENGLISH_CLOSED_CLASS_WORDS,
  ...list('yes no ok okay oh'),
]);

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
