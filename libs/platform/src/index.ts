// The framework-free core (ports, Decider, stream categories and topics, the in-memory read store,
// in-process bus and keyed queue), re-exported so services keep one import.
export * from '@analyst/eventsourcing';
// The adapters live in their own libraries (issue 19), re-exported so services keep one import.
export * from '@analyst/adapter-sqlite';
// Shadows the core's InProcessBus with the traced one (an explicit export wins over `export *`).
export { InProcessBus, IN_PROCESS_TRACING } from './bus/in-process-bus';
export * from './bus/event-consumer';
export * from './projection/projector';
export * from './projection/projection-runtime';
export * from './projection/checkpoint-store';
export * from './relay/event-relay';
// Shadows the core's CommandRunner with the traced one (an explicit export wins over `export *`).
export { CommandRunner } from './decider/command-runner';
export * from './config/analyst-config';
export * from './config/provider-routes';
export * from './nest/projection.service';
export * from './nest/platform.module';
export * from './stores';
export * from './nest/error-envelope.filter';
export * from './nest/dependency-failure';
export * from './nest/admin-token.guard';
export * from './nest/api-paths';
export * from './nest/route-pattern';
export * from './nest/principal';
export * from './nest/route-decorators';
export * from './nest/location';
export * from './nest/validation';
export * from './nest/query-numbers';
export { SkipQueryRules } from './nest/query-rules';
export * from './nest/metrics';
export * from './nest/read-cache-metrics';
export * from './nest/health-registry';
export * from './time/periodic-task';
export * from './nest/observability.module';
export * from './nest/http-app';
export * from '@analyst/adapter-mongo';
// Shadows the adapter's KafkaBus with the traced one (an explicit export wins over `export *`).
export * from '@analyst/adapter-kafka';
export { KafkaBus, KAFKA_TRACING } from './kafka/kafka-bus';
export * from '@analyst/adapter-eventstoredb';
export * from '@analyst/adapter-postgres';
export * from './relay/relay-lease';
export * from './nest/run-service';
export * from './nest/pino-nest-logger';
export * from './projection/position-waiters';
export * from './crypto/sealed-token';
export * from './projection/log-follower';
export * from './projection/live-log-fold';
export * from './projection/projector-fold';
export * from './projection/read-model-check';
export * from './tracing';
