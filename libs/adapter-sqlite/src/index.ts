export * from './sqlite-event-store';
export * from './sqlite-checkpoint-store';
export * from './live-subscription';
export * from './live-subscriptions';
