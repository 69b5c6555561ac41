import type { BusMessage, RequestHandler, Subscription } from '@analyst/eventsourcing';
import type { RawHeaders } from './kafka-batch-delivery';
import type { KafkaBusOptions } from './kafka-bus-options';
import { HEADER, type Reply } from './kafka-codec';
import type { ConsumerGroups } from './kafka-consumer-groups';
import type { KafkaTracing } from './kafka-hooks';
import type { KafkaNamespace } from './kafka-namespace';
import { isTopicMetadataError, type ResilientProducer } from './kafka-producer';
import type { TopicAdmin } from './kafka-topic-admin';

export interface KafkaRequestServerDeps {
  groups: ConsumerGroups;
  producer: ResilientProducer;
  topics: TopicAdmin;
  namespace: KafkaNamespace;
  tracing: KafkaTracing;
  onHandlerError: KafkaBusOptions['onHandlerError'];
}

/**
 * `serve`: a consumer group on a command topic whose handler's result (or error message) goes back
 * to the requester, on the topic the request's `reply-to` header names, under its correlation id.
 */
export class KafkaRequestServer {
  constructor(private readonly deps: KafkaRequestServerDeps) {}

  serve(logicalTopic: string, group: string, handler: RequestHandler): Promise<Subscription> {
    const { namespace } = this.deps;
    const topic = namespace.scoped(logicalTopic);
    return this.deps.groups.consume(
      group,
      namespace.scoped(group),
      [topic],
      (message, raw) => this.answer(topic, group, handler, message, raw.headers),
      { fromBeginning: true },
    );
  }

  private async answer(
    topic: string,
    group: string,
    handler: RequestHandler,
    message: BusMessage,
    headers: RawHeaders,
  ): Promise<void> {
    const replyTo = headers[HEADER.replyTo];
    const correlationId = headers[HEADER.correlationId];
    if (!replyTo || !correlationId) {
      this.deps.onHandlerError?.(new Error(`request on ${topic} without reply-to/correlation-id`), message);
      return;
    }
    // The command runs in a span whose parent is the requester's, so its events join the trace.
    await this.deps.tracing.consume(group, message, async (span) => {
      let reply: Reply;
      try {
        reply = { result: await handler(message) };
      } catch (error) {
        // The caller gets the failure; retrying here would run a command it has already given up on.
        reply = { error: error instanceof Error ? error.message : String(error) };
        span?.setAttribute('analyst.request.failed', true);
      }
      await this.sendReply(replyTo, headers[HEADER.replyInstance], correlationId, reply, message);
    });
  }

  private async sendReply(
    replyTo: string,
    replyInstance: string | undefined,
    correlationId: string,
    reply: Reply,
    request: BusMessage,
  ): Promise<void> {
    const record = {
      key: replyInstance ?? correlationId,
      value: JSON.stringify(reply),
      headers: {
        [HEADER.correlationId]: correlationId,
        ...(replyInstance ? { [HEADER.replyInstance]: replyInstance } : {}),
      },
    };
    const { topics } = this.deps;
    let gone = false;
    try {
      await this.deps.producer.send(replyTo, [record], {
        // A reply topic that no longer exists (an older requester's own topic, deleted when it left) is never retried.
        retryIf: async (error) =>
          !(gone = isTopicMetadataError(error) && !(await topics.topicExists(replyTo))),
      });
    } catch (error) {
      if (!gone) throw error; // the command is handled again (handlers are idempotent) rather than left unanswered
      this.deps.onHandlerError?.(new Error(`reply dropped: its topic ${replyTo} no longer exists`), request);
    }
  }
}
