import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  Allow,
  IsBoolean,
  IsDefined,
  IsObject,
  IsIn,
  IsInt,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { POST_TYPES, type PostType } from '@analyst/contracts';
import { ContentOptionsDto } from '../request/content-request.dto';

export class AccountDto {
  @ApiProperty({ minLength: 1, description: 'Public account URL (for the page-based network: a page).' })
  @IsString()
  @MinLength(1)
  url!: string;
}

export class AccountFiltersDto {
  @ApiPropertyOptional({ description: 'Posted at or after: ISO 8601 date or timestamp.' })
  @IsOptional()
  @IsString()
  since?: string;

  @ApiPropertyOptional({
    description:
      'Posted at or before: ISO 8601 date or timestamp (default: now; a bare date covers the whole day).',
  })
  @IsOptional()
  @IsString()
  until?: string;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 100,
    default: 20,
    description: 'Most posts to take, newest first.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  /** A string, or `{ term, match }`: checked by the handler (class-validator has no union). */
  @ApiPropertyOptional({
    description:
      'Caption filter: a string, or { term, match } with match includes (default), exact or excludes.',
    oneOf: [
      { type: 'string', minLength: 1 },
      {
        type: 'object',
        required: ['term'],
        properties: {
          term: { type: 'string', minLength: 1 },
          match: { type: 'string', enum: ['includes', 'exact', 'excludes'] },
        },
      },
    ],
  })
  @IsOptional()
  @Allow()
  keywords?: unknown;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  minViews?: number;

  @ApiPropertyOptional({ minimum: 0 })
  @IsOptional()
  @IsNumber()
  @Min(0)
  minLikes?: number;

  @ApiPropertyOptional({ enum: POST_TYPES })
  @IsOptional()
  @IsIn(POST_TYPES)
  postType?: PostType;
}

export class AddAccountBody extends ContentOptionsDto {
  @ApiProperty({ type: () => AccountDto })
  @IsDefined({ message: 'account is required: { url }' })
  @IsObject()
  @ValidateNested()
  @Type(() => AccountDto)
  account!: AccountDto;

  @ApiPropertyOptional({
    type: () => AccountFiltersDto,
    description: 'Which of the account’s recent public posts to take.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => AccountFiltersDto)
  filters?: AccountFiltersDto;

  @ApiPropertyOptional({
    default: false,
    description: 'true: discover and price only; nothing is added or charged.',
  })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;
}
