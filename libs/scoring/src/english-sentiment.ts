import { englishFeatures, readsVaderAlone } from './english-features';
import { modelReading } from './sentiment-model/model';
import { TRAINED } from './sentiment-model/weights';

/** compoundToScore's neutral band on the compound scale (vader.ts KNOTS). */
const NEUTRAL_LOW = -0.075;
const NEUTRAL_HIGH = 0.35;

/**
 * The blend of VADER's compound and the trained model onto the compound scale, piecewise linear: the
 * blend values calibrated as the neutral band's edges land on -0.075 and 0.35, ±1 stays ±1.
 */
function blendToCompound(blend: number): number {
  const low = TRAINED.neutralLow;
  const high = TRAINED.neutralHigh;
  if (blend < low) return -1 + ((NEUTRAL_LOW + 1) * (blend + 1)) / (low + 1);
  if (blend < high) return NEUTRAL_LOW + ((NEUTRAL_HIGH - NEUTRAL_LOW) * (blend - low)) / (high - low);
  return NEUTRAL_HIGH + ((1 - NEUTRAL_HIGH) * (blend - high)) / (1 - high);
}

/**
 * The compound (-1..1) of an English text whose emoji are already spelled out by replaceEmoji: the
 * trained model (README "sentiment") blended with VADER's reference compound, which keeps the reading's
 * intensity. Three exceptions:
 * - at least half of the words are emoji: VADER's compound alone. The model learnt from Reddit comments
 *   and tweets, which hardly use emoji; the emoji valences (emoji-valences.ts) come from data that does.
 * - a word read as slang (slang.ts: "killed it", "this is sick", "goated", "mid"): VADER's compound alone.
 *   The model learnt those words in their older senses (killed, sick, fire) and outvoted the reviewed readings.
 * - no sentiment word and a blend in the neutral band: no sentiment at all (0), as before the model.
 */
export function englishCompound(text: string): number {
  const { compound, signal, slang, features } = englishFeatures(text);
  if (readsVaderAlone(features, slang)) return compound;
  const blend = TRAINED.blendWeight * compound + (1 - TRAINED.blendWeight) * modelReading(features);
  if (!signal && blend >= TRAINED.neutralLow && blend < TRAINED.neutralHigh) return 0;
  const c = blendToCompound(blend);
  return c < -1 ? -1 : c > 1 ? 1 : c;
}
