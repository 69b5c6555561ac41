import { Transform } from 'class-transformer';
import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { parseBucket, type Dimension } from '@analyst/contracts';
import { validateRequest } from '@analyst/platform';
import { declaredFields } from '../validation/nested-object.rules';
import { isTextArray, trimmedValues } from '../validation/rule-conditions';
import { postQueryOf } from '../posts/parse-post-query';
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

/**
 * A rule on a list of texts; its options' validateIf lets only lists of texts through (the rules
 * before it judged the type), so the guard here only narrows the value's type.
 */
const listRule = (
  name: string,
  validate: (values: string[]) => boolean,
  message: (property: string, values: string[]) => string,
  options: ValidationOptions,
): PropertyDecorator =>
  rule(
    name,
    (value) => !isTextArray(value) || validate(value),
    (args) => message(args.property, isTextArray(args.value) ? args.value : []),
    options,
  );

/** A rule on a text, let through by its options' validateIf, as listRule is for lists. */
const textRule = (
  name: string,
  validate: (text: string) => boolean,
  message: (property: string, text: string) => string,
  options: ValidationOptions,
): PropertyDecorator =>
  rule(
    name,
    (value) => typeof value !== 'string' || validate(value),
    (args) => message(args.property, typeof args.value === 'string' ? args.value : ''),
    options,
  );

/** A JSON list of strings. */
export const IsStringArray = (options?: ValidationOptions): PropertyDecorator =>
  rule('isStringArray', isTextArray, (args) => `${args.property} must be an array of strings`, options);

