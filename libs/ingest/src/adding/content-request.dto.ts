import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsBoolean,
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';

/** `{ id }` or `{ name, type?, parentId? }`; which of the two is checked by the resolver. */
export class CollectionRefDto {
  @IsOptional()
  @IsString()
  @MinLength(1)
  id?: string;

  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @IsOptional()
  @IsIn(['campaign', 'group'])
  type?: 'campaign' | 'group';

  @IsOptional()
  @IsString()
  parentId?: string;
}

export class CreditsDto {
  @IsOptional()
  @IsIn(['auto', 'adhoc'])
  source?: 'auto' | 'adhoc';
}

export class CaptureDto {
  @IsOptional()
  @IsBoolean()
  fullRead?: boolean;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  commentLimit?: number;
}

/** Who pays and how much is captured: shared by adding and refreshing. */
export class SpendingOptionsDto {
  @IsOptional()
  @IsString()
  teamId?: string;

  @IsOptional()
  @ValidateNested()
  @Type(() => CreditsDto)
  credits?: CreditsDto;

  @IsOptional()
  @ValidateNested()
  @Type(() => CaptureDto)
  capture?: CaptureDto;
}

/** Fields every content route that adds posts shares. */
export class ContentOptionsDto extends SpendingOptionsDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => CollectionRefDto)
  collections?: CollectionRefDto[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];
}

/** `links`: 1 to 100 post URLs (the spec: "up to 100 post URLs"; an empty list asks for nothing and is a malformed body). */
export class AddPostsBody extends ContentOptionsDto {
  @IsArray()
  @ArrayMinSize(1, { message: 'links must contain at least one post URL (1 to 100 per call)' })
  @ArrayMaxSize(100, { message: 'links: at most 100 links per call' })
  @IsString({ each: true })
  links!: string[];
}
