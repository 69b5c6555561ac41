package analyst.local;

import java.util.ArrayList;
import java.util.List;

import de.bwaldvogel.mongo.MongoDatabase;
import de.bwaldvogel.mongo.backend.QueryResult;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import de.bwaldvogel.mongo.bson.Document;
import de.bwaldvogel.mongo.wire.message.MongoQuery;
import io.netty.channel.Channel;

/**
 * mongo-java-server's H2 backend, made to answer as MongoDB does under concurrent writers.
 *
 * The library applies each write under its collection's lock, but its answers hold the stored
 * documents themselves, which later writes change in place, and they are encoded after the lock is
 * released: a findOneAndUpdate could return another client's later value (8 clients of `$inc` for
 * 2 s got up to 147 counts that another client got too) and a find could catch a document half
 * rewritten. Here every command runs alone and its answer is a deep copy taken before the next
 * command starts. Its collections look queries naming `_id` up by their `_id` index, as MongoDB does
 * (IdLookupH2Collection).
 */
final class IsolatedH2Backend extends H2Backend {

    IsolatedH2Backend(String fileName) {
        super(fileName);
    }

    @Override
    public synchronized Document handleCommand(Channel channel, String databaseName, String command, Document query) {
        return super.handleCommand(channel, databaseName, command, query).cloneDeeply();
    }

    @Override
    protected MongoDatabase openOrCreateDatabase(String databaseName) {
        return new IdLookupH2Database(databaseName, getMvStore(), getCursorRegistry());
    }

    /** Legacy OP_QUERY, still sent by some clients for the first handshake. */
    @Override
    public synchronized QueryResult handleQuery(MongoQuery query) {
        QueryResult result = super.handleQuery(query);
        List<Document> copies = new ArrayList<>();
        for (Document document : result) {
            copies.add(document.cloneDeeply());
        }
        return new QueryResult(copies, result.getCursorId());
    }
}
