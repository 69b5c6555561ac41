import { bucketOf, type FetchedComment, type ProviderPost } from '@analyst/contracts';
import { LexiconScorer, READABLE_LANGUAGES, detectLanguage, sentimentOf } from '@analyst/scoring';

// Spanish, Portuguese, French, German and Italian comments are read by their own trained heads
// (libs/scoring/src/languages); other languages stay unscored, never neutral.

function v1Bucket(text: string): string {
  const score = sentimentOf(text);
  if (Number.isNaN(score)) return 'unscored';
  const bucket = bucketOf('sentiment', score, 1);
  return bucket === 'lean_negative' ? 'negative' : bucket === 'lean_positive' ? 'positive' : bucket;
}

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
const comment = (id: string, body: string): FetchedComment => ({
  id,
  parentId: null,
  authorUsername: `u${id}`,
  authorIsCreator: false,
  body,
  likes: 2,
  postedAt: '2026-10-02T00:00:00Z',
  hidden: false,
});

describe('reading comments in Spanish, Portuguese, French, German and Italian', () => {
  it('the five languages are readable beside English', () => {
    expect([...READABLE_LANGUAGES].sort()).toEqual(['de', 'en', 'es', 'fr', 'it', 'pt']);
  });

  it.each([
    ['es', 'Me encanta este video, es muy bueno', 'positive'],
    ['es', 'Qué asco de video, es horrible y aburrido', 'negative'],
    ['es', 'El video dura diez minutos y habla de economía', 'neutral'],
    ['pt', 'Adorei esse vídeo, muito bom mesmo', 'positive'],
    ['pt', 'Que vídeo horrível, uma porcaria', 'negative'],
    ['pt', 'Não gostei nada desse vídeo', 'negative'],
    ['pt', 'O vídeo tem dez minutos e fala de economia', 'neutral'],
    ['fr', "J'adore cette vidéo, vraiment génial", 'positive'],
    ['fr', 'Cette vidéo est nulle et ennuyeuse', 'negative'],
    ['fr', "Je n'aime pas du tout cette vidéo", 'negative'],
    ['fr', "La vidéo dure dix minutes et parle d'économie", 'neutral'],
    ['de', 'Das Video ist wirklich super, ich liebe es', 'positive'],
    ['de', 'Das Video ist schlecht und langweilig', 'negative'],
    ['de', 'Das Video gefällt mir gar nicht', 'negative'],
    ['it', 'Adoro questo video, è bellissimo', 'positive'],
    ['it', 'Questo video non mi piace per niente', 'negative'],
    ['it', 'Il video dura dieci minuti e parla di economia', 'neutral'],
  ])('%s: "%s" reads %s', (language, text, bucket) => {
    expect(detectLanguage(text)).toBe(language);
    expect(v1Bucket(text)).toBe(bucket);
  });

  it('emoji weigh in every language', () => {
    const plain = sentimentOf('Das Video dauert zehn Minuten und handelt von Wirtschaft');
    expect(sentimentOf('Das Video dauert zehn Minuten und handelt von Wirtschaft 😍😍😍')).toBeGreaterThan(
      plain,
    );
    expect(sentimentOf('Das Video dauert zehn Minuten und handelt von Wirtschaft 😡😡😡')).toBeLessThan(
      plain,
    );
  });

  it('a comment in a language without a reader (Dutch, Russian) stays unscored, never neutral', () => {
    for (const [text, language] of [
      ['Ik vind deze video helemaal niet goed, wat een onzin', 'nl'],
      ['Это лучшее видео, спасибо', 'ru'],
    ]) {
      expect(detectLanguage(text)).toBe(language);
      expect(sentimentOf(text)).toBeNaN();
    }
  });

  it('scorePost scores these languages on every sentiment dimension and carries their language', () => {
    const out = new LexiconScorer().scorePost(POST, [
      comment('a', 'Me encanta este video, es muy bueno'),
      comment('b', 'Das Video ist schlecht und langweilig'),
      comment('c', 'Ik vind deze video helemaal niet goed, wat een onzin'),
    ]);
    const [es, de, nl] = out.comments;
    expect(es.language).toBe('es');
    expect(es.scores.sentiment).toBe(sentimentOf('Me encanta este video, es muy bueno'));
    expect(es.scores.sentiment).toBeGreaterThan(7.5);
    expect(es.scores.content).toEqual(expect.any(Number));
    expect(es.scores.topic).toEqual(expect.any(Number));
    expect(de.language).toBe('de');
    expect(de.scores.sentiment).toBeLessThan(4.5);
    expect(nl).toMatchObject({ language: 'nl', scores: { sentiment: null, content: null, topic: null } });
  });
});