/** At most `max` values in the list (blank ones count: they were sent). */
export const HasAtMost = (max: number): PropertyDecorator =>
  listRule(
    'hasAtMost',
    (values) => values.length <= max,
    (property, values) => `${property} takes at most ${max} values, got ${values.length}`,
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
  listRule(
    'isBucketsOf',
    (values) => unknownBucket(dimension, values) === undefined,
    (property, values) =>
      `${property}: "${unknownBucket(dimension, values)}" is not a bucket key or label of ${dimension}`,
    { validateIf: within(max) },
  );

const longTerm = (values: string[]): string | undefined =>
  searchTerms(values).find((t) => t.length > TERM_MAX_LENGTH);

/** Each term at most TERM_MAX_LENGTH characters in NFC (a list of at most `max`). */
export const HasShortTerms = (max: number): PropertyDecorator =>
  listRule(
    'hasShortTerms',
    (values) => longTerm(values) === undefined,
    (property, values) =>
      `${property} terms are at most ${TERM_MAX_LENGTH} characters, got one of ${longTerm(values)?.length ?? 0}`,
    { validateIf: within(max) },
  );

/** Each value, trimmed, is one of `allowed` (a list of at most `max`). */
export const IsEachOneOf = (allowed: readonly string[], max: number): PropertyDecorator =>
  listRule(
    'isEachOneOf',
    (values) => trimmedValues(values).every((v) => allowed.includes(v)),
    (property, values) =>
      `${property}: "${trimmedValues(values).find((v) => !allowed.includes(v))}" is not one of ${allowed.join(', ')}`,
    { validateIf: within(max) },
  );

/** A list that names something once its blank values are left out (a list of at most `max`). */
export const NamesOne = (what: string, max: number): PropertyDecorator =>
  listRule(
    'namesOne',
    (values) => trimmedValues(values).length > 0,
    (property) => `${property} must name at least one ${what}`,
    { validateIf: within(max) },
  );

/** The other selection fields a `postIds` selection may not have. */
const combinedWithPostIds = (selection: object): boolean =>
  ('collectionId' in selection && selection.collectionId !== undefined) ||
  ('posts' in selection && selection.posts !== undefined);

/** `postIds` is a selection style of its own. */
export const IsAlone = (): PropertyDecorator =>
  rule(
    'isAlone',
    (_value, args) => !combinedWithPostIds(args!.object),
    (args) => `${args.property} cannot be combined with collectionId or posts`,
  );

/** The rules after IsAlone judge only a `postIds` selection that is alone. */
export const whenAlone: ValidationOptions = {
  validateIf: (selection: object) => !combinedWithPostIds(selection),
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

/** Post filters PostQueryDto's rules refused, and their words. */
class RefusedPostFilters {
  constructor(readonly refusal: string) {}
}

class PostFiltersRefused extends Error {}

/**
 * Post filters sent as JSON, read once: the post query GET /posts would run, or what
 * PostQueryDto's rules say of them. A value that is no object is left for the rule to refuse.
 */
function readPostFilters(value: unknown): unknown {
  if (!isPlainObject(value)) return value;
  const known = declaredFields(PostQueryDto);
  const unknown = Object.keys(value).find((k) => !known.has(k));
  if (unknown !== undefined) return new RefusedPostFilters(`unknown post filter "${unknown}"`);
  try {
    return postQueryOf(validateRequest(PostQueryDto, value, (message) => new PostFiltersRefused(message)));
  } catch (error) {
    if (error instanceof PostFiltersRefused) return new RefusedPostFilters(error.message);
    throw error;
  }
}

/**
 * Post filters as GET /posts takes them, checked by the same DTO (PostQueryDto) and read into its
 * PostQuery as the body is read, so the field holds the typed query once its rules accept it;
 * what they refuse is reported after this field's name: `selection.posts: min_score must be …`.
 */
export const IsPostFilters = (): PropertyDecorator => (target, property) =>
  [
    Transform(({ value }) => readPostFilters(value), { toClassOnly: true }),
    rule(
      'isPostFilters',
      (value) => isPlainObject(value) && !(value instanceof RefusedPostFilters),
      (args) =>
        args.value instanceof RefusedPostFilters
          ? `${args.property}: ${args.value.refusal}`
          : `${args.property} must be an object of post filters`,
    ),
  ].forEach((decorate) => decorate(target, property));

const isQueryText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A search query: some text, at most QUERY_MAX_LENGTH characters in NFC. */
export const IsSearchQuery = (): PropertyDecorator => (target, property) =>
  [
    rule('isSearchQuery', isQueryText, (args) => `${args.property} must be a non-empty string`),
    textRule(
      'isShortSearchQuery',
      (query) => searchQuery(query).length <= QUERY_MAX_LENGTH,
      (property, query) =>
        `${property} is at most ${QUERY_MAX_LENGTH} characters, got ${searchQuery(query).length}`,
      { validateIf: (_o: object, value: unknown) => isQueryText(value) },
    ),
  ].forEach((decorate) => decorate(target, property));

const isKeywordQuery = (search: { mode?: unknown }, value: unknown): boolean =>
  search.mode === 'keyword' && isQueryText(value) && searchQuery(value).length <= QUERY_MAX_LENGTH;

/** A keyword search's query is one term: at most TERM_MAX_LENGTH characters in NFC. */
export const IsOneTermInKeywordMode = (): PropertyDecorator =>
  textRule(
    'isOneTermInKeywordMode',
    (query) => searchQuery(query).length <= TERM_MAX_LENGTH,
    // Worded with the field's whole path, which the platform then keeps as it is.
    (_property, query) =>
      `a keyword search.query is one term of at most ${TERM_MAX_LENGTH} characters, got ${searchQuery(query).length}`,
    { validateIf: isKeywordQuery },
  );

/** The terms a keyword search adds to filters.keywords, or null when the search or filters are refused anyway. */
export function keywordsWithSearch(keywords: unknown, search: unknown): string[] | null {
  if (typeof search !== 'object' || search === null || !('mode' in search) || !('query' in search))
    return null;
  if (!isKeywordQuery(search, search.query) || typeof search.query !== 'string') return null;
  const query = searchQuery(search.query);
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
      const request = args!.object;
      const search = 'search' in request ? request.search : undefined;
      const given = typeof filters === 'object' && filters !== null && 'keywords' in filters;
      const keywords = keywordsWithSearch(given ? filters.keywords : undefined, search);
      return keywords === null || keywords.length <= TERMS_LIMIT;
    },
    (args) => `${args.property}.keywords with the search query exceed ${TERMS_LIMIT} terms`,
  );
