import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsInt, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CREDIT_POOLS, type CreditPool } from '@analyst/contracts';

/** Body of `POST /admin/v1/teams/:teamId/credits`. */
export class GrantCreditsDto {
  @ApiProperty({ enum: CREDIT_POOLS })
  @IsIn(CREDIT_POOLS, { message: `pool must be one of: ${CREDIT_POOLS.join(', ')}` })
  pool!: CreditPool;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1_000_000_000 })
  @IsInt({ message: 'amount must be a positive integer' })
  @Min(1, { message: 'amount must be a positive integer' })
  @Max(1_000_000_000, { message: 'amount must be at most 1000000000' })
  amount!: number;

  @ApiProperty({ minLength: 1, maxLength: 500 })
  @IsString({ message: 'reason must be a string' })
  @MinLength(1, { message: 'reason must not be empty' })
  @MaxLength(500, { message: 'reason must be at most 500 characters' })
  reason!: string;
}
