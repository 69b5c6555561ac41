import { Module } from '@nestjs/common';
import { registerOpenApiSchemas } from '@analyst/platform';
import { WebhookEndpointCommands } from './webhook-endpoint-commands';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { WEBHOOK_ENDPOINT_OPENAPI_SCHEMAS } from './webhook-endpoints.openapi';
import { WebhookEndpointsService } from './webhook-endpoints.service';

// The schemas the controller references, in every document an app with this module serves.
registerOpenApiSchemas(WEBHOOK_ENDPOINT_OPENAPI_SCHEMAS);

/**
 * The `/webhooks` routes except deliveries: registering, listing, reading, deleting, rotating the
 * secret of and pinging a team's webhook endpoints, decided by the endpoint aggregate. Exports the
 * command handler, the one binding of the team's endpoints stream to its decider, for the
 * notifier's other parts (the delivery engine disables endpoints through it).
 */
@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookEndpointCommands, WebhookEndpointsService],
  exports: [WebhookEndpointCommands],
})
export class WebhookEndpointsModule {}
