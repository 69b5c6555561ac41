/** A fault the fakes answer with instead of the real response, for the next `times` matching calls. */
export type FakeFault =
  | { kind: 'quota' } // YouTube quotaExceeded / Reddit 429
  | { kind: 'rate' } // YouTube rateLimitExceeded
  | { kind: 'server'; status?: number } // 5xx
  | { kind: 'slow'; ms: number } // answers after ms (past the client's timeout)
  | { kind: 'auth' }; // credentials refused

export interface ScheduledFault {
  /**
   * Path prefix the fault applies to, e.g. `/commentThreads` or `/comments/abc`; the Reddit fake
   * matches it against the whole URL, so `/comments/abc?comment=c0` aims at one sub-thread.
   */
  path: string;
  fault: FakeFault;
  times: number;
}

/** The faults scheduled on a fake; `take` consumes one matching fault. */
export class FaultSchedule {
  private readonly faults: ScheduledFault[] = [];

  add(path: string, fault: FakeFault, times = 1): void {
    this.faults.push({ path, fault, times });
  }

  take(path: string): FakeFault | null {
    const found = this.faults.find((f) => f.times > 0 && path.startsWith(f.path));
    if (!found) return null;
    found.times--;
    return found.fault;
  }

  clear(): void {
    this.faults.length = 0;
  }
}

/** Opaque page tokens the way the APIs hand them out: the fakes encode an offset. */
export const pageToken = {
  encode: (offset: number): string => Buffer.from(`o:${offset}`).toString('base64url'),
  decode: (token: string | undefined): number | null => {
    if (!token) return 0;
    const m = /^o:(\d+)$/.exec(Buffer.from(token, 'base64url').toString());
    return m ? Number(m[1]) : null;
  },
};
