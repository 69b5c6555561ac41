package analyst.local;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.Index;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Collection;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;

/**
 * An H2 collection that finds the documents of a query naming `_id` (one value, or `$in` of values)
 * through its `_id` index, whatever other fields the query names beside it. The library uses an
 * index only when the query names that index's fields and nothing else, and otherwise reads every
 * document of the collection; MongoDB looks such queries up by `_id` (a team's post analyses by
 * `{teamId, _id: {$in: [...]}}`, every conditional write by `{_id, _version}`), so without this the
 * local stack paid a scan of the collection where production pays a lookup. Every document found is
 * still matched against the whole query.
 */
final class IdLookupH2Collection extends H2Collection {

    IdLookupH2Collection(MongoDatabase database, String name, CollectionOptions options,
                         MVMap<Object, Document> data, MVMap<String, Object> meta, CursorRegistry cursors) {
        super(database, name, options, data, meta, cursors);
    }

    @Override
    protected QueryResult queryDocuments(Document query, Document orderBy, int skip, int limit, int batchSize,
                                         Document fieldSelector) {
        if (query.size() > 1 && query.containsKey("_id")) {
            Document byId = new Document("_id", query.get("_id"));
            for (Index<Object> index : getIndexes()) {
                if (index.canHandle(byId)) {
                    return matchDocuments(query, index.getPositions(byId), orderBy, skip, limit, batchSize,
                        fieldSelector);
                }
            }
        }
        return super.queryDocuments(query, orderBy, skip, limit, batchSize, fieldSelector);
    }
}
