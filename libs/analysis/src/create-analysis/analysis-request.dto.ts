import { plainToInstance, Transform } from 'class-transformer';
import {
  Allow,
  getMetadataStorage,
  IsIn,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  ValidateBy,
  ValidateIf,
  ValidateNested,
  type ValidationArguments,
  type ValidationOptions,
} from 'class-validator';
import { ANALYSIS_INCLUDES, parseBucket, type Dimension } from '@analyst/contracts';
import type { Presence } from '@analyst/domain-analysis';
import { validateRequest } from '@analyst/platform';
import { postQueryOf, type PostQuery } from '../posts/post-query';
import { PostQueryDto } from '../posts/post-query.dto';
import { IsNotAbove } from '../validation/bound-order.rules';
import { calendarInstant, IsCalendarDate } from '../validation/calendar-date.rules';
import { refusedAs } from '../validation/refusal';
import { isText, onlyWhen } from '../validation/rule-conditions';

// The body of POST /analyses: its shape (AnalysisRequestDto and the objects it holds) and its rules,
// each worded as the body's parser always worded it. The rules of one field are exclusive: each
// judges only what the rules before it accepted (IsGiven, and onlyWhen of rule-conditions.ts).
// Read top down: the rules of any field, then selection, filters and search each with their own,
// then the body. analysis-request.ts reads what these rules accept into an AnalysisRequest.

export const MAX_SELECTION = 1000;
/** Longest keyword or username term, and longest search query, in characters (after NFC). */
export const TERM_MAX_LENGTH = 100;
export const QUERY_MAX_LENGTH = 500;
const TERMS_LIMIT = 50;
const BUCKETS_LIMIT = 10;
const PRESENCES = ['include', 'exclude', 'only'] as const;

const isTextArray = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** The trimmed, non-empty values of a list of texts (blank ones are left out, not refused). */
export const trimmedValues = (values: readonly string[]): string[] =>
  values.map((v) => v.trim()).filter((v) => v.length > 0);

/** Search terms in NFC, so "vídeo" typed with a combining accent finds comments that store it precomposed. */
export const searchTerms = (values: readonly string[]): string[] =>
  trimmedValues(values).map((t) => t.normalize('NFC'));

/** A search query as it is matched: trimmed, in NFC. */
export const searchQuery = (query: string): string => query.trim().normalize('NFC');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

// Rules of any field.

/** A field that is present: a missing field is skipped, `null` is judged like any other value. */
const IsGiven = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== undefined);

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
const IsStringArray = (options?: ValidationOptions): PropertyDecorator =>
  rule('isStringArray', isTextArray, (args) => `${args.property} must be an array of strings`, options);

/** At most `max` values in the list (blank ones count: they were sent). */
const HasAtMost = (max: number): PropertyDecorator =>
  listRule(
    'hasAtMost',
    (values) => values.length <= max,
    (property, values) => `${property} takes at most ${max} values, got ${values.length}`,
    { validateIf: (_o: object, value: unknown) => isTextArray(value) },
  );

const within = (max: number) => (_o: object, value: unknown) => isTextArray(value) && value.length <= max;

/** A list of at most `max` strings: the type first, then the count. */
const IsStringList =
  (max: number): PropertyDecorator =>
  (target, property) =>
    [IsStringArray(), HasAtMost(max)].forEach((decorate) => decorate(target, property));

/** Each value, trimmed, is one of `allowed` (a list of at most `max`). */
const IsEachOneOf = (allowed: readonly string[], max: number): PropertyDecorator =>
  listRule(
    'isEachOneOf',
    (values) => trimmedValues(values).every((v) => allowed.includes(v)),
    (property, values) =>
      `${property}: "${trimmedValues(values).find((v) => !allowed.includes(v))}" is not one of ${allowed.join(', ')}`,
    { validateIf: within(max) },
  );

/**
 * A nested field that could not be read as its DTO, and why. ValidateNested finds nothing to say
 * about it (its one field is allowed), so the refusal is IsObjectOf's alone.
 */
class UnreadObject {
  @Allow()
  readonly refusal: string;

  constructor(refusal: string) {
    this.refusal = refusal;
  }
}

/** The fields a DTO declares (every one carries a rule, or `@Allow()`). */
export function declaredFields(dto: new () => object): ReadonlySet<string> {
  return new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(dto, '', true, false)
      .map((m) => m.propertyName),
  );
}

interface NestedObjectWording {
  /** The refusal of a value that is not a JSON object (or is missing, for a required field). */
  notAnObject: string;
  /** The refusal of a field the DTO does not declare, worded by the route. */
  unknownField: (name: string) => string;
  /** A missing or null field is no object at all, and not refused. */
  optional?: boolean;
}

function readAs(dto: new () => object, value: unknown, wording: NestedObjectWording): unknown {
  if (value === undefined || (value === null && wording.optional)) return value;
  if (!isPlainObject(value)) return new UnreadObject(wording.notAnObject);
  const fields = declaredFields(dto);
  const unknown = Object.keys(value).filter((k) => !fields.has(k));
  if (unknown.length > 0) return new UnreadObject(unknown.map(wording.unknownField).join('; '));
  return plainToInstance(dto, value);
}

