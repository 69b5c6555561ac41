// The framework-free core (ports, Decider, stream categories and topics, the in-memory read store,
// in-process bus and keyed queue), re-exported so services keep one import.
export * from '@analyst/eventsourcing';
// The adapters live in their own libraries (issue 19), re-exported so services keep one import.
export * from '@analyst/adapter-sqlite';
// The platform's tracing hooks for the core's and the adapters' classes (one name, one class).
export { IN_PROCESS_TRACING } from './bus/in-process-tracing';
export * from './bus/event-consumer';
export * from './projection/projector';
export * from './projection/projection-runtime';
export * from './projection/checkpoint-store';
export * from './relay/event-relay';
export { COMMAND_RUNNER_TRACING } from './decider/command-runner-tracing';
export * from './config/analyst-config';
export * from './config/provider-routes';
export * from './nest/projection.service';
export * from './nest/platform.module';
export * from './stores';
export * from './nest/error-envelope.filter';
export * from './nest/dependency-failure';
export * from './nest/domain-error-mapping';
export * from './nest/error-mapping.filter';
export * from './nest/admin-token.guard';
export * from './nest/api-paths';
export * from './nest/route-pattern';
export * from './nest/principal';
export * from './nest/route-decorators';
export * from './nest/location';
export * from './nest/validation';
export {
  IsQueryInteger,
  IsQueryNumber,
  acceptedQueryNumber,
  checkedQueryNumber,
} from './nest/query-number-rules';
export { SkipQueryRules } from './nest/query-rules';
export * from './nest/idempotency-key-header';
export * from './nest/metrics';
export * from './nest/read-cache-metrics';
export * from './nest/registry-metrics';
export * from './nest/periodic-gauges';
export * from './nest/health-registry';
export * from './time/periodic-task';
export * from './nest/observability.module';
export * from './nest/http-app';
export * from './nest/startup-probes';
export * from '@analyst/adapter-mongo';
export * from '@analyst/adapter-kafka';
export { KAFKA_TRACING } from './kafka/kafka-tracing';
export * from '@analyst/adapter-eventstoredb';
export * from '@analyst/adapter-postgres';
export * from './relay/relay-lease';
export * from './nest/run-service';
export * from './nest/pino-nest-logger';
export * from './projection/position-waiters';
export * from './crypto/sealed-token';
export * from './projection/projector-fold';
export * from './projection/read-model-check';
export * from './tracing';
