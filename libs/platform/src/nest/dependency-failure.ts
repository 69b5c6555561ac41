import { DependencyUnavailableError, RequestTimeoutError, type Dependency } from '@analyst/eventsourcing';

/** What a 503 tells the client to wait before trying again: about one broker or server restart's worth of patience, split into retries. */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;

/** The code a 503 carries. The specification names no code for it; the HTTP reason phrase, in the API's snake case. */
export const DEPENDENCY_UNAVAILABLE_CODE = 'service_unavailable';

/** kafkajs errors that mean the brokers cannot be reached or did not answer (their own retries included). */
const KAFKA_UNREACHABLE = new Set([
  'KafkaJSConnectionError',
  'KafkaJSConnectionClosedError',
  'KafkaJSRequestTimeoutError',
  'KafkaJSBrokerNotFound',
  'KafkaJSNoBrokerAvailableError',
  'KafkaJSNumberOfRetriesExceeded',
  'KafkaJSLockTimeout',
]);

/** MongoDB driver errors that mean no server answered: none selectable, the connection dropped or timed out. */
const MONGO_UNREACHABLE = new Set([
  'MongoServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoServerClosedError',
]);

/**
 * The error as "a dependency is unavailable", or null when it is something else (a bug, a rule).
 * Drivers' errors are told apart by name, so the platform needs none of the drivers; a request-reply
 * that got no answer in time means the service behind the topic (the ledger) is unavailable.
 */
export function asDependencyUnavailable(error: unknown): DependencyUnavailableError | null {
  if (error instanceof DependencyUnavailableError) return error;
  if (error instanceof RequestTimeoutError) return unavailable('ledger', error);
  // kafkajs wraps what its retries gave up on (a non-retriable error around a lost connection).
  for (let e: unknown = error, depth = 0; e && depth < 4; depth++) {
    const { name, cause, originalError } = e as { name?: unknown; cause?: unknown; originalError?: unknown };
    if (typeof name !== 'string') return null;
    if (KAFKA_UNREACHABLE.has(name)) return unavailable('message broker', error as Error);
    if (MONGO_UNREACHABLE.has(name)) return unavailable('read store', error as Error);
    e = cause ?? originalError;
  }
  return null;
}

function unavailable(dependency: Dependency, cause: Error): DependencyUnavailableError {
  return new DependencyUnavailableError(dependency, cause.message, { cause });
}

/** The client's message: which dependency, that the request may simply be sent again, and when. */
export function dependencyUnavailableMessage(error: DependencyUnavailableError): string {
  return `service unavailable: the ${error.dependency} is not answering; send the request again after ${DEPENDENCY_RETRY_AFTER_SECONDS} s`;
}
