import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Query,
  UseFilters,
  UseGuards,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { ApiError, teamStream, type StatementPage } from '@analyst/contracts';
import {
  AdminTokenGuard,
  ErrorMappingFilter,
  EVENT_STORE,
  ID_GENERATOR,
  READ_STORE,
  type EventStore,
  type IdGenerator,
  type ReadStore,
  IdempotencyKeyHeader,
  validateRequest,
} from '@analyst/platform';
import { toApiError } from '../ledger-error.mapping';
import { LedgerService } from '../ledger.service';
import { InvalidCursorError, readStatement } from '../queries/read-statement';
import { GrantCreditsDto } from './grant-credits.dto';
import { parseStatementQuery } from './statement-query';

const TEAM_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Operator routes over a team's credits: outside the public API, so not in its OpenAPI document. */
@ApiExcludeController()
@Controller('admin/v1/teams/:teamId')
@UseGuards(AdminTokenGuard)
@UseFilters(new ErrorMappingFilter(toApiError))
export class LedgerAdminController {
  constructor(
    private readonly ledger: LedgerService,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /** Grants MAP or Ad Hoc credits. `Idempotency-Key` makes a retried request a no-op. */
  @Post('credits')
  @HttpCode(201)
  async grant(
    @Param('teamId') teamId: string,
    @Body() body: GrantCreditsDto,
    @Headers('idempotency-key') idempotencyKey: string | undefined,
    @Headers('x-correlation-id') correlationId: string | undefined,
  ) {
    await this.requireTeam(teamId);
    const { 'Idempotency-Key': key } = validateRequest(
      IdempotencyKeyHeader,
      { 'Idempotency-Key': idempotencyKey },
      (m) => new ApiError(400, m),
    );
    const commandId = key ? `admin-grant-${key}` : this.ids.next('cmd_');
    const result = await this.ledger.grant(
      teamId,
      { commandId, pool: body.pool, amount: body.amount, reason: body.reason },
      { correlationId: correlationId ?? commandId, teamId },
    );
    await this.ledger.caughtUp();
    return {
      data: {
        teamId,
        pool: result.pool,
        amount: result.amount,
        balances: await this.ledger.balances(teamId),
      },
    };
  }

  /** The team's statement, oldest first, paged with an opaque cursor. */
  @Get('ledger')
  async statement(
    @Param('teamId') teamId: string,
    @Query('limit') limit?: string,
    @Query('cursor') cursor?: string,
  ): Promise<StatementPage> {
    await this.requireTeam(teamId);
    const query = parseStatementQuery({ limit, cursor });
    try {
      return await readStatement(this.store, teamId, query);
    } catch (error) {
      if (error instanceof InvalidCursorError) throw new ApiError(400, error.message);
      throw error;
    }
  }

  /** The ledger does not own teams; the team's own stream says whether it exists. */
  private async requireTeam(teamId: string): Promise<void> {
    if (!TEAM_ID.test(teamId) || (await this.events.readStream(teamStream(teamId))).length === 0) {
      throw new ApiError(404, `team ${teamId} not found`, 'team_not_found');
    }
  }
}
