import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, kafkaDeliverySettings, loadConfig, trustedProxies } from '@analyst/platform';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBdummy\n-----END CERTIFICATE-----\n';
const DISTRIBUTED = {
  ANALYST_MODE: 'distributed',
  KAFKA_BROKERS: '127.0.0.1:9092',
  MONGO_URL: 'mongodb://127.0.0.1:27017/',
  ANALYST_INTERNAL_SECRET: 'config-test-internal-secret-0123456789',
  EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=true',
};

/** The ConfigError message for `env`, or null when it loads. */
function problems(env: Record<string, string>): string | null {
  try {
    loadConfig(env);
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('configuration: safe production defaults', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'analyst-config-'));
    writeFileSync(join(dir, 'ca.pem'), PEM);
    writeFileSync(join(dir, 'not-a-cert.txt'), 'hello');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  describe('ANALYST_DEMO', () => {
    it('is off unless asked', () => {
      expect(loadConfig({}).ANALYST_DEMO).toBe(false);
      expect(loadConfig({ ANALYST_DEMO: '1' }).ANALYST_DEMO).toBe(true);
      expect(loadConfig({ ANALYST_DEMO: '0' }).ANALYST_DEMO).toBe(false);
    });

    it('names a value that is neither 1 nor 0', () => {
      expect(problems({ ANALYST_DEMO: 'yes' })).toContain('ANALYST_DEMO: ANALYST_DEMO must be 1 or 0');
    });
  });

  describe('event store of the distributed topology', () => {
    it('refuses to start without EVENTSTORE_URL rather than falling back to a local SQLite file', () => {
      const { EVENTSTORE_URL: _url, ...withoutStore } = DISTRIBUTED;
      expect(problems(withoutStore)).toContain('EVENTSTORE_URL: required when ANALYST_MODE=distributed');
    });

    it('accepts an explicit ANALYST_EVENTSTORE=sqlite:<path> instead', () => {
      const { EVENTSTORE_URL: _url, ...withoutStore } = DISTRIBUTED;
      expect(
        loadConfig({ ...withoutStore, ANALYST_EVENTSTORE: 'sqlite:/tmp/x/events.db' }).ANALYST_EVENTSTORE,
      ).toBe('sqlite:/tmp/x/events.db');
    });

    it('names a malformed ANALYST_EVENTSTORE and a choice of both', () => {
      expect(problems({ ...DISTRIBUTED, ANALYST_EVENTSTORE: '/tmp/events.db' })).toContain(
        'ANALYST_EVENTSTORE must be sqlite:<path',
      );
      expect(problems({ ...DISTRIBUTED, ANALYST_EVENTSTORE: 'sqlite:/tmp/events.db' })).toContain(
        'ANALYST_EVENTSTORE: set either EVENTSTORE_URL',
      );
    });

    it('leaves standalone alone (it always has its own log in the data dir)', () => {
      expect(problems({})).toBeNull();
    });
  });

  describe('Kafka topic durability', () => {
    it('defaults to one replica and the broker min.insync.replicas', () => {
      const config = loadConfig({});
      expect(config.KAFKA_REPLICATION_FACTOR).toBe(1);
      expect(config.KAFKA_MIN_INSYNC_REPLICAS).toBeUndefined();
      expect(kafkaDeliverySettings(config)).toEqual({ replicationFactor: 1 });
    });

    it('passes both values to the bus options', () => {
      const config = loadConfig({ KAFKA_REPLICATION_FACTOR: '3', KAFKA_MIN_INSYNC_REPLICAS: '2' });
      expect(kafkaDeliverySettings(config)).toEqual({ replicationFactor: 3, minInsyncReplicas: 2 });
    });

    it('names a non-integer factor and a min ISR above the factor', () => {
      expect(problems({ KAFKA_REPLICATION_FACTOR: 'three' })).toContain('KAFKA_REPLICATION_FACTOR:');
      expect(problems({ KAFKA_REPLICATION_FACTOR: '0' })).toContain(
        'KAFKA_REPLICATION_FACTOR: KAFKA_REPLICATION_FACTOR must not be less than 1',
      );
      expect(problems({ KAFKA_REPLICATION_FACTOR: '1', KAFKA_MIN_INSYNC_REPLICAS: '2' })).toContain(
        'KAFKA_MIN_INSYNC_REPLICAS: 2 is more than KAFKA_REPLICATION_FACTOR (1)',
      );
    });
  });

  describe('CA files', () => {
    it('accepts readable PEM files and hands the Kafka one to the bus as ssl.ca', () => {
      const ca = join(dir, 'ca.pem');
      const config = loadConfig({
        ...DISTRIBUTED,
        EVENTSTORE_CA_FILE: ca,
        KAFKA_CA_FILE: ca,
        MONGO_CA_FILE: ca,
      });
      expect(config.EVENTSTORE_CA_FILE).toBe(ca);
      expect(config.MONGO_CA_FILE).toBe(ca);
      expect(kafkaDeliverySettings(config).ssl).toEqual({ ca: [PEM] });
    });

    it('names each missing, non-PEM or unreadable file', () => {
      const message = problems({
        EVENTSTORE_CA_FILE: join(dir, 'missing.pem'),
        KAFKA_CA_FILE: join(dir, 'not-a-cert.txt'),
        MONGO_CA_FILE: dir,
      });
      expect(message).toContain(`EVENTSTORE_CA_FILE: ${join(dir, 'missing.pem')} cannot be read (ENOENT)`);
      expect(message).toContain(`KAFKA_CA_FILE: ${join(dir, 'not-a-cert.txt')} holds no PEM certificate`);
      expect(message).toContain(`MONGO_CA_FILE: ${dir} is not a file`);
    });

    it('names an unreadable file', () => {
      if (process.getuid?.() === 0) return; // root reads any file: nothing to refuse
      const locked = join(dir, 'locked.pem');
      writeFileSync(locked, PEM);
      chmodSync(locked, 0o000);
      expect(problems({ MONGO_CA_FILE: locked })).toContain(
        `MONGO_CA_FILE: ${locked} cannot be read (EACCES)`,
      );
    });

    it('names a CA file given with a connection string that turns TLS off', () => {
      const ca = join(dir, 'ca.pem');
      expect(
        problems({
          ...DISTRIBUTED,
          EVENTSTORE_URL: 'esdb://127.0.0.1:2113?tls=false',
          EVENTSTORE_CA_FILE: ca,
        }),
      ).toContain('EVENTSTORE_CA_FILE: given, but the connection string turns TLS off');
    });
  });

  describe('ANALYST_UPSTREAM_TIMEOUT_MS', () => {
    it('defaults to two minutes, room for a 100-link add', () => {
      expect(loadConfig({}).ANALYST_UPSTREAM_TIMEOUT_MS).toBe(120_000);
      expect(loadConfig({ ANALYST_UPSTREAM_TIMEOUT_MS: '45000' }).ANALYST_UPSTREAM_TIMEOUT_MS).toBe(45_000);
    });

    it('names a value outside 1,000..600,000 or not an integer', () => {
      expect(problems({ ANALYST_UPSTREAM_TIMEOUT_MS: '999' })).toContain(
        'ANALYST_UPSTREAM_TIMEOUT_MS: ANALYST_UPSTREAM_TIMEOUT_MS must not be less than 1000',
      );
      expect(problems({ ANALYST_UPSTREAM_TIMEOUT_MS: '600001' })).toContain(
        'ANALYST_UPSTREAM_TIMEOUT_MS must not be greater than 600000',
      );
      expect(problems({ ANALYST_UPSTREAM_TIMEOUT_MS: '2m' })).toContain(
        'ANALYST_UPSTREAM_TIMEOUT_MS must be an integer number of milliseconds',
      );
    });
  });

  describe('ANALYST_TRUST_PROXY', () => {
    it('trusts nothing by default', () => {
      expect(trustedProxies(loadConfig({}).ANALYST_TRUST_PROXY)).toBeNull();
    });

    it('matches peers inside the listed ranges, IPv4-mapped IPv6 included', () => {
      const trust = trustedProxies(
        loadConfig({ ANALYST_TRUST_PROXY: '10.0.0.0/8, 192.168.1.7, fd00::/8' }).ANALYST_TRUST_PROXY,
      )!;
      expect(['10.1.2.3', '::ffff:10.9.9.9', '192.168.1.7', 'fd00::1'].map(trust)).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(['11.0.0.1', '192.168.1.8', 'fe80::1', 'not-an-ip'].map(trust)).toEqual([
        false,
        false,
        false,
        false,
      ]);
    });

    it('names an entry that is not an address or CIDR', () => {
      expect(problems({ ANALYST_TRUST_PROXY: '10.0.0.0/8,10.0.0.0/33' })).toContain(
        'ANALYST_TRUST_PROXY: "10.0.0.0/33" is not an IP address or CIDR range',
      );
      expect(problems({ ANALYST_TRUST_PROXY: 'proxy.internal' })).toContain(
        'ANALYST_TRUST_PROXY: "proxy.internal" is not an IP address or CIDR range',
      );
    });
  });

  describe('relay lease timing', () => {
    it('defaults to a 6 s lease renewed every 2 s', () => {
      const config = loadConfig({});
      expect([config.ANALYST_RELAY_LEASE_TTL_MS, config.ANALYST_RELAY_LEASE_RENEW_MS]).toEqual([
        6_000, 2_000,
      ]);
    });

    it('names a renewal interval that does not fit twice into the TTL', () => {
      expect(
        problems({ ANALYST_RELAY_LEASE_TTL_MS: '4000', ANALYST_RELAY_LEASE_RENEW_MS: '2000' }),
      ).toContain(
        'ANALYST_RELAY_LEASE_RENEW_MS: 2000 must be less than half of ANALYST_RELAY_LEASE_TTL_MS (4000)',
      );
    });
  });

  it('names every bad variable at once', () => {
    const message = problems({
      ANALYST_DEMO: 'maybe',
      ANALYST_TRUST_PROXY: 'x',
      ANALYST_UPSTREAM_TIMEOUT_MS: '5',
      KAFKA_REPLICATION_FACTOR: '-1',
    })!;
    for (const name of [
      'ANALYST_DEMO',
      'ANALYST_TRUST_PROXY',
      'ANALYST_UPSTREAM_TIMEOUT_MS',
      'KAFKA_REPLICATION_FACTOR',
    ])
      expect(message).toContain(`${name}:`);
  });
});
