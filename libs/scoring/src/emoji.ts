import { EMOJI_REVIEWED, EMOJI_SENTIMENT_RANKING } from './emoji-valences';
import { emojiData } from './third-party';

// One emoji: a flag (two regional indicators), a keycap, or a pictograph with optional VS16 / skin
// tone, joined by ZWJ into sequences (👩‍💻, 🤦‍♂️). A lone skin-tone modifier counts too.
const EMOJI =
  /\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*|\p{Emoji_Modifier}/gu;
const VARIANTS = /\uFE0F|\p{Emoji_Modifier}/gu;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Valence of each emoji, keyed without VS16 and skin tones: published figures first, reviewed values for the rest. */
export const EMOJI_VALENCE = new Map<string, number>([...EMOJI_REVIEWED, ...EMOJI_SENTIMENT_RANKING]);

/** Short names keyed by the emoji with VS16 and skin tones removed, so 👍🏽 and ❤ find 👍 and ❤️. */
const NAMES = new Map<string, string>();
for (const [emoji, entry] of Object.entries(emojiData)) {
  const bare = emoji.replace(VARIANTS, '');
  if (!NAMES.has(bare)) NAMES.set(bare, entry.name);
  if (!NAMES.has(emoji)) NAMES.set(emoji, entry.name);
}
const nameCache = new Map<string, string>();

/** The CLDR short name of one emoji sequence; unknown ZWJ sequences fall back to their parts' names. */
export function emojiName(sequence: string): string | null {
  const cached = nameCache.get(sequence);
  if (cached !== undefined) return cached || null;
  let name = NAMES.get(sequence) ?? NAMES.get(sequence.replace(VARIANTS, '')) ?? null;
  if (name === null && sequence.includes('\u200D')) {
    const parts = sequence
      .split('\u200D')
      .map((p) => NAMES.get(p.replace(VARIANTS, '')))
      .filter((p): p is string => !!p);
    name = parts.length ? parts.join(' ') : null;
  }
  nameCache.set(sequence, name ?? '');
  return name;
}

const keyCache = new Map<string, string>();

/**
 * The lexicon key of one emoji sequence: the sequence without VS16 and skin tones when it has a valence
 * (👍🏽 → 👍, ❤️ → ❤, ❤️‍🔥 → ❤‍🔥); else for a ZWJ sequence its first part with one (🤦🏻‍♂️ → 🤦); '' when none.
 */
export function emojiKey(sequence: string): string {
  let key = keyCache.get(sequence);
  if (key !== undefined) return key;
  const bare = sequence.replace(VARIANTS, '');
  key = EMOJI_VALENCE.has(bare) ? bare : (bare.split('\u200D').find((p) => EMOJI_VALENCE.has(p)) ?? '');
  if (keyCache.size < 10_000) keyCache.set(sequence, key);
  return key;
}

/** The valence of one emoji sequence (VADER's -4..4), null when it has none (flags, most objects). */
export function emojiValence(sequence: string): number | null {
  const key = emojiKey(sequence);
  return key ? EMOJI_VALENCE.get(key)! : null;
}

/**
 * Replaces every emoji by its lexicon key as a word of its own ("love it😍🏽" → "love it 😍 "), which the
 * scorer's lexicon rates; emoji without a valence become a space. Reading emoji by their CLDR names, as
 * the reference VADER does, made 🔥 "fire" (-1.4) and left 💀, 🙄 and 🤡 at 0.
 */
export function replaceEmoji(text: string): string {
  if (isAscii(text)) return text;
  return text.replace(EMOJI, (seq) => {
    const key = emojiKey(seq);
    return key ? ` ${key} ` : ' ';
  });
}

export function hasEmoji(text: string): boolean {
  if (isAscii(text)) return false;
  EMOJI.lastIndex = 0;
  const found = EMOJI.test(text);
  EMOJI.lastIndex = 0;
  return found;
}
