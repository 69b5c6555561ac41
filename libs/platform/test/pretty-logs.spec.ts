import { prettyLogs } from '../src/nest/observability.module';

describe('log format', () => {
  it('is human-readable on a terminal and JSON otherwise; LOG_FORMAT overrides the guess', () => {
    expect(prettyLogs({}, true)).toBe(true);
    expect(prettyLogs({}, false)).toBe(false);
    expect(prettyLogs({ LOG_FORMAT: 'json' }, true)).toBe(false);
    expect(prettyLogs({ LOG_FORMAT: 'pretty' }, false)).toBe(true);
  });

  it('has its pretty printer installed (pino loads it by name in a worker)', () => {
    expect(() => require.resolve('pino-pretty')).not.toThrow();
  });
});
