import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString } from 'class-validator';
import { ContentOptionsDto } from '../request/content-request.dto';

/** `links`: 1 to 100 post URLs (the spec: "up to 100 post URLs"; an empty list asks for nothing and is a malformed body). */
export class AddPostsBody extends ContentOptionsDto {
  @ApiProperty({
    type: [String],
    minItems: 1,
    maxItems: 100,
    description: 'Post URLs, 1 to 100; links on unsupported hosts are rejected per link, not charged.',
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'links must contain at least one post URL (1 to 100 per call)' })
  @ArrayMaxSize(100, { message: 'links: at most 100 links per call' })
  @IsString({ each: true })
  links!: string[];
}