/**
 * A JSON object read as `dto` and checked by its rules (ValidateNested: messages name the path,
 * `selection.postIds must be …`). Not an object, or holding a field `dto` does not declare, it is
 * refused in the route's own words rather than the whitelist's "property x should not exist",
 * and its fields are not judged further (as the hand-written parsers stopped there).
 */
function IsObjectOf(dto: new () => object, wording: NestedObjectWording): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    Transform(({ value }) => readAs(dto, value, wording), { toClassOnly: true }),
    ValidateBy({
      name: 'isObjectOf',
      validator: {
        validate: (value: unknown) => value !== undefined && !(value instanceof UnreadObject),
        defaultMessage: (args?: ValidationArguments) =>
          args?.value instanceof UnreadObject ? args.value.refusal : wording.notAnObject,
      },
    }),
    ValidateNested(),
  ];
  if (wording.optional) decorators.unshift(ValidateIf((_o: object, value: unknown) => value != null));
  return (target, property) => decorators.forEach((decorate) => decorate(target, property));
}

// `selection`: its rules, then SelectionDto.

/** A non-empty id. */
const IsId = (what: string): PropertyDecorator =>
  rule(
    'isId',
    (value) => typeof value === 'string' && value !== '',
    (args) => `${args.property} must be ${what}`,
  );

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
const IsPostFilters = (): PropertyDecorator => (target, property) =>
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

/** The other selection fields a `postIds` selection may not have. */
const combinedWithPostIds = (selection: object): boolean =>
  ('collectionId' in selection && selection.collectionId !== undefined) ||
  ('posts' in selection && selection.posts !== undefined);

/** `postIds` is a selection style of its own. */
const IsAlone = (): PropertyDecorator =>
  rule(
    'isAlone',
    (_value, args) => !combinedWithPostIds(args!.object),
    (args) => `${args.property} cannot be combined with collectionId or posts`,
  );

/** The rules after IsAlone judge only a `postIds` selection that is alone. */
const whenAlone: ValidationOptions = {
  validateIf: (selection: object) => !combinedWithPostIds(selection),
};

/** A list that names something once its blank values are left out (a list of at most `max`). */
const NamesOne = (what: string, max: number): PropertyDecorator =>
  listRule(
    'namesOne',
    (values) => trimmedValues(values).length > 0,
    (property) => `${property} must name at least one ${what}`,
    { validateIf: within(max) },
  );

/** `selection`: exactly one style, { collectionId }, { posts }, { collectionId, posts } or { postIds }. */
export class SelectionDto {
  @IsGiven()
  @IsId('a collection id')
  collectionId?: string;

  /** Post filters as GET /posts takes them, read into the post query those routes run. */
  @IsGiven()
  @IsPostFilters()
  posts?: PostQuery;

  @IsGiven()
  @IsAlone()
  @IsStringArray(whenAlone)
  @HasAtMost(MAX_SELECTION)
  @NamesOne('post', MAX_SELECTION)
  postIds?: string[];
}

const hasSelectionStyle = (selection: unknown): boolean =>
  !(selection instanceof SelectionDto) ||
  [selection.collectionId, selection.posts, selection.postIds].some((v) => v !== undefined);

// `filters`: their rules, then CommentFiltersDto.

const unknownBucket = (dimension: Dimension, values: string[]): string | undefined =>
  trimmedValues(values).find((v) => parseBucket(dimension, v) === null);

/** Every value is a bucket key or a label of `dimension` (a list of at most `max`). */
const IsBucketsOf = (dimension: Dimension, max: number): PropertyDecorator =>
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
const HasShortTerms = (max: number): PropertyDecorator =>
  listRule(
    'hasShortTerms',
    (values) => longTerm(values) === undefined,
    (property, values) =>
      `${property} terms are at most ${TERM_MAX_LENGTH} characters, got one of ${longTerm(values)?.length ?? 0}`,
    { validateIf: within(max) },
  );

/** A dimension's buckets: keys or labels, a list or a comma-separated string. */
const Buckets =
  (dimension: Dimension): PropertyDecorator =>
  (target, property) =>
    [
      IsGiven(),
      Transform(({ value }) => (typeof value === 'string' ? value.split(',') : value), { toClassOnly: true }),
      IsStringList(BUCKETS_LIMIT),
      IsBucketsOf(dimension, BUCKETS_LIMIT),
    ].forEach((decorate) => decorate(target, property));

/** Keyword or username terms. */
const Terms = (): PropertyDecorator => (target, property) =>
  [IsGiven(), IsStringList(TERMS_LIMIT), HasShortTerms(TERMS_LIMIT)].forEach((decorate) =>
    decorate(target, property),
  );

const IsPresence = (): PropertyDecorator => (target, property) =>
  [
    IsGiven(),
    IsIn(PRESENCES, { message: ({ property: p }) => `${p} must be include, exclude or only` }),
  ].forEach((decorate) => decorate(target, property));

