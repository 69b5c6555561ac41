import { Module } from '@nestjs/common';

/** Teams, keys, authentication, scopes, limits and the admin API. */
@Module({})
export class GatewayModule {}
