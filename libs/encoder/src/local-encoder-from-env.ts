import { readEncoderConfig } from './encoder-config';
import { encoderFromEnv, type EncoderSource } from './shared-encoder';

/**
 * The local encoder as a service wires it: a lazy source when ANALYST_ENCODER is on (the default),
 * null when it is off, so the service knows at start which AI search it runs.
 */
export function localEncoderFromEnv(env: NodeJS.ProcessEnv = process.env): EncoderSource | null {
  return readEncoderConfig(env).enabled ? encoderFromEnv(env) : null;
}
