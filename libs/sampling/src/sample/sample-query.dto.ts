import { Allow, IsIn, IsNotEmpty, IsOptional } from 'class-validator';
import { IsQueryInteger } from '@analyst/platform';
import { MAX_LIMIT, SOURCES } from './sample-query';
import { IsBucketsOf, IsEmotions, IsGivenOnce, refusedAs, whenGivenOnce } from './sample-query.rules';

/**
 * The query string of both comment routes as sent, every rule a class-validator decorator. The
 * properties are declared in the order the checks were always made (limit, source, cursor, then
 * the bucket parameters, then the emotion filter), so a refusal's first fault, and its code, stay
 * what they were.
 */
export class SampleQueryDto {
  @IsOptional()
  @IsGivenOnce()
  @IsQueryInteger(1, MAX_LIMIT, whenGivenOnce)
  limit?: string | string[];

  @IsOptional()
  @IsGivenOnce()
  @IsIn(SOURCES, {
    ...whenGivenOnce,
    message: ({ value }) => `source must be one of ${SOURCES.join(', ')}, got "${String(value)}"`,
  })
  source?: string | string[];

  @IsOptional()
  @IsGivenOnce()
  @IsNotEmpty({
    ...whenGivenOnce,
    ...refusedAs('invalid_cursor'),
    message: 'cursor must not be empty; omit it for the first page',
  })
  cursor?: string | string[];

  /** The Enterprise key's target team: the gateway reads and checks it. */
  @Allow()
  teamId?: unknown;

  @IsOptional()
  @IsBucketsOf('sentiment')
  sentiment?: string | string[];

  @IsOptional()
  @IsBucketsOf('content')
  content?: string | string[];

  @IsOptional()
  @IsBucketsOf('topic')
  topic?: string | string[];

  @IsOptional()
  @IsBucketsOf('relevance')
  relevance?: string | string[];

  @IsOptional()
  @IsBucketsOf('consensus')
  consensus?: string | string[];

  /** Extension of the spec: only comments read as one of these emotions. */
  @IsOptional()
  @IsEmotions()
  emotion?: string | string[];
}
