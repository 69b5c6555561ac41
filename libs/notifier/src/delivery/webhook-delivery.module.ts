import { Inject, Injectable, Module, type OnApplicationShutdown } from '@nestjs/common';
import {
  ANALYST_CONFIG,
  CLOCK,
  EVENT_STORE,
  HttpMetrics,
  READ_STORE,
  registerOpenApiSchemas,
  type AnalystConfig,
  type Clock,
  type EventStore,
  type ReadStore,
} from '@analyst/platform';
import { WebhookEndpointCommands } from '../endpoints/webhook-endpoint-commands';
import { WebhookEndpointsModule } from '../endpoints/webhook-endpoints.module';
import { EventStoreEndpointDirectory } from './event-store-endpoint-directory';
import { NOTIFIER_DELIVERY_OPTIONS, notifierDeliveryOptionsFromEnv } from './notifier-delivery-options';
import { NotifierMetrics } from './notifier-metrics';
import { NOTIFIER_STORES, openNotifierStores, type NotifierStores } from './notifier-stores';
import { WebhookDeliveriesController } from './webhook-deliveries.controller';
import { WEBHOOK_ENDPOINT_DIRECTORY, WebhookDeliveryRunner } from './webhook-delivery-runner';
import { WEBHOOK_DELIVERY_SCHEMA } from './webhook-delivery-view';

registerOpenApiSchemas({ WebhookDelivery: WEBHOOK_DELIVERY_SCHEMA });

/** Closes the standalone state file after the runner stopped (every onModuleDestroy runs first). */
@Injectable()
class NotifierStoresCloser implements OnApplicationShutdown {
  constructor(@Inject(NOTIFIER_STORES) private readonly stores: NotifierStores) {}

  onApplicationShutdown(): void {
    this.stores.close();
  }
}

/**
 * Push delivery (issue 39): the stores (MongoDB distributed, SQLite standalone), this replica's
 * delivery engine following the log, `GET /webhooks/{webhookId}/deliveries`, and the notifier's
 * metrics. Endpoints are read by folding the team's stream and disabled through its command
 * handler, both the endpoints module's `WebhookEndpointCommands`.
 */
@Module({
  imports: [WebhookEndpointsModule],
  controllers: [WebhookDeliveriesController],
  providers: [
    { provide: NOTIFIER_DELIVERY_OPTIONS, useFactory: () => notifierDeliveryOptionsFromEnv() },
    {
      provide: NOTIFIER_STORES,
      inject: [ANALYST_CONFIG, READ_STORE, CLOCK],
      useFactory: (config: AnalystConfig, store: ReadStore, clock: Clock) =>
        openNotifierStores(config, store, clock),
    },
    {
      provide: WEBHOOK_ENDPOINT_DIRECTORY,
      inject: [WebhookEndpointCommands],
      useFactory: (commands: WebhookEndpointCommands) => new EventStoreEndpointDirectory(commands),
    },
    {
      provide: NotifierMetrics,
      inject: [EVENT_STORE, { token: HttpMetrics, optional: true }],
      useFactory: (events: EventStore, metrics?: HttpMetrics) =>
        metrics ? new NotifierMetrics(metrics.registry, () => events.headPosition()) : undefined,
    },
    WebhookDeliveryRunner,
    NotifierStoresCloser,
  ],
  exports: [WebhookDeliveryRunner, WEBHOOK_ENDPOINT_DIRECTORY],
})
export class WebhookDeliveryModule {}
