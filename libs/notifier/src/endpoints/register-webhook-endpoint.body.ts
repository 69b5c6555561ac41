import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMinSize, IsArray, IsOptional, IsString, MaxLength } from 'class-validator';
import {
  MAX_WEBHOOK_DESCRIPTION_LENGTH,
  MAX_WEBHOOK_URL_LENGTH,
  WEBHOOK_EVENT_TYPES,
} from '@analyst/webhooks';

/**
 * `POST /webhooks`: the shape only. What the values may be (an https URL that resolves outside the
 * private ranges, known event types, the description's length) is the endpoint aggregate's rule,
 * answered with its own codes (invalid_webhook_url, invalid_webhook_events, ...).
 */
export class RegisterWebhookEndpointBody {
  @ApiProperty({
    maxLength: MAX_WEBHOOK_URL_LENGTH,
    description:
      'An https URL whose host resolves only to public addresses (no loopback, private, link-local, multicast or cloud-metadata address); checked again at each delivery.',
    example: 'https://hooks.example.com/analyst',
  })
  @IsString()
  @MaxLength(MAX_WEBHOOK_URL_LENGTH)
  url!: string;

  @ApiProperty({
    type: [String],
    enum: WEBHOOK_EVENT_TYPES,
    minItems: 1,
    description: 'The event types to deliver, at least one.',
  })
  @IsArray()
  @ArrayMinSize(1, { message: 'events must name at least one event type' })
  @IsString({ each: true })
  events!: string[];

  @ApiPropertyOptional({
    // OpenAPI 3.1 has no `nullable` (3.0's): a string or null.
    oneOf: [{ type: 'string', maxLength: MAX_WEBHOOK_DESCRIPTION_LENGTH }, { type: 'null' }],
    description: 'Free text for you; trimmed, empty becomes null.',
  })
  @IsOptional()
  @IsString()
  description?: string | null;

  @ApiPropertyOptional({
    description:
      'Enterprise keys only: register the endpoint for this sub-team of the key’s enterprise. Any other team is 404.',
  })
  @IsOptional()
  @IsString()
  teamId?: string;
}
