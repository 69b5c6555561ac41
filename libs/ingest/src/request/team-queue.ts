import { Injectable } from '@nestjs/common';
import { KeyedQueue } from '@analyst/platform';

/**
 * Content requests of one team run one at a time in this process (posts, refresh, account intake),
 * so dedupe, the replay check and the funding checks see every earlier request of the team.
 */
@Injectable()
export class TeamQueue {
  private readonly queue = new KeyedQueue();

  run<T>(teamId: string, task: () => Promise<T>): Promise<T> {
    return this.queue.push(teamId, task);
  }
}
