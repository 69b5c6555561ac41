import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { parseBucket, type Dimension } from '@analyst/contracts';
import { validateRequest } from '@analyst/platform';
import { declaredFields } from '../validation/nested-object.rules';
import { isTextArray, trimmedValues } from '../validation/rule-conditions';
import { PostQueryDto } from '../posts/post-query.dto';

// The rules of a POST /analyses body beyond class-validator's own, each worded as the body's
// parser always worded it. Each judges only what the rules before it on its field accepted.

/** Longest keyword or username term, and longest search query, in characters (after NFC). */
export const TERM_MAX_LENGTH = 100;
export const QUERY_MAX_LENGTH = 500;
export const TERMS_LIMIT = 50;

/** Search terms in NFC, so "vídeo" typed with a combining accent finds comments that store it precomposed. */
export const searchTerms = (values: readonly string[]): string[] =>
  trimmedValues(values).map((t) => t.normalize('NFC'));

/** A search query as it is matched: trimmed, in NFC. */
export const searchQuery = (query: string): string => query.trim().normalize('NFC');

const rule = (
  name: string,
  validate: (value: unknown, args?: ValidationArguments) => boolean,
  message: (args: ValidationArguments) => string,
  options?: ValidationOptions,
): PropertyDecorator =>
  ValidateBy({ name, validator: { validate, defaultMessage: (args) => message(args!) } }, options);

/** A JSON list of strings. */
export const IsStringArray = (options?: ValidationOptions): PropertyDecorator =>
  rule('isStringArray', isTextArray, (args) => `${args.property} must be an array of strings`, options);

/** At most `max` values in the list (blank ones count: they were sent). */
export const HasAtMost = (max: number): PropertyDecorator =>
  rule(
    'hasAtMost',
    (value) => (value as unknown[]).length <= max,
    (args) => `${args.property} takes at most ${max} values, got ${(args.value as unknown[]).length}`,
    { validateIf: (_o: object, value: unknown) => isTextArray(value) },
  );

const within = (max: number) => (_o: object, value: unknown) => isTextArray(value) && value.length <= max;

/** A list of at most `max` strings: the type first, then the count. */
export const IsStringList =
  (max: number): PropertyDecorator =>
  (target, property) =>
    [IsStringArray(), HasAtMost(max)].forEach((decorate) => decorate(target, property));

const unknownBucket = (dimension: Dimension, values: string[]): string | undefined =>
  trimmedValues(values).find((v) => parseBucket(dimension, v) === null);

/** Every value is a bucket key or a label of `dimension` (a list of at most `max`). */
export const IsBucketsOf = (dimension: Dimension, max: number): PropertyDecorator =>
  rule(
    'isBucketsOf',
    (value) => unknownBucket(dimension, value as string[]) === undefined,
    (args) =>
      `${args.property}: "${unknownBucket(dimension, args.value as string[])}" is not a bucket key or label of ${dimension}`,
    { validateIf: within(max) },
  );

const longTerm = (values: string[]): string | undefined =>
  searchTerms(values).find((t) => t.length > TERM_MAX_LENGTH);

/** Each term at most TERM_MAX_LENGTH characters in NFC (a list of at most `max`). */
export const HasShortTerms = (max: number): PropertyDecorator =>
  rule(
    'hasShortTerms',
    (value) => longTerm(value as string[]) === undefined,
    (args) =>
      `${args.property} terms are at most ${TERM_MAX_LENGTH} characters, got one of ${longTerm(args.value as string[])!.length}`,
    { validateIf: within(max) },
  );

/** Each value, trimmed, is one of `allowed` (a list of at most `max`). */
export const IsEachOneOf = (allowed: readonly string[], max: number): PropertyDecorator =>
  rule(
    'isEachOneOf',
    (value) => trimmedValues(value as string[]).every((v) => allowed.includes(v)),
    (args) =>
      `${args.property}: "${trimmedValues(args.value as string[]).find((v) => !allowed.includes(v))}" is not one of ${allowed.join(', ')}`,
    { validateIf: within(max) },
  );

/** A list that names something once its blank values are left out (a list of at most `max`). */
export const NamesOne = (what: string, max: number): PropertyDecorator =>
  rule(
    'namesOne',
    (value) => trimmedValues(value as string[]).length > 0,
    (args) => `${args.property} must name at least one ${what}`,
    { validateIf: within(max) },
  );

/** The other selection fields a `postIds` selection may not have. */
const combinedWithPostIds = (selection: Record<string, unknown>): boolean =>
  selection.collectionId !== undefined || selection.posts !== undefined;

