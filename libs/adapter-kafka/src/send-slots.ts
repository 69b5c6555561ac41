/**
 * At most `size` holders at a time, served first come, first served: a caller that waits gets the
 * slot handed over by a release, so holders start in the order they asked (publish order).
 */
export class SendSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1)
      throw new Error(`send slots must be a positive integer, got ${size}`);
    this.free = size;
  }

  acquire(): Promise<void> {
    if (this.free > 0) {
      this.free -= 1;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free += 1;
  }
}
