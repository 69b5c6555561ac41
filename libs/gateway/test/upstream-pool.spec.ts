import {
  UpstreamPool,
  parseUpstreamList,
  rendezvousOrder,
  type ProbeResult,
  type Replica,
  type UpstreamService,
  type UpstreamUrl,
} from '@analyst/gateway';

function urls(variable: string, text: string): UpstreamUrl[] {
  const parsed = parseUpstreamList(variable, text);
  expect(parsed.problems).toEqual([]);
  return parsed.urls;
}

/** A pool whose DNS answers and /readyz answers the test sets; the timers never start (no start()). */
function poolOf(lists: Partial<Record<UpstreamService, string>>) {
  const dns = new Map<string, string[] | NodeJS.ErrnoException>();
  const probes = new Map<string, ProbeResult>();
  const probed: string[] = [];
  const upstreams = {
    ingest: urls('I', lists.ingest ?? 'http://10.9.0.1:8080'),
    ledger: urls('L', lists.ledger ?? 'http://10.9.0.2:8080'),
    analysis: urls('A', lists.analysis ?? 'http://10.9.0.3:8080'),
    sampling: urls('S', lists.sampling ?? 'http://10.9.0.4:8080'),
    notifier: urls('N', lists.notifier ?? 'http://10.9.0.5:8080'),
  };
  const pool = new UpstreamPool(upstreams, {
    resolve: async (host) => {
      const answer = dns.get(host);
      if (answer === undefined || answer instanceof Error)
        throw answer ?? Object.assign(new Error(host), { code: 'ENOTFOUND' });
      return answer;
    },
    probe: async (replica: Replica) => {
      probed.push(replica.id);
      return probes.get(replica.id) ?? 'ready';
    },
  });
  return { pool, dns, probes, probed };
}

const ids = (replicas: Replica[]) => replicas.map((r) => r.id);
const teams = Array.from({ length: 400 }, (_, i) => `tm_${i}`);

