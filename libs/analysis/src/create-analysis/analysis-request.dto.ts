import { Transform } from 'class-transformer';
import { Allow, IsIn, IsNumber, IsOptional, IsString, Max, Min, ValidateBy } from 'class-validator';
import { ANALYSIS_INCLUDES } from '@analyst/contracts';
import type { Presence } from '@analyst/domain-analysis';
import type { PostQuery } from '../posts/post-query';
import { IsObjectOf } from '../validation/nested-object.rules';
import { calendarInstant, IsCalendarDate } from '../validation/query-value.rules';
import { refusedAs } from '../validation/refusal';
import { IsGiven, isText, onlyWhen } from '../validation/rule-conditions';
import { IsNotAbove } from '../validation/bound-order.rules';
import {
  HasShortTerms,
  IsAlone,
  IsBucketsOf,
  IsEachOneOf,
  IsId,
  IsOneTermInKeywordMode,
  IsPostFilters,
  IsSearchQuery,
  IsStringArray,
  IsStringList,
  HasAtMost,
  LeavesRoomForKeywordSearch,
  NamesOne,
  TERMS_LIMIT,
  whenAlone,
} from './analysis-request.rules';

export const MAX_SELECTION = 1000;
const BUCKETS_LIMIT = 10;
const PRESENCES = ['include', 'exclude', 'only'] as const;

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

/** A dimension's buckets: keys or labels, a list or a comma-separated string. */
const Buckets =
  (dimension: Parameters<typeof IsBucketsOf>[0]): PropertyDecorator =>
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
