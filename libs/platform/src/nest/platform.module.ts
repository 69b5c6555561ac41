import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import {
  Global,
  Inject,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { IN_PROCESS_TRACING } from '../bus/in-process-tracing';
import { KafkaBus, type KafkaLogSink } from '@analyst/adapter-kafka';
import {
  CLOCK,
  type Clock,
  CommandRunner,
  EVENT_STORE,
  type EventStore,
  ID_GENERATOR,
  type IdGenerator,
  InProcessBus,
  MESSAGE_BUS,
  type MessageBus,
  RandomIdGenerator,
  READ_STORE,
  type ReadStore,
  SystemClock,
} from '@analyst/eventsourcing';
import { SqliteCheckpointStore } from '@analyst/adapter-sqlite';
import { ANALYST_CONFIG, kafkaDeliverySettings, type AnalystConfig } from '../config/analyst-config';
import { COMMAND_RUNNER_TRACING } from '../decider/command-runner-tracing';
import { KAFKA_TRACING } from '../kafka/kafka-tracing';
import {
  CHECKPOINT_STORE,
  ReadStoreCheckpointStore,
  type CheckpointStore,
} from '../projection/checkpoint-store';
import { EventRelay } from '../relay/event-relay';
import { openEventStore, openReadStore } from '../stores/open-stores';
import { eventStoreLocation, readStoreLocation } from '../stores/store-settings';
import { HealthRegistry } from './health-registry';
import { HttpMetrics } from './metrics';
import { PINO_LOGGER } from './pino-nest-logger';
import { PROJECTION_MODE, ProjectionService, type ProjectionMode } from './projection.service';

export interface PlatformOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  /** Deliver every bus message twice (tests prove handlers idempotent with it). */
  duplicateDelivery?: boolean;
  /** Run the event relay in this process. Standalone always does; in distributed only the relay app. */
  runRelay?: boolean;
}

export const EVENT_RELAY = Symbol('EventRelay');
const RUN_RELAY = Symbol('RunRelay');

/** Starts read models, then the relay that feeds process managers, and closes all on shutdown. */
@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');

  constructor(
    private readonly projections: ProjectionService,
    @Inject(EVENT_RELAY) private readonly relay: EventRelay,
    @Inject(RUN_RELAY) private readonly runRelay: boolean,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore & { close?: () => void },
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.projections.start();
    if (this.runRelay) await this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    if (this.runRelay) await this.relay.stop();
    await this.projections.stop();
    await this.bus.close();
    await this.events.close();
    await this.store.close();
    this.checkpoints.close?.();
    this.logger.log('stores closed');
  }
}

/** One process, no servers: SQLite log, in-process bus, read models in memory rebuilt at boot. */
function standaloneAdapters(config: AnalystConfig, overrides: PlatformOverrides): Provider[] {
  const dataDir = resolve(config.ANALYST_DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return [
    { provide: EVENT_STORE, useFactory: () => openEventStore(eventStoreLocation(config)) },
    {
      provide: CHECKPOINT_STORE,
      useFactory: () => new SqliteCheckpointStore(join(dataDir, 'checkpoints.db')),
    },
    {
      provide: MESSAGE_BUS,
      // awaitHandled: the relay's checkpoint trails what consumers finished, since nothing here is durable.
      useFactory: () =>
        new InProcessBus({
          tracing: IN_PROCESS_TRACING,
          duplicateDelivery: overrides.duplicateDelivery,
          awaitHandled: true,
        }),
    },
    { provide: READ_STORE, useFactory: () => openReadStore(readStoreLocation(config)) },
    { provide: PROJECTION_MODE, useValue: 'rebuild' satisfies ProjectionMode },
    { provide: RUN_RELAY, useValue: overrides.runRelay ?? true },
  ];
}

/**
 * One process per service: EventStoreDB (or, when asked with ANALYST_EVENTSTORE=sqlite:<path>, one
 * SQLite log file shared by every process on the machine, polled), Kafka, and read models plus
 * checkpoints in MongoDB.
 */
function distributedAdapters(config: AnalystConfig, overrides: PlatformOverrides): Provider[] {
  return [
    // EventStoreDB, or the shared SQLite file polled for the other processes' appends (store-settings).
    { provide: EVENT_STORE, useFactory: () => openEventStore(eventStoreLocation(config)) },
    {
      provide: MESSAGE_BUS,
      // Consumer groups report on /readyz and /healthz, lag and restarts on /metrics, kafkajs' warnings
      // and errors go to the service's logger (when ObservabilityModule is there).
      useFactory: (health?: HealthRegistry, metrics?: HttpMetrics, logger?: KafkaLogSink) =>
        new KafkaBus({
          tracing: KAFKA_TRACING,
          brokers: config.KAFKA_BROKERS!.split(',').map((b) => b.trim()),
          clientId: config.ANALYST_SERVICE,
          partitions: config.KAFKA_PARTITIONS,
          namespace: config.KAFKA_NAMESPACE,
          duplicateDelivery: overrides.duplicateDelivery,
          health,
          metricsRegistry: metrics?.registry,
          logger,
          // replicationFactor, minInsyncReplicas (topic config min.insync.replicas) and ssl (CA) from the config.
          ...kafkaDeliverySettings(config),
        }),
      inject: [
        { token: HealthRegistry, optional: true },
        { token: HttpMetrics, optional: true },
        { token: PINO_LOGGER, optional: true },
      ],
    },
    { provide: READ_STORE, useFactory: () => openReadStore(readStoreLocation(config)) },
    {
      provide: CHECKPOINT_STORE,
      useFactory: (store: ReadStore) => new ReadStoreCheckpointStore(store),
      inject: [READ_STORE],
    },
    { provide: PROJECTION_MODE, useValue: 'resume' satisfies ProjectionMode },
    { provide: RUN_RELAY, useValue: overrides.runRelay ?? false },
  ];
}

/** Chooses the adapters for the configured topology and exposes them under the port tokens. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AnalystConfig, overrides: PlatformOverrides = {}): DynamicModule {
    const clock = overrides.clock ?? new SystemClock();
    const adapters =
      config.ANALYST_MODE === 'standalone'
        ? standaloneAdapters(config, overrides)
        : distributedAdapters(config, overrides);
    return {
      module: PlatformModule,
      providers: [
        { provide: ANALYST_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        {
          provide: ID_GENERATOR,
          useValue: overrides.ids ?? new RandomIdGenerator(() => clock.now().getTime()),
        },
        ...adapters,
        {
          provide: EVENT_RELAY,
          useFactory: (events: EventStore, bus: MessageBus, checkpoints: CheckpointStore) =>
            new EventRelay(events, bus, checkpoints, { name: 'relay' }),
          inject: [EVENT_STORE, MESSAGE_BUS, CHECKPOINT_STORE],
        },
        {
          provide: CommandRunner,
          useFactory: (events: EventStore, c: Clock, ids: IdGenerator) =>
            new CommandRunner(events, c, ids, COMMAND_RUNNER_TRACING),
          inject: [EVENT_STORE, CLOCK, ID_GENERATOR],
        },
        ProjectionService,
        PlatformLifecycle,
      ],
      exports: [
        ANALYST_CONFIG,
        CLOCK,
        ID_GENERATOR,
        EVENT_STORE,
        CHECKPOINT_STORE,
        MESSAGE_BUS,
        READ_STORE,
        EVENT_RELAY,
        CommandRunner,
        ProjectionService,
      ],
    };
  }
}
