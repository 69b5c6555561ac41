import { ArrayMaxSize, IsArray, IsOptional, IsString } from 'class-validator';
import { SpendingOptionsDto } from '../adding/content-request.dto';

export class RefreshPostsBody extends SpendingOptionsDto {
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  postIds?: string[];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @IsString({ each: true })
  links?: string[];
}
