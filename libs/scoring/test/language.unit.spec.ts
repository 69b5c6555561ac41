import type { FetchedComment, ProviderPost } from '@analyst/contracts';
import { LexiconScorer, detectLanguage, isReadableLanguage, sentimentOf } from '@analyst/scoring';

const POST: ProviderPost = {
  link: 'https://youtube.com/watch?v=abcdefghijk',
  platform: 'youtube',
  creator: { username: 'mayachen', name: 'Maya Chen' },
  title: 'Why rent control will not fix the housing crisis',
  caption: 'Rent control and zoning reform, step by step. #housing',
  description: null,
  engagement: { views: 10_000, likes: 500, comments: 3, shares: 10 },
  postedAt: '2026-10-01T00:00:00Z',
  postType: 'video',
  thumbnail: null,
};
const comment = (id: string, body: string, parentId: string | null = null): FetchedComment => ({
  id,
  parentId,
  authorUsername: `u${id}`,
  authorIsCreator: false,
  body,
  likes: 2,
  postedAt: '2026-10-02T00:00:00Z',
  hidden: false,
});

describe('detectLanguage', () => {
  it.each([
    ['Me encanta este video, muy bueno', 'es'],
    ['Qué buen contenido, saludos desde México', 'es'],
    ['Muito bom, parabéns pelo trabalho', 'pt'],
    ["J'adore cette vidéo, merci beaucoup", 'fr'],
    ['Das ist wirklich schlecht', 'de'],
    ['Questo video è fantastico', 'it'],
    // Tweets without accents or the most frequent words: their own frequent words, or a sure detector.
    ['Quem tá na cozinha hoje sou eu', 'pt'],
    ['Não gostei nada desse vídeo', 'pt'],
    ['ach scheiss drauf dann eben nich', 'de'],
    ['Il video dura dieci minuti e parla di economia', 'it'],
    // A separator no longer tilts the detector towards Hindi.
    ['La SNCF lance une bibliothèque digitale dans les TER | @user http', 'fr'],
    ['Ik ben het helemaal met je eens, goed punt', 'nl'],
    ['Это лучшее видео', 'ru'],
    ['この動画は最高です', 'ja'],
    ['This is a great video, thanks!', 'en'],
    ['Who else is watching in 2025?', 'en'],
    ['lmao this is so true', 'en'],
  ])('%s → %s', (text, language) => {
    expect(detectLanguage(text)).toBe(language);
  });

  it('names no language for text too short or too odd to tell, which is then read as English', () => {
    for (const text of [
      'lol',
      'W',
      'first!',
      'nice',
      'mid',
      'ratio + L',
      '🔥🔥🔥',
      'Fire track 🔥🔥',
      'tbh ngl kinda mid',
      'https://x.co/abc',
      'Rent prices are insane lately',
    ]) {
      expect(detectLanguage(text)).toBeNull();
    }
    // Slang the detector has no profile for is never taken for another language.
    for (const text of [
      'idk man seems sus',
      'no cap this slaps fr',
      'bro really said that 💀',
      'lowkey goated ngl',
    ])
      expect(isReadableLanguage(detectLanguage(text))).toBe(true);
    expect(isReadableLanguage(null)).toBe(true);
    expect(isReadableLanguage('en')).toBe(true);
    expect(isReadableLanguage('es')).toBe(true);
    expect(isReadableLanguage('nl')).toBe(false);
    expect(isReadableLanguage('ru')).toBe(false);
  });

  it('English with a word that is also a frequent word elsewhere is never taken for another language', () => {
    for (const text of [
      'An uninspired preachy and clichéd war film.',
      'Flaccid drama and exasperatingly slow journey.',
      'Mich. dad a hero after car catches on fire',
      'HA HA HA HA HA',
      'Nope, completely disagree',
      'Poor editing, bad bluescreen, and ultra cheesy dialogue highlight the radical action.',
    ])
      expect([null, 'en']).toContain(detectLanguage(text));
  });
});

describe('comments in a language the scorer cannot read', () => {
  it('are unscored on the sentiment dimensions (never neutral) and carry their language; the others are scored as before', () => {
    const scorer = new LexiconScorer();
    const out = scorer.scorePost(POST, [
      comment('a', 'Ik vind deze video helemaal niet goed, wat een onzin'),
      comment('b', 'Great video, love the rent control explainer'),
      comment('c', 'Ik ben het helemaal met je eens, goed punt', 'a'),
    ]);
    const [nl, en, reply] = out.comments;
    expect(nl).toMatchObject({ language: 'nl', scores: { sentiment: null, content: null, topic: null } });
    expect(nl.scores.relevance).toEqual(expect.any(Number));
    expect(nl.scores.consensus).toEqual(expect.any(Number));
    expect(reply).toMatchObject({ language: 'nl', scores: { sentiment: null, content: null, topic: null } });
    expect(en.language).toBe('en');
    expect(en.scores.sentiment).toBeGreaterThan(5.5);
    expect(sentimentOf('Ik vind deze video helemaal niet goed, wat een onzin')).toBeNaN();
    // The stored v1 reading is sentimentOf of the body: one entry point for the pipeline and the benchmark.
    expect(en.scores.sentiment).toBe(sentimentOf('Great video, love the rent control explainer'));
  });

  it('a short comment of unknown language is still read: "Buenísimo 🔥" takes its emoji reading', () => {
    expect(detectLanguage('Buenísimo 🔥')).toBeNull();
    expect(sentimentOf('Buenísimo 🔥')).toBeGreaterThan(5);
  });
});
