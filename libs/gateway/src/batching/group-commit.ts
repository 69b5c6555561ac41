interface Waiting<Req, Res> {
  request: Req;
  resolve: (result: Res) => void;
  reject: (error: unknown) => void;
}

/** One lane's state: whether a round trip is out, and what has arrived since it left. */
interface Lane<Req, Res> {
  waiting: Waiting<Req, Res>[];
}

/**
 * Group commit per lane (a document, say): at most one round trip per lane is in flight. A request
 * that arrives while one is out waits for it, then goes out with every other request that arrived
 * in the meantime, as one batch. Under load a lane costs one round trip per batch instead of one per
 * request; alone, a request leaves at once and waits for nothing.
 *
 * A batch's requests all arrived before it left, so anything `send` reads was read after each of
 * them arrived; and `send` answers them in arrival order, so a batch can be made to behave as its
 * requests applied one after another.
 */
export class GroupCommit<Req, Res> {
  private readonly lanes = new Map<string, Lane<Req, Res>>();

  /** `send` answers one result per request of the batch, in the batch's order. */
  constructor(private readonly send: (lane: string, batch: Req[]) => Promise<Res[]>) {}

  submit(lane: string, request: Req): Promise<Res> {
    return new Promise<Res>((resolve, reject) => {
      const open = this.lanes.get(lane);
      if (open) {
        open.waiting.push({ request, resolve, reject });
        return;
      }
      this.lanes.set(lane, { waiting: [] });
      this.flush(lane, [{ request, resolve, reject }]);
    });
  }

  /** Lanes with a round trip out (for tests and shutdown). */
  get inFlight(): number {
    return this.lanes.size;
  }

  private flush(lane: string, batch: Waiting<Req, Res>[]): void {
    const settle = (error: unknown, results?: Res[]): void => {
      batch.forEach((w, i) => {
        if (results) w.resolve(results[i]);
        else w.reject(error);
      });
      const state = this.lanes.get(lane)!;
      if (state.waiting.length === 0) {
        this.lanes.delete(lane);
        return;
      }
      const next = state.waiting;
      state.waiting = [];
      this.flush(lane, next);
    };
    let sent: Promise<Res[]>;
    try {
      sent = this.send(
        lane,
        batch.map((w) => w.request),
      );
    } catch (error) {
      sent = Promise.reject(error);
    }
    sent.then(
      (results) => {
        if (results.length !== batch.length)
          settle(new Error(`group commit: ${results.length} results for a batch of ${batch.length}`));
        else settle(undefined, results);
      },
      (error: unknown) => settle(error),
    );
  }
}
