import { Transform } from 'class-transformer';
import { Allow, IsIn, IsOptional, ValidateBy, type ValidationArguments } from 'class-validator';
import { PLATFORMS } from '@analyst/contracts';
import type { PostStatusScope } from '@analyst/domain-analysis';
import { acceptedQueryNumber, IsQueryNumber } from '@analyst/platform';
import { IsNotAbove } from '../validation/bound-order.rules';
import { calendarInstant, IsCalendarDate } from '../validation/calendar-date.rules';
import { IsPageLimit } from '../validation/page-limit.rules';
import { isText, onlyWhen } from '../validation/rule-conditions';

// The post filters as sent, and their rules. They come as a query string, where a parameter may
// be repeated (an array), and as JSON (`selection.posts`), which may send a number or a
// one-element list for one value. post-query.ts reads what these rules accept (postQueryOf).

export const POST_STATUSES = ['complete', 'pending', 'all'] as const;

const isScalar = (value: unknown): value is string | number =>
  typeof value === 'string' || typeof value === 'number';

const isTextList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** One value as text: `["5"]` and `5` read as "5"; anything else is left for IsOneText to refuse. */
const AsOneText = (): PropertyDecorator =>
  Transform(
    ({ value }) => {
      if (Array.isArray(value) && value.length === 1 && isScalar(value[0])) return String(value[0]);
      return typeof value === 'number' ? String(value) : value;
    },
    { toClassOnly: true },
  );

/** A parameter that takes one text value (after AsOneText). */
const IsOneText = (): PropertyDecorator =>
  ValidateBy({
    name: 'isOneText',
    validator: {
      validate: (value: unknown) => typeof value === 'string',
      defaultMessage: (args?: ValidationArguments) =>
        Array.isArray(args?.value) && args.value.length !== 1
          ? `${args.property} takes one value`
          : `${args?.property} must be a string`,
    },
  });

/** A list: comma-separated, repeated, or both, read as its trimmed non-empty values. */
const AsTextList = (): PropertyDecorator =>
  Transform(
    ({ value }) => {
      const items: unknown = Array.isArray(value) ? value : [value];
      if (!isTextList(items)) return value;
      return items
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter((v) => v.length > 0);
    },
    { toClassOnly: true },
  );

/** A list of texts (after AsTextList). */
const IsTextList = (): PropertyDecorator =>
  ValidateBy({
    name: 'isTextList',
    validator: {
      validate: isTextList,
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property} must be a string or a list of strings`,
    },
  });

const KNOWN_PLATFORMS: ReadonlySet<string> = new Set(PLATFORMS);

const unknownPlatform = (values: string[]): string | undefined =>
  values.map((p) => p.toLowerCase()).find((p) => !KNOWN_PLATFORMS.has(p));

/**
 * Every value names a platform, in any case. It judges only a list of texts: anything else is
 * IsTextList's to refuse (a JSON `[1]` reached `toLowerCase` before and failed the request).
 */
const IsPlatformList = (): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isPlatformList',
      validator: {
        validate: (value: unknown) => !isTextList(value) || unknownPlatform(value) === undefined,
        defaultMessage: (args?: ValidationArguments) =>
          `platform "${unknownPlatform(isTextList(args?.value) ? args.value : [])}" is not one of ${PLATFORMS.join(', ')}`,
      },
    },
    { validateIf: (_query: object, value: unknown) => isTextList(value) },
  );

/** A `min_*` number parameter not greater than its `max_*` (both from `min` to `max`). */
const IsNotGreaterThan = (upper: string, min: number, max: number): PropertyDecorator =>
  IsNotAbove(
    upper,
    (value) => acceptedQueryNumber(value, min, max),
    (property) => `${property} must not be greater than ${upper}`,
  );

/** A `*_since` date not after its `*_until` (a bare `until` date counts to the end of its day). */
const IsNotAfter = (until: string): PropertyDecorator =>
  IsNotAbove(
    until,
    (value, field) => calendarInstant(value, field === until ? 'end' : 'start'),
    (property) => `${property} must not be after ${until}`,
  );

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
