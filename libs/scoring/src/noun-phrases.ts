import { tagsInNounFrame, type TaggedWord } from './part-of-speech';
import { FRAMING_NOUNS, GENERIC_ADJECTIVES, POST_LABEL } from './topic-words';

/**
 * A word's part in a noun phrase: the noun it ends on (head), an adjective, a noun or gerund used
 * as a modifier (adjunct: "charging network", "cast iron"), or a number (only inside: "zone 2 cardio").
 */
type Role = 'head' | 'adjective' | 'adjunct' | 'number';
interface PhraseWord {
  word: string;
  role: Role;
}

const NUMBER = /^\d+$/;
const GERUND = /..ing$/;
const NOUN_TAGS = new Set(['NOUN', 'PROPN']);
const ADJECTIVE_TAGS = new Set(['ADJ', 'NUM', 'X']);
/** Words before which a verb has no subject of its own, so a noun reading is possible. */
const NO_SUBJECT_TAGS = new Set(['DET', 'ADP', 'SCONJ', 'ADV', 'AUX']);
const WH_WORDS = new Set(['what', 'which', 'how', 'why', 'where', 'when']);
/** Tags after which a word is the object of a preposition or determiner ("the case for speedrunning"). */
const OBJECT_TAGS = new Set(['DET', 'ADP', 'SCONJ']);

function roleAsTagged(t: TaggedWord): Role | null {
  if (NUMBER.test(t.word)) return 'number';
  if (t.noun) return 'head';
  return t.tags.some((x) => ADJECTIVE_TAGS.has(x)) ? 'adjective' : null;
}

/**
 * Roles of a sentence's words; null ends a phrase (verbs, adverbs, closed-class and excluded words).
 * A word tagged only as a verb is read again: a gerund after a noun is its head ("USB-C charging"),
 * before a noun a modifier ("budgeting apps"), after a preposition a head ("for speedrunning"); with
 * no subject before it, a word that reads as a noun or adjective in a noun-phrase frame modifies the
 * noun after it ("how cast iron makes", "is solo travel", "what used EV prices mean").
 */
function rolesOf(tagged: readonly TaggedWord[], usable: (word: string) => boolean): (Role | null)[] {
  const roles = tagged.map((t) => (NUMBER.test(t.word) || usable(t.word) ? roleAsTagged(t) : null));
  for (let i = 0; i < tagged.length; i++) {
    if (roles[i] === null && usable(tagged[i].word) && tagged[i].tags.includes('VERB'))
      roles[i] = verbReadAgain(tagged, roles, i);
  }
  return roles;
}

/** A gerund ends a noun ("USB-C charging"), modifies the next ("budgeting apps") or is an object ("for speedrunning"). */
function gerundRole(afterNoun: boolean, nounAfter: boolean, before: TaggedWord | null): Role | null {
  if (afterNoun) return 'head';
  if (nounAfter) return 'adjunct';
  return before !== null && before.tags.some((x) => OBJECT_TAGS.has(x)) ? 'head' : null;
}

/** The role of a word tagged only as a verb, from its neighbours (see `rolesOf`). */
function verbReadAgain(
  tagged: readonly TaggedWord[],
  roles: readonly (Role | null)[],
  i: number,
): Role | null {
  const t = tagged[i];
  const before = i > 0 && !t.breakBefore ? tagged[i - 1] : null;
  const after = i + 1 < tagged.length && !tagged[i + 1].breakBefore ? tagged[i + 1] : null;
  const nounAfter = after !== null && roles[i + 1] === 'head';
  if (GERUND.test(t.word)) return gerundRole(before !== null && roles[i - 1] === 'head', nounAfter, before);
  if (!nounAfter || before === null) return null;
  if (!WH_WORDS.has(before.word) && !before.tags.some((x) => NO_SUBJECT_TAGS.has(x))) return null;
  const framed = tagsInNounFrame(t.word, after.word);
  if (framed.some((x) => NOUN_TAGS.has(x))) return 'adjunct';
  return framed.includes('ADJ') ? 'adjective' : null;
}

/** Numbers and generic or evaluative adjectives never start a topic ("30 days", "the ultimate guide"). */
function badStart(w: PhraseWord, evaluative: (word: string) => boolean): boolean {
  return (
    w.role === 'number' || GENERIC_ADJECTIVES.has(w.word) || (w.role === 'adjective' && evaluative(w.word))
  );
}

/** Runs of consecutive phrase words, split at punctuation and at words with no role. */
function runsOf(tagged: readonly TaggedWord[], roles: readonly (Role | null)[]): PhraseWord[][] {
  const runs: PhraseWord[][] = [];
  let run: PhraseWord[] = [];
  tagged.forEach((t, i) => {
    const role = roles[i];
    if (role === null || t.breakBefore) {
      if (run.length > 0) runs.push(run);
      run = [];
    }
    if (role !== null) run.push({ word: t.word, role });
  });
  if (run.length > 0) runs.push(run);
  return runs;
}

/**
 * Noun phrases of a tagged sentence: 1 to 3 consecutive words ending on a noun, starting on a word
 * that is neither a number nor a generic or evaluative adjective, and holding a noun that is not a
 * framing noun ("numbers", "review", "life" alone are no topic; "battery life" is). Phrases never
 * cross punctuation, and a run opening with "official" labels the post. Longer phrases first, each listed once.
 */
export function nounPhrases(
  tagged: readonly TaggedWord[],
  usable: (word: string) => boolean,
  evaluative: (word: string) => boolean,
): string[][] {
  const out: string[][] = [];
  const seen = new Set<string>();
  for (const run of runsOf(tagged, rolesOf(tagged, usable))) {
    if (run[0].word === POST_LABEL) continue;
    for (let len = Math.min(3, run.length); len >= 1; len--) {
      for (let i = 0; i + len <= run.length; i++) {
        const part = run.slice(i, i + len);
        if (part[len - 1].role !== 'head' || badStart(part[0], evaluative)) continue;
        if (part.every((w) => w.role !== 'head' || FRAMING_NOUNS.has(w.word))) continue;
        const phrase = part.map((w) => w.word);
        const key = phrase.join(' ');
        if (seen.has(key)) continue;
        seen.add(key);
        out.push(phrase);
      }
    }
  }
  return out;
}