describe('UpstreamPool', () => {
  it('sends a team to the same replica of analysis every time, its rendezvous first choice, and each replica gets a share', async () => {
    const { pool } = poolOf({ analysis: 'http://10.0.0.1:8080,http://10.0.0.2:8080,http://10.0.0.3:8080' });
    await pool.probeAll();
    const first = new Map<string, number>();
    for (const team of teams) {
      const order = ids(pool.candidates('analysis', team));
      expect(ids(pool.candidates('analysis', team))).toEqual(order);
      expect(order).toEqual(ids(rendezvousOrder(team, pool.candidates('analysis', team))));
      expect(order).toHaveLength(3);
      first.set(order[0], (first.get(order[0]) ?? 0) + 1);
    }
    expect([...first.keys()].sort()).toEqual(['10.0.0.1:8080', '10.0.0.2:8080', '10.0.0.3:8080']);
    for (const count of first.values()) expect(count).toBeGreaterThan(100);
  });

  it('puts a replica whose /readyz is not 200 behind the ready ones, and first again once it is ready', async () => {
    const { pool, probes } = poolOf({ sampling: 'http://10.0.0.1:8080,http://10.0.0.2:8080' });
    await pool.probeAll();
    const onFirst = teams.filter((t) => pool.candidates('sampling', t)[0].id === '10.0.0.1:8080');
    expect(onFirst.length).toBeGreaterThan(100);
    probes.set('10.0.0.1:8080', 'not_ready');
    await pool.probeAll();
    for (const team of onFirst)
      expect(ids(pool.candidates('sampling', team))).toEqual(['10.0.0.2:8080', '10.0.0.1:8080']);
    expect(pool.counts('sampling')).toEqual({ known: 2, ready: 1 });
    probes.set('10.0.0.1:8080', 'ready');
    await pool.probeAll();
    for (const team of onFirst) expect(pool.candidates('sampling', team)[0].id).toBe('10.0.0.1:8080');
  });

  it('a refused connection takes the replica out at once, until a later probe finds it ready', async () => {
    const { pool } = poolOf({ analysis: 'http://10.0.0.1:8080,http://10.0.0.2:8080' });
    await pool.probeAll();
    const team = teams.find((t) => pool.candidates('analysis', t)[0].id === '10.0.0.1:8080')!;
    pool.markRefused('analysis', pool.candidates('analysis', team)[0]);
    expect(ids(pool.candidates('analysis', team))).toEqual(['10.0.0.2:8080']);
    await pool.probeAll();
    expect(ids(pool.candidates('analysis', team))).toEqual(['10.0.0.1:8080', '10.0.0.2:8080']);
  });

  it('a probe sent before a refusal does not bring the refused replica back', async () => {
    let release: (result: ProbeResult) => void = () => undefined;
    const upstreams = {
      ingest: urls('I', 'http://10.9.0.1:8080'),
      ledger: urls('L', 'http://10.9.0.2:8080'),
      analysis: urls('A', 'http://10.0.0.1:8080,http://10.0.0.2:8080'),
      sampling: urls('S', 'http://10.9.0.4:8080'),
      notifier: urls('N', 'http://10.9.0.5:8080'),
    };
    let slow = false;
    const pool = new UpstreamPool(upstreams, {
      probe: (replica) =>
        slow && replica.id === '10.0.0.1:8080'
          ? new Promise<ProbeResult>((resolve) => (release = resolve))
          : Promise.resolve('ready'),
    });
    await pool.probeAll();
    slow = true;
    const probing = pool.probeAll();
    pool.markRefused(
      'analysis',
      pool.candidates('analysis', null).find((r) => r.id === '10.0.0.1:8080')!,
    );
    release('ready');
    await probing;
    expect(pool.counts('analysis')).toEqual({ known: 2, ready: 1 });
  });

  it('with none ready, those that answer are tried; with all refused, none; a single replica is always tried, as before lists', async () => {
    const { pool, probes, probed } = poolOf({
      analysis: 'http://10.0.0.1:8080,http://10.0.0.2:8080',
      sampling: 'http://10.0.0.3:8080',
    });
    probes.set('10.0.0.1:8080', 'refused');
    probes.set('10.0.0.2:8080', 'not_ready');
    probes.set('10.0.0.3:8080', 'refused');
    await pool.probeAll();
    expect(ids(pool.candidates('analysis', 'tm_1'))).toEqual(['10.0.0.2:8080']);
    expect(ids(pool.candidates('analysis', null))).toEqual(['10.0.0.2:8080']);
    probes.set('10.0.0.2:8080', 'refused');
    await pool.probeAll();
    expect(pool.candidates('analysis', 'tm_1')).toEqual([]);
    expect(pool.candidates('analysis', null)).toEqual([]);
    expect(pool.counts('analysis')).toEqual({ known: 2, ready: 0 });
    // One replica: never probed (routing would not change), ready unless its last forward was refused.
    expect(probed).not.toContain('10.0.0.3:8080');
    expect(ids(pool.candidates('sampling', 'tm_1'))).toEqual(['10.0.0.3:8080']);
    expect(pool.counts('sampling')).toEqual({ known: 1, ready: 1 });
    pool.markRefused('sampling', pool.candidates('sampling', 'tm_1')[0]);
    expect(ids(pool.candidates('sampling', 'tm_1'))).toEqual(['10.0.0.3:8080']);
    expect(pool.counts('sampling')).toEqual({ known: 1, ready: 0 });
    pool.markAnswered('sampling');
    expect(pool.counts('sampling')).toEqual({ known: 1, ready: 1 });
  });

  it('requests without a team, and every request to ingest, take the ready replicas in turn', async () => {
    const { pool } = poolOf({
      analysis: 'http://10.0.0.1:8080,http://10.0.0.2:8080',
      ingest: 'http://10.0.1.1:8080,http://10.0.1.2:8080',
    });
    await pool.probeAll();
    const firsts = (service: UpstreamService, team: string | null) =>
      Array.from({ length: 4 }, () => pool.candidates(service, team)[0].id);
    expect(firsts('analysis', null)).toEqual([
      '10.0.0.1:8080',
      '10.0.0.2:8080',
      '10.0.0.1:8080',
      '10.0.0.2:8080',
    ]);
    expect(firsts('ingest', 'tm_1')).toEqual([
      '10.0.1.1:8080',
      '10.0.1.2:8080',
      '10.0.1.1:8080',
      '10.0.1.2:8080',
    ]);
    expect(ids(pool.candidates('ingest', 'tm_1'))).toHaveLength(2);
  });

  it('re-resolves host names: a headless name yields a replica per address, new ones probed at once, gone ones dropped', async () => {
    const { pool, dns, probes, probed } = poolOf({ analysis: 'http://analysis-headless:8080' });
    dns.set('analysis-headless', ['10.1.0.1', '10.1.0.2']);
    await pool.resolveAll();
    expect(pool.counts('analysis')).toEqual({ known: 2, ready: 2 });
    expect(probed.sort()).toEqual(['10.1.0.1:8080', '10.1.0.2:8080']);
    const team = teams.find((t) => pool.candidates('analysis', t)[0].id === '10.1.0.2:8080')!;
    expect(pool.candidates('analysis', team)[0].base).toBe('http://10.1.0.2:8080');

    // A pod joins, not ready yet: known at once, sent nothing until its probe says ready.
    probes.set('10.1.0.3:8080', 'not_ready');
    dns.set('analysis-headless', ['10.1.0.3', '10.1.0.1', '10.1.0.2']);
    await pool.resolveAll();
    expect(pool.counts('analysis')).toEqual({ known: 3, ready: 2 });
    expect(probed.filter((id) => id === '10.1.0.3:8080')).toHaveLength(1);

    // A pod leaves: its teams go to their next choice among those left.
    dns.set('analysis-headless', ['10.1.0.1', '10.1.0.3']);
    await pool.resolveAll();
    expect(pool.counts('analysis')).toEqual({ known: 2, ready: 1 });
    expect(ids(pool.candidates('analysis', team))).toEqual(['10.1.0.1:8080', '10.1.0.3:8080']);

    // A failed lookup keeps what was known; a name with no address (no ready pod) empties the pool.
    dns.set('analysis-headless', Object.assign(new Error('timeout'), { code: 'EAI_AGAIN' }));
    await pool.resolveAll();
    expect(pool.counts('analysis')).toEqual({ known: 2, ready: 1 });
    dns.delete('analysis-headless');
    await pool.resolveAll();
    expect(pool.counts('analysis')).toEqual({ known: 0, ready: 0 });
    expect(pool.candidates('analysis', team)).toEqual([]);
  });

  it('IP literals and localhost are one replica each and are never looked up; https keeps its host name', async () => {
    const { pool, dns } = poolOf({
      analysis: 'http://127.0.0.1:9001,http://localhost:9002,http://[::1]:9003/base/',
      sampling: 'https://sampling.internal:8443',
    });
    dns.set('localhost', ['127.0.0.1', '::1']);
    dns.set('sampling.internal', ['10.0.0.7', '10.0.0.8']);
    await pool.resolveAll();
    await pool.probeAll();
    expect(
      pool
        .candidates('analysis', null)
        .map((r) => [r.id, r.base])
        .sort(),
    ).toEqual([
      ['127.0.0.1:9001', 'http://127.0.0.1:9001'],
      ['[::1]:9003/base', 'http://[::1]:9003/base'],
      ['localhost:9002', 'http://localhost:9002'],
    ]);
    expect(pool.candidates('sampling', 'tm_1').map((r) => r.base)).toEqual([
      'https://sampling.internal:8443',
    ]);
  });
});

