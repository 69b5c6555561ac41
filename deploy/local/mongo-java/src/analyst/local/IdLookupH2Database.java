package analyst.local;

import java.lang.reflect.Field;

import de.bwaldvogel.mongo.MongoCollection;
import de.bwaldvogel.mongo.backend.CollectionOptions;
import de.bwaldvogel.mongo.backend.CursorRegistry;
import de.bwaldvogel.mongo.backend.h2.H2Database;
import de.bwaldvogel.mongo.bson.Document;
import org.h2.mvstore.MVMap;
import org.h2.mvstore.MVStore;

/** An H2 database whose collections are IdLookupH2Collection, on the library's own maps. */
final class IdLookupH2Database extends H2Database {

    IdLookupH2Database(String name, MVStore store, CursorRegistry cursors) {
        super(name, store, cursors);
    }

    @Override
    protected MongoCollection<Object> openOrCreateCollection(String name, CollectionOptions options) {
        String namespace = getFullCollectionNamespace(name);
        // The map names the library gives a collection, so a data file written before is read as it was.
        MVStore store = storeOf(this);
        MVMap<Object, Document> data = store.openMap("databases." + namespace);
        MVMap<String, Object> meta = store.openMap("meta." + namespace);
        return new IdLookupH2Collection(this, name, options, data, meta, cursorRegistry);
    }

    /**
     * The database's store, from the library's private field: the super constructor opens the existing
     * collections (through the method above) before a field of this class could be assigned.
     */
    private static MVStore storeOf(H2Database database) {
        try {
            Field field = H2Database.class.getDeclaredField("mvStore");
            field.setAccessible(true);
            return (MVStore) field.get(database);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("mongo-java-server's H2Database has no mvStore field", e);
        }
    }
}
