import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayUnique,
  IsArray,
  IsIn,
  IsInt,
  IsNumber,
  IsObject,
  IsOptional,
  IsString,
  Length,
  Max,
  Min,
} from 'class-validator';
import { PLAN_IDS, SCOPES, type PlanId, type Scope } from '@analyst/contracts';
import { MAX_ENGAGEMENT_WEIGHT } from '@analyst/domain-identity';

export class CreateTeamBody {
  @ApiProperty()
  @IsString()
  @Length(1, 200)
  name!: string;

  @ApiProperty({ enum: PLAN_IDS })
  @IsIn(PLAN_IDS)
  plan!: PlanId;

  @ApiPropertyOptional({ description: 'An Enterprise team to create this team under' })
  @IsOptional()
  @IsString()
  parentTeamId?: string;
}

export class CreateKeyBody {
  @ApiProperty()
  @IsString()
  @Length(1, 100)
  name!: string;

  @ApiPropertyOptional({
    enum: SCOPES,
    isArray: true,
    description:
      'Default: every scope except the opt-in ones (posts:write, accounts:write, webhooks:read, webhooks:write)',
  })
  @IsOptional()
  @IsArray()
  @ArrayUnique()
  @IsIn(SCOPES, { each: true })
  scopes?: Scope[];
}

export class ChangePlanBody {
  @ApiProperty({ enum: PLAN_IDS })
  @IsIn(PLAN_IDS)
  plan!: PlanId;
}

export class AnalysisSettingsBody {
  @ApiProperty({ enum: [1, 2, 3] })
  @IsIn([1, 2, 3])
  scoreVersion!: 1 | 2 | 3;

  @ApiProperty({ minimum: 0, maximum: MAX_ENGAGEMENT_WEIGHT })
  @IsNumber()
  @Min(0)
  @Max(MAX_ENGAGEMENT_WEIGHT)
  engagementWeight!: number;
}

export class RateLimitsBody {
  @ApiProperty({
    description:
      'Per class: { perMinute?, perDay? }; classes left out keep the contract numbers. Replaces earlier raises.',
  })
  @IsObject()
  limits!: Record<string, { perMinute?: number; perDay?: number }>;

  @ApiPropertyOptional({ description: 'Daily response bytes per key (default 500 MB)' })
  @IsOptional()
  @IsInt()
  dailyBytes?: number;
}

export class MapAllotmentBody {
  @ApiProperty({ minimum: 0 })
  @IsInt()
  @Min(0)
  monthlyMapAllotment!: number;
}
