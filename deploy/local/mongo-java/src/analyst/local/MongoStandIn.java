package analyst.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;

/**
 * The local stack's MongoDB stand-in: mongo-java-server on its H2 (MVStore) backend, one data file,
 * listening on one address. Usage: MongoStandIn <host> <port> <data file>.
 *
 * Commands run one at a time (IsolatedH2Backend), so single-document updates are atomic and every
 * answer is what its own command saw, as on MongoDB. The library reports wire version 8 by default,
 * which the mongodb 7 driver refuses (it needs 9, MongoDB 4.4).
 */
public final class MongoStandIn {

    /** What the server announces in hello/buildInfo: the oldest MongoDB the mongodb 7 driver accepts. */
    private static final MongoVersion ANNOUNCED = new MongoVersion() {
        @Override
        public List<Integer> getVersionArray() {
            return List.of(4, 4, 0);
        }

        @Override
        public int getWireVersion() {
            return 9;
        }
    };

    private MongoStandIn() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: MongoStandIn <host> <port> <data file>");
            System.exit(2);
        }
        String host = args[0];
        int port = Integer.parseInt(args[1]);
        Path dataFile = Path.of(args[2]).toAbsolutePath();
        Files.createDirectories(dataFile.getParent());

        IsolatedH2Backend backend = new IsolatedH2Backend(dataFile.toString());
        backend.version(ANNOUNCED);
        MongoServer server = new MongoServer(backend);
        // SIGTERM (stop.sh): drop the clients and close the store, which writes its last changes to the file.
        Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "mongo-stand-in-shutdown"));
        server.bind(host, port);
        System.err.println("mongo stand-in listening on " + host + ":" + port + ", data in " + dataFile);
    }
}
