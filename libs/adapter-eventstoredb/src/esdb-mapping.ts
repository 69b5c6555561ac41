import { jsonEvent, type EventData, type JSONType, type Position } from '@eventstore/db-client';
import type { EventMetadata, NewEvent, RecordedEvent } from '@analyst/eventsourcing';
import { esdbEventId } from './esdb-event-id';

/** Keys this adapter adds to an event's ESDB metadata next to ours. */
const SCHEMA_VERSION = 'schemaVersion';
const ORIGINAL_ID = 'originalEventId';

/** The fields read back from ESDB; both stream reads and $all reads have them. */
export interface EsdbRecord {
  streamId: string;
  id: string;
  type: string;
  revision: bigint;
  data: unknown;
  metadata: unknown;
  position?: Position;
}

export function toEventData(event: NewEvent): EventData {
  const { uuid, derived } = esdbEventId(event.id);
  const metadata: Record<string, unknown> = { ...event.metadata, [SCHEMA_VERSION]: event.schemaVersion };
  if (derived) metadata[ORIGINAL_ID] = event.id;
  return jsonEvent({ id: uuid, type: event.type, data: event.data as JSONType, metadata });
}

/** Events written by ESDB itself (`$`-prefixed types such as `$metadata`, or `$`-prefixed streams). */
export function isSystemEvent(record: Pick<EsdbRecord, 'type' | 'streamId'>): boolean {
  return record.type.startsWith('$') || record.streamId.startsWith('$');
}

/**
 * Global position as a number: the commit position. Events appended over gRPC are implicit
 * transactions, whose commit and prepare positions are equal, so it is unique per event and a valid
 * place to read from. (Exact up to 2^53 bytes of log.)
 */
export function positionNumber(position: Position): number {
  return Number(position.commit);
}

export function toRecorded(record: EsdbRecord): RecordedEvent {
  if (!record.position) {
    // Stream reads carry the $all position only from server 22.6 on.
    throw new Error(
      `EventStoreDB returned ${record.streamId}@${record.revision} without a position (server >= 22.6 required)`,
    );
  }
  const stored =
    record.metadata &&
    typeof record.metadata === 'object' &&
    !Array.isArray(record.metadata) &&
    !(record.metadata instanceof Uint8Array)
      ? (record.metadata as Record<string, unknown>)
      : {};
  const { [SCHEMA_VERSION]: schemaVersion, [ORIGINAL_ID]: originalId, ...metadata } = stored;
  return {
    id: typeof originalId === 'string' ? originalId : record.id,
    type: record.type,
    schemaVersion: typeof schemaVersion === 'number' ? schemaVersion : 1,
    data: record.data,
    metadata: metadata as unknown as EventMetadata,
    streamId: record.streamId,
    revision: Number(record.revision),
    position: positionNumber(record.position),
  };
}
