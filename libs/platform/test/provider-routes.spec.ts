import { parseProviderRoutes } from '../src/config/provider-routes';

describe('parseProviderRoutes (ANALYST_PROVIDERS)', () => {
  it('names platforms, * for the rest, and the fallback when there is no *', () => {
    expect(parseProviderRoutes('youtube=youtube,reddit=reddit,*=simulated', 'none')).toEqual({
      youtube: 'youtube', reddit: 'reddit', tiktok: 'simulated', instagram: 'simulated', facebook: 'simulated', x: 'simulated', linkedin: 'simulated', threads: 'simulated',
    });
    expect(parseProviderRoutes(' youtube=youtube ', 'none')).toEqual({
      youtube: 'youtube', reddit: 'none', tiktok: 'none', instagram: 'none', facebook: 'none', x: 'none', linkedin: 'none', threads: 'none',
    });
    expect(parseProviderRoutes('', 'simulated').reddit).toBe('simulated');
  });

  it('refuses malformed entries, unknown platforms and providers, and adapters on the wrong platform', () => {
    expect(() => parseProviderRoutes('youtube', 'none')).toThrow('"youtube" is not <platform>=<provider>');
    expect(() => parseProviderRoutes('myspace=simulated', 'none')).toThrow('"myspace" is not a platform');
    expect(() => parseProviderRoutes('youtube=scraper', 'none')).toThrow('"scraper" is not a provider (youtube, reddit, simulated or none)');
    expect(() => parseProviderRoutes('tiktok=youtube', 'none')).toThrow('the youtube provider cannot serve tiktok');
    expect(() => parseProviderRoutes('youtube=none,youtube=youtube', 'none')).toThrow('"youtube" is named twice');
  });
});
