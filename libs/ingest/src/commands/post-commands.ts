import { Inject, Injectable } from '@nestjs/common';
import {
  POST_PAYLOAD_EVENT_TYPES,
  postDecider,
  postStream,
  type PostCommand,
  type PostState,
} from '@analyst/domain-content';
import type { PostEvent } from '@analyst/contracts';
import {
  CommandHandler,
  CommandRunner,
  EVENT_STORE,
  SkippingStateSource,
  type EventStore,
} from '@analyst/platform';

/**
 * A post's stream, keyed by post id, bound to the post decider. Its state is folded without the
 * comment chunks (POST_PAYLOAD_EVENT_TYPES, which the decider ignores), so a command and a
 * `state()` read cost the same on a post of 50,000 comments refreshed twice as on a new one; the
 * append still expects the stream's real last event, a chunk or not.
 */
@Injectable()
export class PostCommands extends CommandHandler<string, PostCommand, PostEvent, PostState> {
  constructor(runner: CommandRunner, @Inject(EVENT_STORE) events: EventStore) {
    super(runner, {
      decider: postDecider,
      streamOf: postStream,
      options: { source: new SkippingStateSource(events, postDecider, POST_PAYLOAD_EVENT_TYPES) },
    });
  }
}
