import { Injectable } from '@nestjs/common';
import { postDecider, postStream, type PostCommand, type PostState } from '@analyst/domain-content';
import type { PostEvent } from '@analyst/contracts';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** A post's stream, keyed by post id, bound to the post decider. */
@Injectable()
export class PostCommands extends CommandHandler<string, PostCommand, PostEvent, PostState> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: postDecider, streamOf: postStream });
  }
}
