import {
  Body,
  Controller,
  Get,
  Headers,
  HttpCode,
  Inject,
  Param,
  Post,
  Put,
  UseGuards,
  UseFilters,
} from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { IdentityError, lastUtcDays } from '@analyst/domain-identity';
import {
  AdminTokenGuard,
  CLOCK,
  ErrorMappingFilter,
  READ_STORE,
  type Clock,
  type ReadStore,
} from '@analyst/platform';
import { toApiError } from '../identity/identity-error.mapping';
import {
  findSubTeams,
  findTeam,
  findTeamKeys,
  TEAMS_COLLECTION,
  type TeamDoc,
} from '../identity/identity-read-models';
import { IdentityService, type IdentityContext } from '../identity/identity.service';
import { UsageRecorder } from '../usage/usage-recorder';
import {
  AnalysisSettingsBody,
  ChangePlanBody,
  CreateKeyBody,
  CreateTeamBody,
  MapAllotmentBody,
  RateLimitsBody,
} from './admin.dto';
import { createdKeyView, keyView, teamView } from './team-view';

const USAGE_DAYS = 30;

function ctx(correlationId: string | undefined, teamId: string | null = null): IdentityContext {
  return { correlationId: correlationId ?? 'admin', teamId };
}

/** Operator and app-backend API for teams; only the ANALYST_ADMIN_TOKEN opens it, never an API key. */
@ApiExcludeController()
@UseGuards(AdminTokenGuard)
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('admin/v1/teams')
export class AdminTeamsController {
  constructor(
    private readonly identity: IdentityService,
    private readonly usage: UsageRecorder,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CLOCK) private readonly clock: Clock,
  ) {}

  private async requireTeam(teamId: string): Promise<TeamDoc> {
    const team = await findTeam(this.store, teamId);
    if (!team) throw new IdentityError('team_not_found', `team ${teamId} not found`);
    return team;
  }

  @Post()
  async create(@Body() body: CreateTeamBody, @Headers('x-correlation-id') correlationId?: string) {
    const { teamId } = await this.identity.createTeam(body, ctx(correlationId));
    return { data: teamView(await this.requireTeam(teamId)) };
  }

  @Get()
  async list() {
    const teams = await this.store
      .collection<TeamDoc>(TEAMS_COLLECTION)
      .find({}, { sort: { createdAt: 1, _id: 1 } });
    return { data: teams.map(teamView), meta: { count: teams.length } };
  }

  @Get(':teamId')
  async get(@Param('teamId') teamId: string) {
    const team = await this.requireTeam(teamId);
    const [subTeams, keys] = await Promise.all([
      findSubTeams(this.store, teamId),
      findTeamKeys(this.store, teamId),
    ]);
    return {
      data: {
        ...teamView(team),
        subTeams: subTeams.map((s) => ({ id: s._id, name: s.name, plan: s.plan })),
        keys: keys.map(keyView),
      },
    };
  }

  @Post(':teamId/keys')
  async createKey(
    @Param('teamId') teamId: string,
    @Body() body: CreateKeyBody,
    @Headers('x-correlation-id') correlationId?: string,
  ) {
    const key = await this.identity.createKey(
      teamId,
      { name: body.name, scopes: body.scopes },
      ctx(correlationId, teamId),
    );
    return { data: createdKeyView(key) };
  }

  @Get(':teamId/keys')
  async keys(@Param('teamId') teamId: string) {
    await this.requireTeam(teamId);
    return { data: (await findTeamKeys(this.store, teamId)).map(keyView) };
  }

  @Put(':teamId/plan')
  @HttpCode(200)
  async plan(
    @Param('teamId') teamId: string,
    @Body() body: ChangePlanBody,
    @Headers('x-correlation-id') correlationId?: string,
  ) {
    await this.identity.changePlan(teamId, body.plan, ctx(correlationId, teamId));
    return { data: teamView(await this.requireTeam(teamId)) };
  }

  @Put(':teamId/analysis-settings')
  @HttpCode(200)
  async analysisSettings(
    @Param('teamId') teamId: string,
    @Body() body: AnalysisSettingsBody,
    @Headers('x-correlation-id') correlationId?: string,
  ) {
    await this.identity.setAnalysisSettings(teamId, body, ctx(correlationId, teamId));
    return { data: teamView(await this.requireTeam(teamId)) };
  }

  @Put(':teamId/limits')
  @HttpCode(200)
  async limits(
    @Param('teamId') teamId: string,
    @Body() body: RateLimitsBody,
    @Headers('x-correlation-id') correlationId?: string,
  ) {
    await this.identity.setRateLimits(teamId, body, ctx(correlationId, teamId));
    return { data: teamView(await this.requireTeam(teamId)) };
  }

  @Put(':teamId/map-allotment')
  @HttpCode(200)
  async mapAllotment(
    @Param('teamId') teamId: string,
    @Body() body: MapAllotmentBody,
    @Headers('x-correlation-id') correlationId?: string,
  ) {
    await this.identity.setMapAllotment(teamId, body.monthlyMapAllotment, ctx(correlationId, teamId));
    return { data: teamView(await this.requireTeam(teamId)) };
  }

  /** Requests and response bytes per key per UTC day, the last 30 days, newest first. */
  @Get(':teamId/usage')
  async usageOf(@Param('teamId') teamId: string) {
    await this.requireTeam(teamId);
    const days = lastUtcDays(this.clock.now(), USAGE_DAYS);
    const [keys, rows] = await Promise.all([
      findTeamKeys(this.store, teamId),
      this.usage.forTeam(teamId, days),
    ]);
    const byKeyDay = new Map(rows.map((r) => [`${r.keyId}:${r.day}`, r]));
    return {
      data: {
        teamId,
        from: days[days.length - 1],
        to: days[0],
        keys: keys.map((k) => {
          const perDay = days.map((day) => {
            const row = byKeyDay.get(`${k._id}:${day}`);
            return { day, requests: row?.requests ?? 0, bytes: row?.bytes ?? 0 };
          });
          return {
            id: k._id,
            name: k.name,
            status: k.status,
            totals: perDay.reduce(
              (t, d) => ({ requests: t.requests + d.requests, bytes: t.bytes + d.bytes }),
              { requests: 0, bytes: 0 },
            ),
            days: perDay,
          };
        }),
      },
    };
  }
}
