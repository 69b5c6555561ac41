import type { AnalystConfig, Clock, ReadStore } from '@analyst/platform';
import type { DeliveryStore, PartitionClaims } from '@analyst/webhooks';
import { NotifierStateDb } from './notifier-state-db';
import { ReadStoreDeliveryStore } from './read-store-delivery-store';
import { ReadStorePartitionClaims } from './read-store-partition-claims';
import { SqliteDeliveryStore } from './sqlite-delivery-store';
import { SqlitePartitionClaims } from './sqlite-partition-claims';

export const NOTIFIER_STORES = Symbol('NotifierStores');

/** Where this notifier keeps deliveries, endpoint health and partition claims. */
export interface NotifierStores {
  deliveries: DeliveryStore;
  partitions: PartitionClaims;
  close(): void;
}

/**
 * By topology: distributed replicas share the read store (MongoDB: `webhook_deliveries`,
 * `webhook_endpoint_health`, `webhook_partitions`, `webhook_notifier_replicas`); the standalone
 * process, whose read store is memory rebuilt from the log at each start, keeps them in
 * `notifier-state.db` in the data dir, so a restart keeps pending retries and checkpoints.
 */
export async function openNotifierStores(
  config: Pick<AnalystConfig, 'ANALYST_MODE' | 'ANALYST_DATA_DIR'>,
  store: ReadStore,
  clock: Clock,
): Promise<NotifierStores> {
  if (config.ANALYST_MODE === 'distributed')
    return {
      deliveries: await ReadStoreDeliveryStore.open(store),
      partitions: new ReadStorePartitionClaims(store, clock),
      close: () => undefined, // the platform closes the read store
    };
  const state = NotifierStateDb.open(config.ANALYST_DATA_DIR);
  return {
    deliveries: new SqliteDeliveryStore(state),
    partitions: new SqlitePartitionClaims(state, clock),
    close: () => state.close(),
  };
}