/** `postIds` is a selection style of its own. */
export const IsAlone = (): PropertyDecorator =>
  rule(
    'isAlone',
    (_value, args) => !combinedWithPostIds(args!.object as Record<string, unknown>),
    (args) => `${args.property} cannot be combined with collectionId or posts`,
  );

/** The rules after IsAlone judge only a `postIds` selection that is alone. */
export const whenAlone: ValidationOptions = {
  validateIf: (selection: Record<string, unknown>) => !combinedWithPostIds(selection),
};

/** A non-empty id. */
export const IsId = (what: string): PropertyDecorator =>
  rule(
    'isId',
    (value) => typeof value === 'string' && value !== '',
    (args) => `${args.property} must be ${what}`,
  );

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** What PostQueryDto's rules say of post filters sent as JSON, or null when they accept them. */
function postFiltersRefusal(value: Record<string, unknown>): string | null {
  const known = declaredFields(PostQueryDto);
  const unknown = Object.keys(value).find((k) => !known.has(k));
  if (unknown !== undefined) return `unknown post filter "${unknown}"`;
  try {
    validateRequest(PostQueryDto, value, (message) => new PostFiltersRefused(message));
    return null;
  } catch (error) {
    if (error instanceof PostFiltersRefused) return error.message;
    throw error;
  }
}

class PostFiltersRefused extends Error {}

/**
 * Post filters as GET /posts takes them, checked by the same DTO (PostQueryDto); what its rules
 * refuse is reported after this field's name: `selection.posts: min_score must be …`.
 */
export const IsPostFilters = (): PropertyDecorator =>
  rule(
    'isPostFilters',
    (value) => isPlainObject(value) && postFiltersRefusal(value) === null,
    (args) =>
      isPlainObject(args.value)
        ? `${args.property}: ${postFiltersRefusal(args.value)}`
        : `${args.property} must be an object of post filters`,
  );

const isQueryText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A search query: some text, at most QUERY_MAX_LENGTH characters in NFC. */
export const IsSearchQuery = (): PropertyDecorator => (target, property) =>
  [
    rule('isSearchQuery', isQueryText, (args) => `${args.property} must be a non-empty string`),
    rule(
      'isShortSearchQuery',
      (value) => searchQuery(value as string).length <= QUERY_MAX_LENGTH,
      (args) =>
        `${args.property} is at most ${QUERY_MAX_LENGTH} characters, got ${searchQuery(args.value as string).length}`,
      { validateIf: (_o: object, value: unknown) => isQueryText(value) },
    ),
  ].forEach((decorate) => decorate(target, property));

const isKeywordQuery = (search: { mode?: unknown }, value: unknown): boolean =>
  search.mode === 'keyword' && isQueryText(value) && searchQuery(value).length <= QUERY_MAX_LENGTH;

/** A keyword search's query is one term: at most TERM_MAX_LENGTH characters in NFC. */
export const IsOneTermInKeywordMode = (): PropertyDecorator =>
  rule(
    'isOneTermInKeywordMode',
    (value) => searchQuery(value as string).length <= TERM_MAX_LENGTH,
    (args) =>
      `${args.property} of a keyword search is one term of at most ${TERM_MAX_LENGTH} characters, got ${searchQuery(args.value as string).length}`,
    { validateIf: isKeywordQuery },
  );

/** The terms a keyword search adds to filters.keywords, or null when the search or filters are refused anyway. */
export function keywordsWithSearch(
  keywords: unknown,
  search: { mode?: unknown; query?: unknown } | null | undefined,
): string[] | null {
  if (!search || search.mode !== 'keyword' || !isKeywordQuery(search, search.query)) return null;
  const query = searchQuery(search.query as string);
  if (query.length > TERM_MAX_LENGTH) return null;
  if (keywords === undefined) return [query];
  if (!isTextArray(keywords) || keywords.length > TERMS_LIMIT || longTerm(keywords)) return null;
  return [...new Set([...searchTerms(keywords), query])];
}

/** A keyword search's query joins filters.keywords, which must still hold at most TERMS_LIMIT terms. */
export const LeavesRoomForKeywordSearch = (): PropertyDecorator =>
  rule(
    'leavesRoomForKeywordSearch',
    (filters, args) => {
      const search = (args!.object as { search?: { mode?: unknown; query?: unknown } }).search;
      const keywords = keywordsWithSearch((filters as { keywords?: unknown }).keywords, search);
      return keywords === null || keywords.length <= TERMS_LIMIT;
    },
    (args) => `${args.property}.keywords with the search query exceed ${TERMS_LIMIT} terms`,
  );
