import { encoderFromEnv, localEncoderFromEnv, readEncoderConfig } from '@analyst/encoder';

describe('ANALYST_ENCODER and ANALYST_ENCODER_THREADS', () => {
  it('default: on, one thread', () => {
    expect(readEncoderConfig({})).toEqual({ enabled: true, threads: 1 });
  });

  it('reads off, on and a thread count', () => {
    expect(readEncoderConfig({ ANALYST_ENCODER: 'off' })).toEqual({ enabled: false, threads: 1 });
    expect(readEncoderConfig({ ANALYST_ENCODER: ' ON ', ANALYST_ENCODER_THREADS: '2' })).toEqual({
      enabled: true,
      threads: 2,
    });
  });

  it('a bad value throws, naming every bad variable', () => {
    expect(() => readEncoderConfig({ ANALYST_ENCODER: 'yes', ANALYST_ENCODER_THREADS: '0' })).toThrow(
      'ANALYST_ENCODER must be on or off (got "yes"); ANALYST_ENCODER_THREADS must be an integer from 1 to 64 (got "0")',
    );
    expect(() => readEncoderConfig({ ANALYST_ENCODER_THREADS: '1.5' })).toThrow(
      'ANALYST_ENCODER_THREADS must be an integer from 1 to 64 (got "1.5")',
    );
    expect(() => encoderFromEnv({ ANALYST_ENCODER_THREADS: '65' })).toThrow(
      'ANALYST_ENCODER_THREADS must be an integer from 1 to 64',
    );
  });

  it('off: the source gives null and loads nothing', async () => {
    const source = encoderFromEnv({ ANALYST_ENCODER: 'off' });
    expect(await source()).toBeNull();
  });

  it('localEncoderFromEnv: null when off (the service runs keyword search), else a lazy source', () => {
    expect(localEncoderFromEnv({ ANALYST_ENCODER: 'off' })).toBeNull();
    expect(typeof localEncoderFromEnv({})).toBe('function');
  });
});
