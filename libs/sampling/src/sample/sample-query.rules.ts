import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { BUCKET_KEYS, EMOTIONS, isEmotion, parseBucket, type Dimension } from '@analyst/contracts';
import type { SamplingErrorCode } from '../errors/sampling-error';

// The sample query's own class-validator rules. A refusal's code is the `context.code` of the
// first broken rule (parse-sample-query.ts); a rule without one answers invalid_filter.

/** A rule's options saying which code its refusal carries. */
export const refusedAs = (code: SamplingErrorCode): ValidationOptions => ({ context: { code } });

/** For a parameter's value rules: a repeated parameter is IsGivenOnce's to word, not theirs. */
export const whenGivenOnce: ValidationOptions = {
  validateIf: (_query: object, value: unknown) => !Array.isArray(value),
};

/** A parameter that takes one value (`?limit=5&limit=6` is refused). */
export function IsGivenOnce(): PropertyDecorator {
  return ValidateBy({
    name: 'isGivenOnce',
    validator: {
      validate: (value: unknown) => !Array.isArray(value),
      defaultMessage: (args?: ValidationArguments) => {
        const values: unknown = args?.value;
        return `${args?.property} takes one value, got ${Array.isArray(values) ? values.length : 1}`;
      },
    },
  });
}

/** The values of a bucket parameter: comma-separated, repeated, or both, each trimmed. */
export function bucketValues(raw: unknown): string[] {
  return (Array.isArray(raw) ? raw : [raw]).flatMap((v) => String(v).split(',')).map((v) => v.trim());
}

const bucketOf = (dimension: Dimension, value: string) =>
  value === '' ? null : parseBucket(dimension, value);

/** What else than a key names a bucket of `dimension`, for the refusal. */
function labelHint(dimension: Dimension): string {
  if (dimension === 'relevance') return ' or on_topic, relevant, general, off_topic';
  if (dimension === 'consensus') return ' or agreeing, discussing, debating, fighting';
  if (dimension === 'content') return ' or Supportive, Receptive, Split, Skeptical, Opposed';
  if (dimension === 'topic') return ' or Enthusiastic, Favorable, Mixed, Critical, Hostile';
  return '';
}

/** Every value of the parameter is a bucket key or a label of `dimension`; the message names the first that is not. */
export function IsBucketsOf(dimension: Dimension): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBucketsOf',
      constraints: [dimension],
      validator: {
        validate: (value: unknown) => bucketValues(value).every((v) => bucketOf(dimension, v) !== null),
        defaultMessage: (args?: ValidationArguments) => {
          const value = bucketValues(args?.value).find((v) => bucketOf(dimension, v) === null);
          return `${dimension}: "${value}" is not a bucket of ${dimension}; use ${BUCKET_KEYS.join(', ')}${labelHint(dimension)}`;
        },
      },
    },
    refusedAs('invalid_bucket'),
  );
}

/**
 * Every value of the `emotion` parameter (comma-separated, repeated, or both) is one of the seven
 * emotion names; the message names the first that is not. An extension of the spec, refused as any
 * invalid filter value is (invalid_filter).
 */
export function IsEmotions(): PropertyDecorator {
  return ValidateBy({
    name: 'isEmotions',
    validator: {
      validate: (value: unknown) => bucketValues(value).every(isEmotion),
      defaultMessage: (args?: ValidationArguments) => {
        const value = bucketValues(args?.value).find((v) => !isEmotion(v));
        return `emotion: "${value}" is not an emotion; use ${EMOTIONS.join(', ')}`;
      },
    },
  });
}
