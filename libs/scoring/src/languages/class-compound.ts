// A head's class probabilities on the compound scale of compoundToScore (vader.ts), so the v1 buckets
// follow the head's decision: positive lands at 0.36 or above (lean_positive from 0.35, positive from
// 0.5), negative at -0.08 or below, neutral inside the band -0.075 .. 0.35. How far into its bucket a
// reading goes grows with the winning class's probability; a neutral reading leans by the balance
// of the other two.

const POSITIVE_FLOOR = 0.36;
const NEGATIVE_CEILING = -0.08;
const NEUTRAL_UP = 0.34;
const NEUTRAL_DOWN = 0.07;

/** The compound (-1..1) of probabilities [negative, neutral, positive]. */
export function classCompound([negative, neutral, positive]: readonly number[]): number {
  if (positive > negative && positive >= neutral) {
    const strength = (positive - 1 / 3) * 1.5;
    return POSITIVE_FLOOR + (1 - POSITIVE_FLOOR) * Math.min(1, Math.max(0, strength));
  }
  if (negative >= positive && negative > neutral) {
    const strength = (negative - 1 / 3) * 1.5;
    return NEGATIVE_CEILING - (1 + NEGATIVE_CEILING) * Math.min(1, Math.max(0, strength));
  }
  const lean = positive - negative;
  return lean >= 0 ? NEUTRAL_UP * lean : NEUTRAL_DOWN * lean;
}
