import { loadConfig } from '../src/config/analyst-config';
import { prettyLogs } from '../src/nest/observability.module';

describe('log format', () => {
  it('is human-readable on a terminal and JSON otherwise; LOG_FORMAT overrides the guess', () => {
    expect(prettyLogs({}, true)).toBe(true);
    expect(prettyLogs({}, false)).toBe(false);
    expect(prettyLogs({ LOG_FORMAT: 'json' }, true)).toBe(false);
    expect(prettyLogs({ LOG_FORMAT: 'pretty' }, false)).toBe(true);
    expect(prettyLogs({ LOG_FORMAT: 'auto' }, true)).toBe(true);
    expect(prettyLogs({ LOG_FORMAT: 'auto' }, false)).toBe(false);
  });

  it('refuses a format it does not know at start (exit 2), naming the choices', () => {
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow('LOG_FORMAT must be auto, json or pretty');
    expect(loadConfig({}).LOG_FORMAT).toBe('auto');
  });

  it('has its pretty printer installed (terminalLogStream formats with it in this thread)', () => {
    expect(() => require.resolve('pino-pretty')).not.toThrow();
  });
});
