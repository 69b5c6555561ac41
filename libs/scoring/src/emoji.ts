import { emojiData } from './third-party';

// One emoji: a flag (two regional indicators), a keycap, or a pictograph with optional VS16 / skin
// tone, joined by ZWJ into sequences (👩‍💻, 🤦‍♂️). A lone skin-tone modifier counts too.
const EMOJI = /\p{Regional_Indicator}{2}|[#*0-9]\uFE0F?\u20E3|\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*|\p{Emoji_Modifier}/gu;
const VARIANTS = /\uFE0F|\p{Emoji_Modifier}/gu;

function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}

/** Short names keyed by the emoji with VS16 and skin tones removed, so 👍🏽 and ❤ find 👍 and ❤️. */
const NAMES = new Map<string, string>();
for (const [emoji, entry] of Object.entries(emojiData)) {
  const bare = emoji.replace(VARIANTS, '');
  if (!NAMES.has(bare)) NAMES.set(bare, entry.name);
  if (!NAMES.has(emoji)) NAMES.set(emoji, entry.name);
}
const cache = new Map<string, string>();

/** The CLDR short name of one emoji sequence; unknown ZWJ sequences fall back to their parts' names. */
export function emojiName(sequence: string): string | null {
  const cached = cache.get(sequence);
  if (cached !== undefined) return cached || null;
  let name = NAMES.get(sequence) ?? NAMES.get(sequence.replace(VARIANTS, '')) ?? null;
  if (name === null && sequence.includes('\u200D')) {
    const parts = sequence.split('\u200D').map((p) => NAMES.get(p.replace(VARIANTS, ''))).filter((p): p is string => !!p);
    name = parts.length ? parts.join(' ') : null;
  }
  cache.set(sequence, name ?? '');
  return name;
}

/**
 * Replaces every emoji with its short name, as the reference VADER does before scoring
 * ("I love it 😍" → "I love it smiling face with heart-eyes"). Emoji without a name are dropped.
 */
export function replaceEmoji(text: string): string {
  if (isAscii(text)) return text;
  return text.replace(EMOJI, (seq) => {
    const name = emojiName(seq);
    return name ? ` ${name} ` : ' ';
  });
}

export function hasEmoji(text: string): boolean {
  if (isAscii(text)) return false;
  EMOJI.lastIndex = 0;
  const found = EMOJI.test(text);
  EMOJI.lastIndex = 0;
  return found;
}