/** A comment date: an ISO 8601 date or timestamp the calendar has. */
const CommentDate = (): PropertyDecorator => (target, property) =>
  [
    IsGiven(),
    IsString({ message: ({ property: p }) => `${p} must be an ISO 8601 date or timestamp` }),
    // invalid_filter, as the post filters' dates: the one date rule of both, and its code.
    IsCalendarDate(onlyWhen(isText, refusedAs('invalid_filter'))),
  ].forEach((decorate) => decorate(target, property));

const MIN_LIKES = 'minLikes must be a number of at least 0';

/** `filters`: which comments of the selected posts are analysed. */
export class CommentFiltersDto {
  @Buckets('sentiment')
  sentiment?: string[];

  @Buckets('content')
  content?: string[];

  @Buckets('topic')
  topic?: string[];

  @Buckets('relevance')
  relevance?: string[];

  @Buckets('consensus')
  consensus?: string[];

  @Terms()
  keywords?: string[];

  @IsGiven()
  @IsIn(['any', 'all'], { message: 'keywordMatch must be any or all' })
  keywordMatch?: 'any' | 'all';

  @Terms()
  excludeKeywords?: string[];

  @Terms()
  usernames?: string[];

  @Terms()
  excludeUsernames?: string[];

  @IsPresence()
  creator?: Presence;

  @IsPresence()
  replies?: Presence;

  @IsPresence()
  questions?: Presence;

  @IsPresence()
  mentions?: Presence;

  @IsPresence()
  emoji?: Presence;

  @IsGiven()
  @IsNumber({}, { message: MIN_LIKES })
  @Min(0, onlyWhen(Number.isFinite, { message: MIN_LIKES }))
  minLikes?: number;

  @CommentDate()
  @IsNotAbove(
    'until',
    (value, field) => calendarInstant(value, field === 'until' ? 'end' : 'start'),
    () => 'since must not be after filters.until',
  )
  since?: string;

  @CommentDate()
  until?: string;
}

// `search`: its rules, then SearchDto.

const isQueryText = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

/** A search query: some text, at most QUERY_MAX_LENGTH characters in NFC. */
const IsSearchQuery = (): PropertyDecorator => (target, property) =>
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
const IsOneTermInKeywordMode = (): PropertyDecorator =>
  textRule(
    'isOneTermInKeywordMode',
    (query) => searchQuery(query).length <= TERM_MAX_LENGTH,
    // Worded with the field's whole path, which the platform then keeps as it is.
    (_property, query) =>
      `a keyword search.query is one term of at most ${TERM_MAX_LENGTH} characters, got ${searchQuery(query).length}`,
    { validateIf: isKeywordQuery },
  );

const MIN_RELEVANCE = 'minRelevance must be a number from 0 to 1';

/** `search`: comments matching a query, by meaning (ai) or as one keyword term. */
export class SearchDto {
  @IsSearchQuery()
  @IsOneTermInKeywordMode()
  query!: string;

  @IsOptional()
  @IsIn(['ai', 'keyword'], { message: 'mode must be ai or keyword' })
  mode?: 'ai' | 'keyword';

  @IsOptional()
  @IsNumber({}, { message: MIN_RELEVANCE })
  @Min(0, onlyWhen(Number.isFinite, { message: MIN_RELEVANCE }))
  @Max(1, onlyWhen(Number.isFinite, { message: MIN_RELEVANCE }))
  minRelevance?: number;
}

// The body: the rule across its fields, then AnalysisRequestDto.

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
const LeavesRoomForKeywordSearch = (): PropertyDecorator =>
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

/** The body of POST /analyses (analysis-request.ts reads it into an AnalysisRequest once these rules accept it). */
export class AnalysisRequestDto {
  @IsObjectOf(SelectionDto, {
    notAnObject: 'selection is required: { collectionId }, { posts }, { collectionId, posts } or { postIds }',
    unknownField: (name) => `selection.${name} is not a selection field`,
  })
  @ValidateBy({
    name: 'hasSelectionStyle',
    validator: {
      validate: hasSelectionStyle,
      defaultMessage: () =>
        'selection needs exactly one style: collectionId, posts, collectionId + posts, or postIds',
    },
  })
  selection!: SelectionDto;

  @IsObjectOf(CommentFiltersDto, {
    notAnObject: 'filters must be an object',
    unknownField: (name) => `filters.${name} is not a comment filter`,
    optional: true,
  })
  @LeavesRoomForKeywordSearch()
  filters?: CommentFiltersDto | null;

  @IsObjectOf(SearchDto, {
    notAnObject: 'search must be an object with query, mode and minRelevance',
    unknownField: (name) => `search.${name} is not a search field`,
    optional: true,
  })
  search?: SearchDto | null;

  @IsGiven()
  @IsStringList(ANALYSIS_INCLUDES.length)
  @IsEachOneOf(ANALYSIS_INCLUDES, ANALYSIS_INCLUDES.length)
  include?: string[];

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;
}
