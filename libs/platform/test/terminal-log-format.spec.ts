import pino from 'pino';
import { terminalLogStream, terminalMessage } from '../src/nest/terminal-log-format';

/** A pino logger writing through terminalLogStream, without colour, into `out`. */
function terminalLogger(out: string[]) {
  return pino(
    { level: 'info', base: { service: 'ingest' } },
    terminalLogStream(false, { write: (t) => out.push(t) }),
  );
}

describe('terminal log lines', () => {
  it('writes one line per record: time, level, [service/context], message and plain fields', () => {
    const out: string[] = [];
    const logger = terminalLogger(out);
    logger.info({ context: 'Projections', position: 41, caughtUp: true }, 'read models at position 41');
    logger.warn({ context: 'Kafka', topic: 'analyst.events', details: { nested: 1 } }, 'consumer slow');
    expect(out).toHaveLength(2);
    expect(out[0]).toMatch(
      /^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[ingest\/Projections\] read models at position 41 position=41 caughtUp=true\n$/,
    );
    // Warnings are labelled as such; objects stay in the JSON lines, not on the terminal.
    expect(out[1]).toMatch(/ WARN: \[ingest\/Kafka\] consumer slow topic=analyst\.events\n$/);
  });

  it('reads a request as method, url, status and time', () => {
    const line = terminalMessage({
      level: 30,
      time: 0,
      service: 'standalone',
      msg: 'request completed',
      correlationId: 'c-1',
      method: 'GET',
      url: '/analyst/v1/me',
      route: '/analyst/v1/me',
      statusCode: 200,
      responseTimeMs: 3.1,
    });
    expect(line).toBe('[standalone] GET /analyst/v1/me 200 3.1 ms');
  });

  it("puts an error's stack under its line, indented", () => {
    const out: string[] = [];
    const error = new Error('unable to open database file');
    terminalLogger(out).fatal({ err: error }, 'standalone failed to start');
    const [first, second] = out[0].split('\n');
    expect(first).toMatch(/ FATAL: \[ingest\] standalone failed to start$/);
    expect(second).toBe('    Error: unable to open database file');
    // Nest's error lines carry the stack as a string field.
    expect(
      terminalMessage({ msg: 'boom', context: 'ExceptionHandler', stack: 'Error: boom\n    at x' }),
    ).toBe('[ExceptionHandler] boom\n    Error: boom\n        at x');
  });

  it('quotes values with spaces and shortens long ones', () => {
    expect(terminalMessage({ msg: 'm', reason: 'no route', id: 'x'.repeat(200) })).toBe(
      `m reason="no route" id=${'x'.repeat(79)}…`,
    );
  });
});
