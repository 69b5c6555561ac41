import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
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
  ValidateIf,
} from 'class-validator';

/** `{ id }` or `{ name, type?, parentId? }`; which of the two is checked by the resolver. */
export class CollectionRefDto {
  @ApiPropertyOptional({
    description: 'An existing collection of the target team. Give id or name, not both.',
    minLength: 1,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  id?: string;

  @ApiPropertyOptional({
    description:
      'Matched case-insensitively against active collections: one match is reused, none creates a campaign, several are 409 collection_name_ambiguous.',
    minLength: 1,
    maxLength: 200,
  })
  @IsOptional()
  @IsString()
  @MinLength(1)
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({
    enum: ['campaign', 'group'],
    description: 'With name: the type of a collection created by name (default campaign).',
  })
  @IsOptional()
  @IsIn(['campaign', 'group'])
  type?: 'campaign' | 'group';

  @ApiPropertyOptional({ description: 'With name and type group: the campaign the group belongs to.' })
  @IsOptional()
  @IsString()
  parentId?: string;
}

export class CreditsDto {
  @ApiPropertyOptional({
    enum: ['auto', 'adhoc'],
    default: 'auto',
    description: 'auto: monthly MAPs first, then Ad Hoc credits; adhoc: Ad Hoc credits only.',
  })
  @IsOptional()
  @IsIn(['auto', 'adhoc'])
  source?: 'auto' | 'adhoc';
}

export class CaptureDto {
  @ApiPropertyOptional({
    default: false,
    description: 'Capture the full comment section: 5 credits per post instead of 1.',
  })
  @IsOptional()
  @IsBoolean()
  fullRead?: boolean;

  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: 1_000_000,
    description: 'Comments to capture per post; ignored with fullRead.',
  })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  commentLimit?: number;
}

/** Who pays and how much is captured: shared by adding and refreshing. */
export class SpendingOptionsDto {
  @ApiPropertyOptional({
    description:
      'Enterprise keys only: a sub-team of the key’s enterprise, whose credits are used. Any other team is 404.',
  })
  @IsOptional()
  @IsString()
  teamId?: string;

  @ApiPropertyOptional({ type: () => CreditsDto, description: 'Which credits pay.' })
  @IsOptional()
  @ValidateNested()
  @Type(() => CreditsDto)
  credits?: CreditsDto;

  @ApiPropertyOptional({
    type: () => CaptureDto,
    description: 'How much of each comment section is captured.',
  })
  @IsOptional()
  @ValidateNested()
  @Type(() => CaptureDto)
  capture?: CaptureDto;
}

/** Fields every content route that adds posts shares. */
export class ContentOptionsDto extends SpendingOptionsDto {
  @ApiPropertyOptional({
    type: () => [CollectionRefDto],
    maxItems: 50,
    description:
      'Collections to add the posts to: each { id } or { name, type?, parentId? }; resolved before any credit is touched.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => CollectionRefDto)
  collections?: CollectionRefDto[];

  @ApiPropertyOptional({
    type: [String],
    maxItems: 100,
    description:
      'Trimmed, leading # dropped, duplicates merged case-insensitively; also merged onto posts already on the team.',
  })
  // Absent is optional; null is not an empty list: it fails IsArray with a clear message.
  @ValidateIf((_, value) => value !== undefined)
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  @MaxLength(100, { each: true })
  tags?: string[];
}
