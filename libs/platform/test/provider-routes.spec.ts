import { ConfigError, loadConfig } from '../src/config/analyst-config';
import { parseProviderRoutes, providerRoutes } from '../src/config/provider-routes';

describe('parseProviderRoutes (ANALYST_PROVIDERS)', () => {
  it('names platforms, * for the rest, and the fallback when there is no *', () => {
    expect(parseProviderRoutes('youtube=youtube,reddit=reddit,*=simulated', 'none')).toEqual({
      youtube: 'youtube',
      reddit: 'reddit',
      tiktok: 'simulated',
      instagram: 'simulated',
      facebook: 'simulated',
      x: 'simulated',
      linkedin: 'simulated',
      threads: 'simulated',
    });
    expect(parseProviderRoutes(' youtube=youtube ', 'none')).toEqual({
      youtube: 'youtube',
      reddit: 'none',
      tiktok: 'none',
      instagram: 'none',
      facebook: 'none',
      x: 'none',
      linkedin: 'none',
      threads: 'none',
    });
    expect(parseProviderRoutes('', 'simulated').reddit).toBe('simulated');
  });

  it('refuses malformed entries, unknown platforms and providers, and adapters on the wrong platform', () => {
    expect(() => parseProviderRoutes('youtube', 'none')).toThrow('"youtube" is not <platform>=<provider>');
    expect(() => parseProviderRoutes('myspace=simulated', 'none')).toThrow('"myspace" is not a platform');
    expect(() => parseProviderRoutes('youtube=scraper', 'none')).toThrow(
      '"scraper" is not a provider (youtube, reddit, simulated or none)',
    );
    expect(() => parseProviderRoutes('tiktok=youtube', 'none')).toThrow(
      'the youtube provider cannot serve tiktok',
    );
    expect(() => parseProviderRoutes('youtube=none,youtube=youtube', 'none')).toThrow(
      '"youtube" is named twice',
    );
  });
});

describe('provider variables in loadConfig', () => {
  const base = {
    ANALYST_MODE: 'distributed',
    KAFKA_BROKERS: 'k:9092',
    MONGO_URL: 'mongodb://m',
    ANALYST_INTERNAL_SECRET: 'x'.repeat(32),
    ANALYST_EVENTSTORE: 'sqlite:/tmp/e.db',
  };

  it('standalone: the simulator for every platform unless asked', () => {
    expect(Object.values(providerRoutes(loadConfig({})))).toEqual(Array(8).fill('simulated'));
    expect(
      providerRoutes(loadConfig({ ANALYST_PROVIDERS: 'youtube=youtube', YOUTUBE_API_KEY: 'AIzaSyTestKey' }))
        .youtube,
    ).toBe('youtube');
    expect(
      providerRoutes(loadConfig({ ANALYST_PROVIDERS: 'youtube=youtube', YOUTUBE_API_KEY: 'AIzaSyTestKey' }))
        .tiktok,
    ).toBe('simulated');
  });

  it('distributed: real providers where credentials exist, none elsewhere', () => {
    expect(providerRoutes(loadConfig(base))).toEqual({
      youtube: 'none',
      tiktok: 'none',
      instagram: 'none',
      facebook: 'none',
      x: 'none',
      reddit: 'none',
      linkedin: 'none',
      threads: 'none',
    });
    const both = loadConfig({
      ...base,
      YOUTUBE_API_KEY: 'AIzaSyTestKey',
      REDDIT_CLIENT_ID: 'id',
      REDDIT_CLIENT_SECRET: 'secret',
      REDDIT_USER_AGENT: 'server:analyst:1.0 (by /u/x)',
    });
    expect([providerRoutes(both).youtube, providerRoutes(both).reddit, providerRoutes(both).x]).toEqual([
      'youtube',
      'reddit',
      'none',
    ]);
  });

  it('names each bad variable', () => {
    expect(() => loadConfig({ ANALYST_PROVIDERS: 'youtube=youtube' })).toThrow(
      new ConfigError(
        'invalid configuration:\n  YOUTUBE_API_KEY: required when ANALYST_PROVIDERS routes youtube to the youtube provider',
      ),
    );
    expect(() => loadConfig({ ANALYST_PROVIDERS: 'x=reddit' })).toThrow(
      new ConfigError('invalid configuration:\n  ANALYST_PROVIDERS: the reddit provider cannot serve x'),
    );
    expect(() => loadConfig({ REDDIT_CLIENT_ID: 'id' })).toThrow(
      new ConfigError(
        'invalid configuration:\n  REDDIT_CLIENT_SECRET: required when REDDIT_CLIENT_ID is set\n  REDDIT_USER_AGENT: required when REDDIT_CLIENT_ID is set',
      ),
    );
    expect(() => loadConfig({ ANALYST_YOUTUBE_BASE_URL: 'ftp://x' })).toThrow(
      new ConfigError(
        'invalid configuration:\n  ANALYST_YOUTUBE_BASE_URL: ANALYST_YOUTUBE_BASE_URL must be an http(s) URL',
      ),
    );
  });
});
