import { Type } from 'class-transformer';
import { Allow, IsBoolean, IsDefined, IsObject, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, Min, MinLength, ValidateNested } from 'class-validator';
import { POST_TYPES, type PostType } from '@analyst/contracts';
import { ContentOptionsDto } from '../adding/content-request.dto';

export class AccountDto {
  @IsString()
  @MinLength(1)
  url!: string;
}

export class AccountFiltersDto {
  @IsOptional()
  @IsString()
  since?: string;

  @IsOptional()
  @IsString()
  until?: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(100)
  limit?: number;

  /** A string, or `{ term, match }`: checked by the handler (class-validator has no union). */
  @IsOptional()
  @Allow()
  keywords?: unknown;

  @IsOptional()
  @IsNumber()
  @Min(0)
  minViews?: number;

  @IsOptional()
  @IsNumber()
  @Min(0)
  minLikes?: number;

  @IsOptional()
  @IsIn(POST_TYPES)
  postType?: PostType;
}

export class AddAccountBody extends ContentOptionsDto {
  @IsDefined({ message: 'account is required: { url }' })
  @IsObject()
  @ValidateNested()
  @Type(() => AccountDto)
  account!: AccountDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => AccountFiltersDto)
  filters?: AccountFiltersDto;

  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;
}
