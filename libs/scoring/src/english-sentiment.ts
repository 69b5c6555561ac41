import { vaderCompound } from './vader';

/**
 * The compound (-1..1) of an English text whose emoji are already spelled out by replaceEmoji:
 * VADER's reference rules (see README).
 */
export function englishCompound(text: string): number {
  return vaderCompound(text);
}
