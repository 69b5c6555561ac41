export {
  AnalystApiError,
  AnalystClient,
  createAnalystClient,
  retryAfterMs,
  type AnalystClientOptions,
} from './client';
export type { components, operations, paths } from './schema';
