/** What ANALYST_ENCODER and ANALYST_ENCODER_THREADS say. */
export interface EncoderConfig {
  /** ANALYST_ENCODER: `on` (default) loads the local encoder on first use; `off` never does. */
  readonly enabled: boolean;
  /** ANALYST_ENCODER_THREADS: worker threads of the shared encoder, 1–64 (default 1). */
  readonly threads: number;
}

/** Reads the encoder's variables; a bad value throws, naming the variable, so a service fails at start. */
export function readEncoderConfig(env: NodeJS.ProcessEnv = process.env): EncoderConfig {
  const problems: string[] = [];
  const mode = (env.ANALYST_ENCODER ?? 'on').trim().toLowerCase();
  if (mode !== 'on' && mode !== 'off')
    problems.push(`ANALYST_ENCODER must be on or off (got ${JSON.stringify(env.ANALYST_ENCODER)})`);
  const threadsText = (env.ANALYST_ENCODER_THREADS ?? '1').trim();
  const threads = Number(threadsText);
  if (!/^\d+$/.test(threadsText) || threads < 1 || threads > 64)
    problems.push(
      `ANALYST_ENCODER_THREADS must be an integer from 1 to 64 (got ${JSON.stringify(env.ANALYST_ENCODER_THREADS)})`,
    );
  if (problems.length > 0) throw new Error(problems.join('; '));
  return { enabled: mode === 'on', threads };
}
