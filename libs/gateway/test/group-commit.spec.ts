import { GroupCommit } from '../src/batching/group-commit';

/** A send whose round trips the test finishes by hand, recording every batch it was given. */
function manualSend() {
  const batches: { lane: string; batch: number[] }[] = [];
  const pending: { resolve: (r: string[]) => void; reject: (e: unknown) => void; batch: number[] }[] = [];
  const send = (lane: string, batch: number[]) =>
    new Promise<string[]>((resolve, reject) => {
      batches.push({ lane, batch: [...batch] });
      pending.push({ resolve, reject, batch });
    });
  const finish = async (index = 0) => {
    const [round] = pending.splice(index, 1);
    round.resolve(round.batch.map((n) => `r${n}`));
    await new Promise((r) => setImmediate(r));
  };
  const fail = async (error: Error) => {
    pending.shift()!.reject(error);
    await new Promise((r) => setImmediate(r));
  };
  return { send, batches, pending, finish, fail };
}

describe('GroupCommit', () => {
  it('sends a lone request at once, as a batch of one', async () => {
    const io = manualSend();
    const commit = new GroupCommit(io.send);
    const answer = commit.submit('k', 1);
    expect(io.batches).toEqual([{ lane: 'k', batch: [1] }]);
    await io.finish();
    await expect(answer).resolves.toBe('r1');
    expect(commit.inFlight).toBe(0);
  });

  it('holds what arrives while a round trip is out and sends it next as one batch, in arrival order', async () => {
    const io = manualSend();
    const commit = new GroupCommit(io.send);
    const answers = [1, 2, 3, 4, 5].map((n) => commit.submit('k', n));
    expect(io.batches).toEqual([{ lane: 'k', batch: [1] }]);
    await io.finish();
    expect(io.batches).toEqual([
      { lane: 'k', batch: [1] },
      { lane: 'k', batch: [2, 3, 4, 5] },
    ]);
    const late = commit.submit('k', 6);
    await io.finish();
    expect(io.batches[2]).toEqual({ lane: 'k', batch: [6] });
    await io.finish();
    expect(await Promise.all([...answers, late])).toEqual(['r1', 'r2', 'r3', 'r4', 'r5', 'r6']);
    expect(io.batches).toHaveLength(3);
    expect(commit.inFlight).toBe(0);
  });

  it('keeps lanes apart: another lane never waits', async () => {
    const io = manualSend();
    const commit = new GroupCommit(io.send);
    const a = commit.submit('a', 1);
    const b = commit.submit('b', 2);
    expect(io.batches).toEqual([
      { lane: 'a', batch: [1] },
      { lane: 'b', batch: [2] },
    ]);
    expect(commit.inFlight).toBe(2);
    await io.finish(1);
    await expect(b).resolves.toBe('r2');
    await io.finish();
    await expect(a).resolves.toBe('r1');
  });

  it('fails only the batch whose round trip failed; the next batch still goes', async () => {
    const io = manualSend();
    const commit = new GroupCommit(io.send);
    const first = commit.submit('k', 1);
    const second = commit.submit('k', 2);
    const failed = expect(first).rejects.toThrow('store down');
    await io.fail(new Error('store down'));
    await failed;
    expect(io.batches[1]).toEqual({ lane: 'k', batch: [2] });
    await io.finish();
    await expect(second).resolves.toBe('r2');
  });

  it('rejects a batch answered with the wrong number of results, and a send that throws', async () => {
    const short = new GroupCommit<number, string>(async () => ['only one']);
    const a = short.submit('k', 1);
    const b = short.submit('k', 2);
    const c = short.submit('k', 3);
    await expect(a).resolves.toBe('only one');
    await expect(b).rejects.toThrow('1 results for a batch of 2');
    await expect(c).rejects.toThrow('1 results for a batch of 2');
    const throwing = new GroupCommit<number, string>(() => {
      throw new Error('bad request');
    });
    await expect(throwing.submit('k', 1)).rejects.toThrow('bad request');
    expect(throwing.inFlight).toBe(0);
  });
});
