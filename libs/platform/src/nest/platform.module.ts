import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Global, Inject, Injectable, Logger, Module, type DynamicModule, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { InProcessBus } from '../bus/in-process-bus';
import { MESSAGE_BUS, type MessageBus } from '../bus/message-bus.port';
import { ANALYST_CONFIG, type AnalystConfig } from '../config/analyst-config';
import { CommandRunner } from '../decider/command-runner';
import { EVENT_STORE, type EventStore } from '../event-store/event-store.port';
import { SqliteCheckpointStore } from '../event-store/sqlite-checkpoint-store';
import { SqliteEventStore } from '../event-store/sqlite-event-store';
import { CHECKPOINT_STORE, type CheckpointStore } from '../projection/checkpoint-store';
import { MemoryReadStore } from '../read-store/memory-read-store';
import { READ_STORE, type ReadStore } from '../read-store/read-store.port';
import { EventRelay } from '../relay/event-relay';
import { CLOCK, SystemClock, type Clock } from '../time/clock';
import { ID_GENERATOR, RandomIdGenerator, type IdGenerator } from '../time/id-generator';
import { ProjectionService } from './projection.service';

export interface PlatformOverrides {
  clock?: Clock;
  ids?: IdGenerator;
  /** Deliver every bus message twice (tests prove handlers idempotent with it). */
  duplicateDelivery?: boolean;
}

export const EVENT_RELAY = Symbol('EventRelay');

/** Starts read models, then the relay that feeds process managers, and closes all on shutdown. */
@Injectable()
export class PlatformLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Platform');

  constructor(
    private readonly projections: ProjectionService,
    @Inject(EVENT_RELAY) private readonly relay: EventRelay,
    @Inject(EVENT_STORE) private readonly events: EventStore,
    @Inject(MESSAGE_BUS) private readonly bus: MessageBus,
    @Inject(READ_STORE) private readonly store: ReadStore,
    @Inject(CHECKPOINT_STORE) private readonly checkpoints: CheckpointStore & { close?: () => void },
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    await this.projections.start();
    await this.relay.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.relay.stop();
    await this.projections.stop();
    await this.bus.close();
    await this.events.close();
    await this.store.close();
    this.checkpoints.close?.();
    this.logger.log('stores closed');
  }
}

/** Chooses the adapters for the configured topology and exposes them under the port tokens. */
@Global()
@Module({})
export class PlatformModule {
  static forRoot(config: AnalystConfig, overrides: PlatformOverrides = {}): DynamicModule {
    if (config.ANALYST_MODE !== 'standalone') {
      throw new Error('ANALYST_MODE=distributed needs the Kafka, MongoDB and EventStoreDB adapters module');
    }
    const dataDir = resolve(config.ANALYST_DATA_DIR);
    mkdirSync(dataDir, { recursive: true });
    const clock = overrides.clock ?? new SystemClock();
    return {
      module: PlatformModule,
      providers: [
        { provide: ANALYST_CONFIG, useValue: config },
        { provide: CLOCK, useValue: clock },
        { provide: ID_GENERATOR, useValue: overrides.ids ?? new RandomIdGenerator(() => clock.now().getTime()) },
        { provide: EVENT_STORE, useFactory: () => new SqliteEventStore({ filename: join(dataDir, 'events.db') }) },
        { provide: CHECKPOINT_STORE, useFactory: () => new SqliteCheckpointStore(join(dataDir, 'checkpoints.db')) },
        { provide: MESSAGE_BUS, useFactory: () => new InProcessBus({ duplicateDelivery: overrides.duplicateDelivery, awaitHandled: true }) },
        { provide: READ_STORE, useFactory: () => new MemoryReadStore() },
        {
          provide: EVENT_RELAY,
          useFactory: (events: EventStore, bus: MessageBus, checkpoints: CheckpointStore) =>
            new EventRelay(events, bus, checkpoints, { name: 'relay' }),
          inject: [EVENT_STORE, MESSAGE_BUS, CHECKPOINT_STORE],
        },
        {
          provide: CommandRunner,
          useFactory: (events: EventStore, c: Clock, ids: IdGenerator) => new CommandRunner(events, c, ids),
          inject: [EVENT_STORE, CLOCK, ID_GENERATOR],
        },
        ProjectionService,
        PlatformLifecycle,
      ],
      exports: [ANALYST_CONFIG, CLOCK, ID_GENERATOR, EVENT_STORE, CHECKPOINT_STORE, MESSAGE_BUS, READ_STORE, EVENT_RELAY, CommandRunner, ProjectionService],
    };
  }
}