describe('parseUpstreamList', () => {
  it('takes one URL or a comma-separated list', () => {
    expect(parseUpstreamList('ANALYST_UPSTREAM_ANALYSIS', 'http://analysis:8080/').urls).toEqual([
      {
        url: 'http://analysis:8080',
        protocol: 'http:',
        host: 'analysis',
        port: 8080,
        basePath: '',
        expand: true,
      },
    ]);
    expect(
      parseUpstreamList('ANALYST_UPSTREAM_ANALYSIS', ' http://10.0.0.1:8080 , http://10.0.0.2').urls.map(
        (u) => [u.url, u.port, u.expand],
      ),
    ).toEqual([
      ['http://10.0.0.1:8080', 8080, false],
      ['http://10.0.0.2', 80, false],
    ]);
  });

  it('names every bad entry and its variable', () => {
    const { problems } = parseUpstreamList(
      'ANALYST_UPSTREAM_SAMPLING',
      'http://a:8080,,analysis:8080,ftp://x,http://u:p@h:1,http://a:8080,http://h:1/?q=1',
    );
    expect(problems).toEqual([
      'ANALYST_UPSTREAM_SAMPLING: an empty entry in "http://a:8080,,analysis:8080,ftp://x,http://u:p@h:1,http://a:8080,http://h:1/?q=1"; separate URLs with single commas',
      'ANALYST_UPSTREAM_SAMPLING: "analysis:8080" is not http or https (analysis:)',
      'ANALYST_UPSTREAM_SAMPLING: "ftp://x" is not http or https (ftp:)',
      'ANALYST_UPSTREAM_SAMPLING: "http://u:p@h:1" carries credentials; the gateway signs its own requests',
      'ANALYST_UPSTREAM_SAMPLING: "http://a:8080" is listed twice',
      'ANALYST_UPSTREAM_SAMPLING: "http://h:1/?q=1" has a query or fragment; give a base URL',
    ]);
    expect(parseUpstreamList('ANALYST_UPSTREAM_LEDGER', undefined).problems).toEqual([
      'ANALYST_UPSTREAM_LEDGER: required (e.g. http://host:8080 or http://a:8080,http://b:8080)',
    ]);
    expect(parseUpstreamList('ANALYST_UPSTREAM_LEDGER', 'not a url').problems).toEqual([
      'ANALYST_UPSTREAM_LEDGER: "not a url" is not a URL; expected e.g. http://analysis:8080',
    ]);
  });
});
