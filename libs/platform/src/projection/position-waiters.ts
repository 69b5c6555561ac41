/** Promises that resolve once a consumer of the log has reached a global position. */
export class PositionWaiters {
  private reached = -1;
  private readonly waiters: { position: number; resolve: () => void }[] = [];

  get position(): number {
    return this.reached;
  }

  advance(position: number): void {
    if (position <= this.reached) return;
    this.reached = position;
    for (let i = this.waiters.length - 1; i >= 0; i--) {
      if (this.waiters[i].position <= position) {
        this.waiters[i].resolve();
        this.waiters.splice(i, 1);
      }
    }
  }

  waitFor(position: number, timeoutMs: number, what: string): Promise<void> {
    if (position <= this.reached) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const waiter = {
        position,
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer = setTimeout(() => {
        const index = this.waiters.indexOf(waiter);
        if (index >= 0) this.waiters.splice(index, 1);
        reject(new Error(`${what} did not reach position ${position} within ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiters.push(waiter);
    });
  }
}
