import { ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { SpendingOptionsDto } from '../request/content-request.dto';

/** Give postIds, links or both: at most 100 posts in all. */
export class RefreshPostsBody extends SpendingOptionsDto {
  @ApiPropertyOptional({ type: [String], maxItems: 100, description: 'Ids of posts on the target team.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  postIds?: string[];

  @ApiPropertyOptional({ type: [String], maxItems: 100, description: 'URLs of posts on the target team.' })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  links?: string[];
}
