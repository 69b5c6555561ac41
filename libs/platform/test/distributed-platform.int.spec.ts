import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Inject, Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  CommandRunner,
  PlatformModule,
  ProjectionService,
  READ_STORE,
  loadConfig,
  type Decider,
  type Doc,
  type Projector,
  type ReadStore,
} from '@analyst/platform';
import { unique } from '@analyst/testing';

const brokers = process.env.KAFKA_BROKERS;
const mongo = process.env.MONGO_URL;

interface Tally extends Doc {
  total: number;
}

const tallies: Projector<Tally> = {
  name: 'tallies',
  collection: 'tallies',
  eventTypes: ['Tallied'],
  documentIds: (event) => [event.streamId],
  evolve: (doc, event, id) => ({ _id: id, total: (doc?.total ?? 0) + (event.data as { by: number }).by }),
};

const tally: Decider<{ by: number }, { type: 'Tallied'; data: { by: number } }, null> = {
  initialState: () => null,
  decide: (command) => [{ type: 'Tallied', data: { by: command.by } }],
  evolve: (state) => state,
};

@Injectable()
class TallyFeature implements OnModuleInit {
  constructor(
    private readonly projections: ProjectionService,
    private readonly runner: CommandRunner,
    @Inject(READ_STORE) readonly store: ReadStore,
  ) {}

  onModuleInit(): void {
    this.projections.register(tallies);
  }

  async add(stream: string, by: number): Promise<void> {
    const outcome = await this.runner.run(stream, tally, { by }, { correlationId: 'c', teamId: null });
    await this.projections.waitFor(outcome.position, 15_000);
  }
}

@Module({ providers: [TallyFeature] })
class TallyModule {}

(brokers && mongo ? describe : describe.skip)(
  'platform in the distributed topology (Kafka, MongoDB, shared SQLite log)',
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'analyst-dist-'));
    const database = unique('analyst_dist_');
    afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

    async function boot(service: string) {
      const config = loadConfig({
        ANALYST_MODE: 'distributed',
        ANALYST_SERVICE: service,
        ANALYST_DATA_DIR: dataDir,
        ANALYST_EVENTSTORE: `sqlite:${join(dataDir, 'events.db')}`,
        KAFKA_BROKERS: brokers,
        MONGO_URL: mongo,
        MONGO_DB: database,
        ANALYST_INTERNAL_SECRET: 'x'.repeat(32),
        LOG_LEVEL: 'silent',
      });
      @Module({ imports: [PlatformModule.forRoot(config), TallyModule] })
      class Root {}
      const app = await NestFactory.createApplicationContext(Root, { logger: false });
      await app.init();
      return app;
    }

    it("projects into MongoDB with read-your-writes, resumes from its checkpoint, and sees other processes' appends", async () => {
      const stream = unique('tally-');
      let app = await boot('tally');
      await app.get(TallyFeature).add(stream, 2);
      await app.get(TallyFeature).add(stream, 3);
      expect(
        await app.get(TallyFeature).store.collection<Tally>('tallies').findOne({ _id: stream }),
      ).toMatchObject({ total: 5 });
      await app.close();

      // Another "process" appends while the first is down; the restarted one resumes, not rebuilds.
      const other = await boot('other');
      await other.get(TallyFeature).add(stream, 10);
      await other.close();
      app = await boot('tally');
      const store = app.get(TallyFeature).store;
      const deadline = Date.now() + 15_000;
      let doc = await store.collection<Tally>('tallies').findOne({ _id: stream });
      while (doc?.total !== 15 && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 50));
        doc = await store.collection<Tally>('tallies').findOne({ _id: stream });
      }
      expect(doc).toMatchObject({ total: 15 });
      const checkpoint = await store
        .collection<{ _id: string; position: number }>('checkpoints')
        .findOne({ _id: 'projections:tally' });
      expect(checkpoint?.position).toBeGreaterThanOrEqual(2);
      await app.close();
    }, 60_000);
  },
);
