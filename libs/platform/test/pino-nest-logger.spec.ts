import pino from 'pino';
import { PinoNestLogger } from '../src/nest/pino-nest-logger';

/** A PinoNestLogger over a pino logger at `level` that collects its JSON records. */
function nestLogger(level: string) {
  const records: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (line: string) => void records.push(JSON.parse(line)) });
  return { nest: new PinoNestLogger(logger), records };
}

describe('PinoNestLogger', () => {
  it("writes Nest's module and route lines at debug, and everything else at its own level", () => {
    const { nest, records } = nestLogger('debug');
    nest.log('Starting Nest application...', 'NestFactory');
    nest.log('IngestModule dependencies initialized', 'InstanceLoader');
    nest.log('HealthController {/analyst/v1}:', 'RoutesResolver');
    nest.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    nest.log('Nest application successfully started', 'NestApplication');
    nest.log('read models at position 4 in 3 ms', 'Projections');
    nest.warn('consumer slow', 'Kafka');
    expect(records.map((r) => [r.level, r.context])).toEqual([
      [20, 'NestFactory'],
      [20, 'InstanceLoader'],
      [20, 'RoutesResolver'],
      [20, 'RouterExplorer'],
      [20, 'NestApplication'],
      [30, 'Projections'],
      [40, 'Kafka'],
    ]);
  });

  it("leaves them out at the default level, keeping the services' own lines and errors", () => {
    const { nest, records } = nestLogger('info');
    nest.log('Mapped {/healthz, GET} route', 'RouterExplorer');
    nest.log('demo team created', 'Demo');
    nest.error(
      'unable to open database file',
      'Error: unable to open database file\n    at x',
      'ExceptionHandler',
    );
    expect(records).toEqual([
      expect.objectContaining({ level: 30, context: 'Demo', msg: 'demo team created' }),
      expect.objectContaining({
        level: 50,
        context: 'ExceptionHandler',
        msg: 'unable to open database file',
        stack: 'Error: unable to open database file\n    at x',
      }),
    ]);
  });
});
