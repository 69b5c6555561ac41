import { Allow, IsIn, IsOptional } from 'class-validator';
import type { PostStatusScope } from '@analyst/domain-analysis';
import { IsQueryNumber } from '@analyst/platform';
import { IsPageLimit } from '../validation/page-limit.rules';
import { isText, onlyWhen } from '../validation/rule-conditions';
import {
  AsOneText,
  AsTextList,
  IsCalendarDate,
  IsOneText,
  IsTextList,
} from '../validation/query-value.rules';
import { IsNotAfter, IsNotGreaterThan, IsPlatformList } from './post-query.rules';

export const POST_STATUSES = ['complete', 'pending', 'all'] as const;

/** One value: a text, or a number, or a one-element list of either (JSON sends those too). */
const OneValue = (): PropertyDecorator => (target, property) =>
  [IsOptional(), AsOneText(), IsOneText()].forEach((decorate) => decorate(target, property));

/** A list: comma-separated, repeated, or a JSON list of texts. */
const ListValue = (): PropertyDecorator => (target, property) =>
  [IsOptional(), AsTextList(), IsTextList()].forEach((decorate) => decorate(target, property));

const DateValue = (): PropertyDecorator => (target, property) =>
  [OneValue(), IsCalendarDate(onlyWhen(isText))].forEach((decorate) => decorate(target, property));

const Score = (): PropertyDecorator => (target, property) =>
  [OneValue(), IsQueryNumber(1, 10, onlyWhen(isText))].forEach((decorate) => decorate(target, property));

const Percent = (): PropertyDecorator => (target, property) =>
  [OneValue(), IsQueryNumber(0, 100, onlyWhen(isText))].forEach((decorate) => decorate(target, property));

/**
 * The post filters of GET /posts, GET /collections/{id}/posts and `selection.posts`, as sent (the
 * properties are the parameter names). The `min_<bucket>_percent` / `max_<bucket>_percent` pairs
 * are one per BUCKET_KEYS entry (test/post-query.dto.unit.spec.ts keeps them in step).
 */
export class PostQueryDto {
  @OneValue()
  @IsIn(POST_STATUSES, {
    ...onlyWhen(isText),
    message: ({ value }) => `status must be complete, pending or all, got "${String(value)}"`,
  })
  status?: PostStatusScope;

  @ListValue()
  link?: string[];

  @ListValue()
  account?: string[];

  @ListValue()
  @IsPlatformList()
  platform?: string[];

  @ListValue()
  tag?: string[];

  @DateValue()
  @IsNotAfter('posted_until')
  posted_since?: string;

  @DateValue()
  posted_until?: string;

  @DateValue()
  updated_since?: string;

  @Score()
  @IsNotGreaterThan('max_score', 1, 10)
  min_score?: string;

  @Score()
  max_score?: string;

  @Percent()
  @IsNotGreaterThan('max_positive_percent', 0, 100)
  min_positive_percent?: string;

  @Percent()
  max_positive_percent?: string;

  @Percent()
  @IsNotGreaterThan('max_lean_positive_percent', 0, 100)
  min_lean_positive_percent?: string;

  @Percent()
  max_lean_positive_percent?: string;

  @Percent()
  @IsNotGreaterThan('max_neutral_percent', 0, 100)
  min_neutral_percent?: string;

  @Percent()
  max_neutral_percent?: string;

  @Percent()
  @IsNotGreaterThan('max_lean_negative_percent', 0, 100)
  min_lean_negative_percent?: string;

  @Percent()
  max_lean_negative_percent?: string;

  @Percent()
  @IsNotGreaterThan('max_negative_percent', 0, 100)
  min_negative_percent?: string;

  @Percent()
  max_negative_percent?: string;

  @OneValue()
  collection_id?: string;
}

/** GET /posts and GET /collections/{id}/posts: the filters, and a page of them. */
export class PostPageQueryDto extends PostQueryDto {
  @IsPageLimit()
  limit?: string;

  /** Checked where it is opened (post-cursor.ts): a bad one is invalid_cursor, not invalid_filter. */
  @Allow()
  cursor?: unknown;

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;
}
