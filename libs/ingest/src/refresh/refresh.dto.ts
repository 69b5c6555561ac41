import { Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CaptureDto, CreditsDto } from '../adding/content-request.dto';

export class RefreshPostsBody {
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
