import { Module } from '@nestjs/common';
import { amendOpenApi, registerOpenApiSchemas } from '@analyst/platform';
import { WebhookDeliveryModule } from './delivery/webhook-delivery.module';
import { WebhookEndpointsModule } from './endpoints/webhook-endpoints.module';
import { EventStreamModule } from './events/event-stream.module';
import { PUSH_OPENAPI_SCHEMAS, pushIntoOpenApi } from './openapi/push-openapi';

/**
 * Push (issue 39): webhook endpoints and their routes, the delivery engine that follows the log
 * and delivers to them, and the `GET /events` stream. Its own service in the distributed topology
 * (apps/notifier), mounted in-process by the standalone app.
 */
@Module({ imports: [WebhookEndpointsModule, WebhookDeliveryModule, EventStreamModule] })
export class NotifierModule {}

// The webhook payloads (OpenAPI 3.1 `webhooks`) and the extension marks on the notifier's routes.
registerOpenApiSchemas(PUSH_OPENAPI_SCHEMAS);
amendOpenApi(pushIntoOpenApi);
