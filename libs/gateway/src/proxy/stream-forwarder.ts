import { request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { INTERNAL_AUTH_HEADER } from '../internal/internal-auth';
import { failure, refusedAtConnect, sendFailure } from './forward-failures';
import type { Replica } from './replica-discovery';

/** Hop-by-hop headers (RFC 9110 7.6.1) and what the connection recomputes: never passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-authenticate',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'host',
  'content-length',
]);

/** A server-sent event stream: passed on as it comes, never buffered. */
function isEventStream(contentType: unknown): boolean {
  return typeof contentType === 'string' && /^text\/event-stream\b/i.test(contentType);
}

export interface StreamForward {
  request: FastifyRequest;
  reply: FastifyReply;
  /** In the order to try them: a replica that refuses the connection is skipped for the next. */
  replicas: readonly Replica[];
  /** The gateway's own headers (internal auth, correlation id, trace context), over the client's. */
  headers: Record<string, string>;
  /** The longest wait for the answer's head, and the longest silence in its body after. */
  timeoutMs: number;
  onAnswered(replica: Replica): void;
  onRefused(replica: Replica): void;
  /** The forward is over for the handler (the stream itself may go on); the error when it failed. */
  onSettled(error?: Error): void;
}

/** The upstream body of a stream being passed on, and the client's response it is piped into. */
interface Passing {
  upstream: IncomingMessage;
  reply: FastifyReply;
}

/**
 * Forwards the stream routes (`GET /events`) on node:http, one connection per stream outside the
 * proxy's pooled client (whose pool keeps at most 128 connections per replica: open streams
 * would hold them all and queue every other request to that service). A `text/event-stream`
 * answer is piped to the client as it arrives (Fastify's pipe: backpressure included); the client
 * going away destroys the upstream body, which closes the connection, so the notifier's stream
 * ends. Any other answer (an error envelope) is read whole and sent as the proxy sends answers,
 * so the byte accounting sees it. At shutdown every stream passing through is ended.
 */
export class StreamForwarder {
  private readonly passing = new Set<Passing>();

  forward(forward: StreamForward): void {
    this.attempt(forward, 0);
  }

  /** Ends every stream passing through (the clients reconnect, with Last-Event-ID, elsewhere). */
  closeAll(): void {
    for (const { upstream, reply } of this.passing) {
      upstream.unpipe(reply.raw);
      reply.raw.end();
      upstream.destroy();
    }
    this.passing.clear();
  }

  /** Streams passing through now. */
  get count(): number {
    return this.passing.size;
  }

  private attempt(forward: StreamForward, index: number): void {
    const { request, reply, replicas } = forward;
    const replica = replicas[index];
    const target = new URL(`${replica.base}${request.url}`);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const upstreamRequest = send(target, {
      method: 'GET',
      headers: this.headersFor(request, forward.headers),
      // A connection of its own, closed with the stream: no pool to fill.
      agent: false,
    });
    let answered = false;
    // Before the head: the whole wait; after: the longest silence between two chunks.
    upstreamRequest.setTimeout(forward.timeoutMs, () =>
      upstreamRequest.destroy(Object.assign(new Error('upstream timeout'), { statusCode: 504 })),
    );
    const clientGone = () => {
      if (!answered) upstreamRequest.destroy();
    };
    reply.raw.once('close', clientGone);
    upstreamRequest.on('error', (error: Error) => {
      if (answered) return; // the body's own error ends the piped response (Fastify)
      reply.raw.off('close', clientGone);
      if (reply.raw.destroyed) return forward.onSettled(error);
      if (refusedAtConnect(error)) {
        forward.onRefused(replica);
        if (index + 1 < replicas.length) return this.attempt(forward, index + 1);
      }
      sendFailure(reply, failure(error));
      forward.onSettled(error);
    });
    upstreamRequest.on('response', (upstream) => {
      answered = true;
      reply.raw.off('close', clientGone);
      forward.onAnswered(replica);
      void reply.code(upstream.statusCode ?? 502);
      for (const [name, value] of Object.entries(upstream.headers))
        if (value !== undefined && !HOP_BY_HOP.has(name)) void reply.header(name, value);
      if (isEventStream(upstream.headers['content-type'])) {
        const passing: Passing = { upstream, reply };
        this.passing.add(passing);
        upstream.once('close', () => this.passing.delete(passing));
        void reply.send(upstream);
        forward.onSettled();
        return;
      }
      const chunks: Buffer[] = [];
      upstream.on('data', (chunk: Buffer) => chunks.push(chunk));
      upstream.on('end', () => {
        void reply.send(Buffer.concat(chunks));
        forward.onSettled();
      });
      upstream.on('error', (error: Error) => {
        sendFailure(reply, failure(error));
        forward.onSettled(error);
      });
    });
    upstreamRequest.end();
  }

  /** The client's headers less the hop-by-hop ones and a spoofed internal auth header, plus the gateway's. */
  private headersFor(request: FastifyRequest, own: Record<string, string>): OutgoingHttpHeaders {
    const headers: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(request.headers))
      if (value !== undefined && !HOP_BY_HOP.has(name) && name !== INTERNAL_AUTH_HEADER)
        headers[name] = value;
    return { ...headers, ...own };
  }
}
