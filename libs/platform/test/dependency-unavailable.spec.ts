import { createServer } from 'node:net';
import { Controller, Get, Module } from '@nestjs/common';
import { Kafka, KafkaJSNonRetriableError, KafkaJSProtocolError, logLevel } from 'kafkajs';
import { MongoClient } from 'mongodb';
import { ApiError } from '@analyst/contracts';
import {
  asDependencyUnavailable,
  ConcurrencyError,
  DependencyUnavailableError,
  KafkaBus,
  RequestTimeoutError,
} from '@analyst/platform';
import { createTestApp, type TestApp } from '@analyst/testing';

/** A port nobody listens on right now (the OS picks it, then it is closed again). */
function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => ok(port));
    });
  });
}

/** What a driver really throws when its server is not listening (no server runs on `port`). */
async function kafkaRefusal(port: number): Promise<unknown> {
  const admin = new Kafka({
    brokers: [`127.0.0.1:${port}`],
    logLevel: logLevel.NOTHING,
    retry: { retries: 0 },
  }).admin();
  return admin.connect().then(
    () => new Error('a broker answered on a free port'),
    (error: unknown) => error,
  );
}

async function mongoRefusal(port: number): Promise<unknown> {
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/`, { serverSelectionTimeoutMS: 200 });
  try {
    await client.db('x').command({ ping: 1 });
    return new Error('a server answered on a free port');
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
}

/** kafkajs logs each refused connection; the test expects them. */
const SILENT = { warn: () => undefined, error: () => undefined };

let closedPort = 0;

@Controller('down')
class DownController {
  @Get('broker')
  async broker() {
    throw await kafkaRefusal(closedPort);
  }

  @Get('broker-probe')
  async brokerProbe() {
    const bus = new KafkaBus({ brokers: [`127.0.0.1:${closedPort}`], logger: SILENT });
    try {
      await bus.checkReachable(1_000);
    } finally {
      await bus.close();
    }
  }

  @Get('read-store')
  async readStore() {
    throw await mongoRefusal(closedPort);
  }

  @Get('ledger')
  ledger() {
    throw new RequestTimeoutError('analyst.commands.ledger', 3_000);
  }

  @Get('event-store')
  eventStore() {
    throw new DependencyUnavailableError('event store', 'UNAVAILABLE: no connection established');
  }

  @Get('bug')
  bug() {
    throw new Error('cannot read properties of undefined');
  }

  @Get('rule')
  rule() {
    throw new ApiError(402, 'insufficient credits', 'insufficient_credits');
  }
}

@Module({ controllers: [DownController] })
class DownModule {}

const message = (dependency: string) =>
  `service unavailable: the ${dependency} is not answering; send the request again after 5 s`;

describe('a dependency that is down answers 503 with Retry-After, never a 500', () => {
  let t: TestApp;
  beforeAll(async () => {
    closedPort = await freePort();
    t = await createTestApp({ modules: [DownModule] });
  });
  afterAll(() => t.close());

  it.each([
    ['broker', 'message broker'],
    ['broker-probe', 'message broker'],
    ['read-store', 'read store'],
    ['ledger', 'ledger'],
    ['event-store', 'event store'],
  ])(
    'GET /down/%s: 503, Retry-After 5, code service_unavailable, the %s named',
    async (route, dependency) => {
      const reply = await t.request('GET', `/analyst/v1/down/${route}`);
      expect({ status: reply.status, retryAfter: reply.headers['retry-after'], body: reply.body }).toEqual({
        status: 503,
        retryAfter: '5',
        body: { error: { message: message(dependency), code: 'service_unavailable' } },
      });
    },
  );

  it('a bug stays a 500 without Retry-After, and a rule break keeps its own status', async () => {
    const bug = await t.request('GET', '/analyst/v1/down/bug');
    expect({ status: bug.status, retryAfter: bug.headers['retry-after'], body: bug.body }).toEqual({
      status: 500,
      retryAfter: undefined,
      body: { error: { message: 'internal error' } },
    });
    const rule = await t.request('GET', '/analyst/v1/down/rule');
    expect({ status: rule.status, body: rule.body }).toEqual({
      status: 402,
      body: { error: { message: 'insufficient credits', code: 'insufficient_credits' } },
    });
  });

  it('classifies drivers’ errors by what they mean, keeping the original as the cause', async () => {
    const kafka = await kafkaRefusal(closedPort);
    const mongo = await mongoRefusal(closedPort);
    expect({
      kafka: [(kafka as Error).name, asDependencyUnavailable(kafka)?.dependency],
      mongo: [(mongo as Error).name, asDependencyUnavailable(mongo)?.dependency],
      ledger: asDependencyUnavailable(new RequestTimeoutError('analyst.commands.ledger', 3_000))?.dependency,
    }).toEqual({
      kafka: [expect.stringMatching(/^KafkaJS(Connection|NumberOfRetriesExceeded)/), 'message broker'],
      mongo: ['MongoServerSelectionError', 'read store'],
      ledger: 'ledger',
    });
    expect(asDependencyUnavailable(mongo)?.cause).toBe(mongo);
    // What kafkajs' retrier throws when it gives up: a non-retriable error around the lost connection.
    // kafkajs passes `{ cause }` at run time; its type declarations name only the first argument.
    const NonRetriable = KafkaJSNonRetriableError as unknown as new (
      e: Error,
      options: { cause: Error },
    ) => Error;
    const wrapped = new NonRetriable(kafka as Error, { cause: kafka as Error });
    expect([wrapped.name, asDependencyUnavailable(wrapped)?.dependency]).toEqual([
      'KafkaJSNonRetriableError',
      'message broker',
    ]);
    // Errors that say something about the request or the code, not about a server being away.
    expect([
      asDependencyUnavailable(new Error('boom')),
      asDependencyUnavailable(new ConcurrencyError('team-1', 3, 4)),
      asDependencyUnavailable(new KafkaJSProtocolError('TOPIC_AUTHORIZATION_FAILED')),
      asDependencyUnavailable(null),
      asDependencyUnavailable('text'),
    ]).toEqual([null, null, null, null, null]);
  });
});
