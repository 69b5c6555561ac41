import { Module } from '@nestjs/common';

/**
 * The `/webhooks` routes except deliveries: registering, listing, reading, deleting, rotating the
 * secret of and pinging a team's webhook endpoints, decided by the endpoint aggregate.
 */
@Module({})
export class WebhookEndpointsModule {}
