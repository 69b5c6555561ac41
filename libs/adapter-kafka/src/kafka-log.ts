import { logLevel, type LogEntry, type logCreator } from 'kafkajs';
import { jsonLogLine } from './json-log-line';

/** The slice of a pino logger kafkajs' warnings and errors are routed to. */
export interface KafkaLogSink {
  error(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/**
 * kafkajs logs every error response at connection level before its caller handles it. Two are part
 * of normal operation: a topic that already exists (createTopics treats it as success; real
 * failures still reach us as exceptions) and a heartbeat answered "rebalancing" (the consumer rejoins).
 */
function routine(entry: LogEntry): boolean {
  const { message } = entry.log;
  const error: unknown = entry.log.error;
  return (
    (message.includes('Response CreateTopics') && error === 'Topic creation errors') ||
    (message.includes('Response Heartbeat') && typeof error === 'string' && error.includes('rebalancing'))
  );
}

/**
 * Without a sink only errors are printed, as one JSON line in pino's shape on stderr (kafkajs' own
 * default prints INFO lines, with a string level); with a sink, warnings and errors go to the
 * service's logger.
 */
export function kafkaLogging(sink: KafkaLogSink | undefined): { logLevel: logLevel; logCreator: logCreator } {
  const creator: logCreator = () => (entry: LogEntry) => {
    if (routine(entry)) return;
    const { message, ...extra } = entry.log;
    const fields = { ...extra, kafkaNamespace: entry.namespace };
    if (!sink) {
      if (entry.level === logLevel.ERROR) process.stderr.write(`${jsonLogLine('error', fields, message)}\n`);
    } else if (entry.level === logLevel.ERROR) sink.error(fields, message);
    else if (entry.level === logLevel.WARN) sink.warn(fields, message);
  };
  return { logLevel: sink ? logLevel.WARN : logLevel.ERROR, logCreator: creator };
}
