import { Controller, Headers, HttpCode, Param, Post, UseFilters, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AdminTokenGuard, ErrorMappingFilter } from '@analyst/platform';
import { toApiError } from '../identity/identity-error.mapping';
import { IdentityService } from '../identity/identity.service';
import { createdKeyView } from './team-view';

@ApiExcludeController()
@UseGuards(AdminTokenGuard)
@UseFilters(new ErrorMappingFilter(toApiError))
@Controller('admin/v1/keys')
export class AdminKeysController {
  constructor(private readonly identity: IdentityService) {}

  /** New secret, same key id, scopes and counters; the old secret fails from the moment this answers. */
  @Post(':keyId/rotate')
  @HttpCode(200)
  async rotate(@Param('keyId') keyId: string, @Headers('x-correlation-id') correlationId?: string) {
    const key = await this.identity.rotateKey(keyId, {
      correlationId: correlationId ?? 'admin',
      teamId: null,
    });
    return { data: createdKeyView(key) };
  }

  @Post(':keyId/revoke')
  @HttpCode(200)
  async revoke(@Param('keyId') keyId: string, @Headers('x-correlation-id') correlationId?: string) {
    const result = await this.identity.revokeKey(keyId, {
      correlationId: correlationId ?? 'admin',
      teamId: null,
    });
    return { data: { id: result.id, teamId: result.teamId, status: 'revoked' } };
  }
}
