export * from './mongo-read-store';
export type { MongoServerCapabilities } from './server-capabilities';
