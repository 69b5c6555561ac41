import {
  type Doc,
  type IndexSpec,
  type ReadCollection,
  type RecordedEvent,
  UNKNOWN_INDEX,
  valueAt,
} from '@analyst/eventsourcing';

/** A document write a projection skipped because another document holds the same unique value. */
export interface ProjectionConflict {
  projector: string;
  collection: string;
  documentId: string;
  /** The unique index that refused the write, or UNKNOWN_INDEX. */
  index: string;
  /** The document already holding the value, when it could be found. */
  clashingId: string | null;
  event: Pick<RecordedEvent, 'id' | 'type' | 'streamId' | 'revision' | 'position'>;
}

function indexName(index: IndexSpec): string {
  return index.name ?? Object.keys(index.keys).join('_');
}

/**
 * Another document holding the unique values `doc` was refused for: on the named index when the
 * store named it, else on any unique index the projector declares. `null` when there is none now
 * (the clash was a race that has since resolved).
 */
export async function findUniqueClash(
  collection: ReadCollection<Doc>,
  indexes: readonly IndexSpec[],
  doc: Doc,
  refusedBy: string,
): Promise<{ index: string; clashingId: string } | null> {
  const uniques = indexes.filter(
    (i) => i.unique && (refusedBy === UNKNOWN_INDEX || indexName(i) === refusedBy),
  );
  for (const index of uniques) {
    const filter: Record<string, unknown> = { _id: { $ne: doc._id } };
    for (const key of Object.keys(index.keys)) filter[key] = valueAt(doc, key) ?? null;
    const other = await collection.findOne(filter, { projection: { _id: 1 } });
    if (other) return { index: indexName(index), clashingId: other._id };
  }
  return null;
}
