import { Injectable } from '@nestjs/common';
import {
  collectionDecider,
  collectionStream,
  type CollectionCommand,
  type CollectionEvent,
  type CollectionState,
} from '@analyst/domain-content';
import { CommandHandler, CommandRunner } from '@analyst/platform';

/** A collection's stream, keyed by collection id, bound to the collection decider. */
@Injectable()
export class CollectionCommands extends CommandHandler<
  string,
  CollectionCommand,
  CollectionEvent,
  CollectionState
> {
  constructor(runner: CommandRunner) {
    super(runner, { decider: collectionDecider, streamOf: collectionStream });
  }
}
