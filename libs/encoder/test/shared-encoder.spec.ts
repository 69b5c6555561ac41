import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encoderFromEnv, sharedEncoder } from '@analyst/encoder';
import { requireModel } from './model-required';

describe('the process-wide encoder', () => {
  beforeAll(() => requireModel());

  it('concurrent callers share one load; closing one hold leaves the others working', async () => {
    const [a, b] = await Promise.all([sharedEncoder(), sharedEncoder()]);
    if (!a || !b) throw new Error('the shared encoder did not load');
    const [va] = await a.embed(['shared model']);
    await a.close();
    await expect(a.embed(['x'])).rejects.toThrow('this hold on the sentence encoder is closed');
    const [vb] = await b.embed(['shared model']);
    expect(Array.from(vb)).toEqual(Array.from(va));
    await b.close();
  }, 60_000);

  it('loads again after the last hold closed', async () => {
    const c = await sharedEncoder();
    expect(c?.model).toBe('all-minilm-l6-v2-q');
    expect((await c!.embed(['again']))[0]).toHaveLength(384);
    await c!.close();
  }, 60_000);

  it('encoderFromEnv: a lazy source, the same hold on every call', async () => {
    const source = encoderFromEnv({ ANALYST_ENCODER: 'on', ANALYST_ENCODER_THREADS: '1' });
    const [first, second] = await Promise.all([source(), source()]);
    expect(first).not.toBeNull();
    expect(second).toBe(first);
    await first!.close();
  }, 60_000);

  it('without the files: null for every concurrent caller, the reason told once (one load)', async () => {
    const reasons: string[] = [];
    const options = {
      modelDir: mkdtempSync(join(tmpdir(), 'encoder-absent-')),
      onUnavailable: (r: string) => reasons.push(r),
    };
    expect(await Promise.all([sharedEncoder(options), sharedEncoder(options)])).toEqual([null, null]);
    expect(reasons).toHaveLength(1);
  });
});
