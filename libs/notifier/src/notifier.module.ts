import { Module } from '@nestjs/common';
import { WebhookDeliveryModule } from './delivery/webhook-delivery.module';
import { WebhookEndpointsModule } from './endpoints/webhook-endpoints.module';

/**
 * Push (issue 39): webhook endpoints and their routes, the delivery engine that follows the log
 * and delivers to them, and the `GET /events` stream. Its own service in the distributed topology
 * (apps/notifier), mounted in-process by the standalone app.
 */
@Module({ imports: [WebhookEndpointsModule, WebhookDeliveryModule] })
export class NotifierModule {}
