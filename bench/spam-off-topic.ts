// Spam as off-topic on held-out, labelled real comment sections: the UCI YouTube Spam Collection
// (Alberto, Lochter & Almeida 2015; 1,956 comments under 5 music videos, CLASS 1 = spam; CC BY 4.0).
// Each video becomes a post and its comments; the real LexiconScorer.scorePost scores them, and a
// comment counts as flagged when its relevance lands in the off_topic bucket (bucketOf, as every mix,
// filter and sample reads it). Then the notables: how many spam comments each notable rule would show,
// the analysis's notableComments (notableRows, top 10 per video) and the pool of the sample routes'
// notable tier (isNotableRow: high relevance and mayBeNotable; the collection has no likes, so the
// high-engagement half is taken as met). Only figures are printed, never a comment: nothing here may
// shape a rule.
// The data is never committed. Run: ANALYST_EVAL_DATA=/path/to/dir npm run bench -- bench/spam-off-topic.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf, type FetchedComment, type ProviderPost, type ScoredComment } from '@analyst/contracts';
import {
  allRows,
  appendRow,
  createColumns,
  hasMention,
  hasQuestionMark,
  notableRows,
  tokenize,
  Vocabulary,
} from '@analyst/domain-analysis';
import { LexiconScorer } from '@analyst/scoring';
import {
  HIGH_ENGAGEMENT,
  HIGH_RELEVANCE,
  isNotableRow,
  rowFlags,
} from '../libs/sampling/src/sample/draw-sample';
import { isSpam } from '../libs/scoring/src/spam';
import { count, emptyCounts, figures, parseCsv, type Counts } from './csv';

const HOW_TO = `ANALYST_EVAL_DATA is not set. It names a directory holding youtube-spam/ with the five CSV files
of the UCI YouTube Spam Collection (COMMENT_ID,AUTHOR,DATE,CONTENT,CLASS):
  Youtube01-Psy.csv Youtube02-KatyPerry.csv Youtube03-LMFAO.csv Youtube04-Eminem.csv Youtube05-Shakira.csv
They are in the UCI Machine Learning Repository (dataset 380, "YouTube Spam Collection", CC BY 4.0):
  curl -LO https://archive.ics.uci.edu/static/public/380/youtube+spam+collection.zip
  mkdir -p eval/youtube-spam && unzip youtube+spam+collection.zip -d eval/youtube-spam
  ANALYST_EVAL_DATA=$PWD/eval npm run bench -- bench/spam-off-topic.ts
Do not commit them, and do not read their comments to write or tune rules: they are held out.`;

/** The collection's five videos as the platform shows them (title and channel). */
const VIDEOS: { file: string; id: string; title: string; username: string; name: string }[] = [
  {
    file: 'Youtube01-Psy.csv',
    id: '9bZkp7q19f0',
    title: 'PSY - GANGNAM STYLE (강남스타일) M/V',
    username: 'officialpsy',
    name: 'officialpsy',
  },
  {
    file: 'Youtube02-KatyPerry.csv',
    id: 'CevxZvSJLk8',
    title: 'Katy Perry - Roar',
    username: 'KatyPerryVEVO',
    name: 'Katy Perry',
  },
  {
    file: 'Youtube03-LMFAO.csv',
    id: 'KQ6zr6kCPj8',
    title: 'LMFAO - Party Rock Anthem ft. Lauren Bennett, GoonRock',
    username: 'LMFAOVEVO',
    name: 'LMFAO',
  },
  {
    file: 'Youtube04-Eminem.csv',
    id: 'uelHwf8o7_U',
    title: 'Eminem - Love The Way You Lie ft. Rihanna',
    username: 'EminemVEVO',
    name: 'Eminem',
  },
  {
    file: 'Youtube05-Shakira.csv',
    id: 'pRpeEdMmmQ0',
    title: 'Shakira - Waka Waka (This Time for Africa) (The Official 2010 FIFA World Cup™ Song)',
    username: 'shakiraVEVO',
    name: 'Shakira',
  },
];

interface Row {
  id: string;
  author: string;
  date: string;
  content: string;
  spam: boolean;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/**
 * The collection keeps YouTube's HTML rendering (tags, entities); a provider hands the scorer the plain
 * text a person reads, so line breaks become newlines, tags go and the text of a link stays.
 */
function plainText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCodePoint(parseInt(n, 16)))
    .replace(/&([a-z]+);/gi, (m, name: string) => ENTITIES[name.toLowerCase()] ?? m);
}

function loadRows(path: string): Row[] {
  const [header, ...records] = parseCsv(readFileSync(path, 'utf8'));
  const at = (name: string): number => header.indexOf(name);
  const [id, author, date, content] = ['COMMENT_ID', 'AUTHOR', 'DATE', 'CONTENT'].map(at);
  // Some copies of the collection name the label column "label" instead of "CLASS".
  const label = header.includes('CLASS') ? at('CLASS') : at('label');
  return records.map((r) => ({
    id: r[id],
    author: r[author],
    date: r[date],
    content: plainText(r[content]),
    spam: r[label].trim() === '1',
  }));
}

function asSection(
  video: (typeof VIDEOS)[number],
  rows: Row[],
): { post: ProviderPost; comments: FetchedComment[] } {
  const post: ProviderPost = {
    link: `https://www.youtube.com/watch?v=${video.id}`,
    platform: 'youtube',
    creator: { username: video.username, name: video.name },
    title: video.title,
    caption: '',
    description: null,
    engagement: { views: 0, likes: 0, comments: rows.length, shares: 0 },
    postedAt: '2010-01-01T00:00:00.000Z',
    postType: 'video',
    thumbnail: null,
  };
  const comments: FetchedComment[] = rows.map((r) => ({
    id: r.id,
    parentId: null,
    authorUsername: r.author,
    authorIsCreator: false,
    body: r.content,
    likes: 0,
    postedAt: r.date && !Number.isNaN(Date.parse(r.date)) ? new Date(r.date).toISOString() : post.postedAt,
    hidden: false,
  }));
  return { post, comments };
}

/** The analysis's notableComments of one video: notableRows over its comments as the read side holds them. */
function analysisNotables(scored: ScoredComment[], comments: FetchedComment[]): number[] {
  const vocab = new Vocabulary();
  const columns = createColumns(scored.length);
  scored.forEach((s, i) => {
    const body = comments[i].body;
    appendRow(columns, {
      scores: {
        sentiment: s.scores.sentiment ?? Number.NaN,
        content: s.scores.content ?? Number.NaN,
        topic: s.scores.topic ?? Number.NaN,
        relevance: s.scores.relevance ?? Number.NaN,
        consensus: s.scores.consensus ?? Number.NaN,
      },
      likes: comments[i].likes,
      isReply: false,
      isCreator: false,
      hidden: false,
      hasQuestion: hasQuestionMark(body),
      hasMention: hasMention(body),
      hasEmoji: tokenize(body).some((t) => t.kind === 'emoji'),
      authorId: i,
      postedAt: Date.parse(comments[i].postedAt) / 1000,
      tokens: vocab.encode(body),
    });
  });
  return notableRows(columns, allRows(columns));
}

/**
 * The pool the sample routes' notable tier draws from: rows the tier takes once their likes reach the
 * post's floor (the collection has no likes, so that half is taken as met).
 */
function sampleNotablePool(scored: ScoredComment[]): number[] {
  const pool: number[] = [];
  scored.forEach((s, i) => {
    const relevance = s.scores.relevance ?? Number.NaN;
    const flags = HIGH_ENGAGEMENT | (rowFlags(0, Infinity, relevance, -1, -1, 3) & HIGH_RELEVANCE);
    if (isNotableRow(flags, relevance)) pool.push(i);
  });
  return pool;
}

function share(spam: number, of: number): string {
  return `${spam} spam of ${of} (${((100 * spam) / Math.max(1, of)).toFixed(1)}%)`;
}

function folder(root: string): string {
  const nested = join(root, 'youtube-spam');
  return existsSync(nested) ? nested : root;
}

function main(): void {
  const root = process.env.ANALYST_EVAL_DATA;
  if (!root) {
    console.log(HOW_TO);
    return;
  }
  const dir = folder(root);
  const present = new Set(readdirSync(dir));
  const scorer = new LexiconScorer();
  const total: Counts = emptyCounts();
  const notables = { analysis: 0, analysisSpam: 0, pool: 0, poolSpam: 0 };
  // Which rule put a comment in off_topic: the spam detector, or the relevance rule (talk about something else).
  const byRule = { detectorSpam: 0, detectorGenuine: 0, relevanceSpam: 0, relevanceGenuine: 0 };
  console.log(
    'spam = relevance bucket off_topic (bucketOf relevance < 3), LexiconScorer.scorePost per video',
  );
  for (const video of VIDEOS) {
    if (!present.has(video.file)) {
      console.log(`${video.file}: missing in ${dir}`);
      continue;
    }
    const rows = loadRows(join(dir, video.file));
    const { post, comments } = asSection(video, rows);
    const scored = scorer.scorePost(post, comments).comments;
    const counts = emptyCounts();
    scored.forEach((s, i) => {
      const flagged = bucketOf('relevance', s.scores.relevance ?? Number.NaN, 3) === 'negative';
      count(counts, rows[i].spam, flagged);
      count(total, rows[i].spam, flagged);
      if (!flagged) return;
      const detected = isSpam(comments[i].body.toLowerCase());
      const label = rows[i].spam ? 'Spam' : 'Genuine';
      byRule[`${detected ? 'detector' : 'relevance'}${label}`]++;
    });
    console.log(`${video.file.padEnd(24)} ${String(rows.length).padStart(4)} comments  ${figures(counts)}`);
    const analysis = analysisNotables(scored, comments);
    const pool = sampleNotablePool(scored);
    const analysisSpam = analysis.filter((i) => rows[i].spam).length;
    const poolSpam = pool.filter((i) => rows[i].spam).length;
    console.log(
      `${''.padEnd(24)} notables: notableComments ${share(analysisSpam, analysis.length)}; sample notable tier pool ${share(poolSpam, pool.length)}`,
    );
    notables.analysis += analysis.length;
    notables.analysisSpam += analysisSpam;
    notables.pool += pool.length;
    notables.poolSpam += poolSpam;
  }
  console.log(
    `${'overall'.padEnd(24)} ${String(total.tp + total.fp + total.fn + total.tn).padStart(4)} comments  ${figures(total)}`,
  );
  console.log(
    `${''.padEnd(24)} notables: notableComments ${share(notables.analysisSpam, notables.analysis)}; sample notable tier pool ${share(notables.poolSpam, notables.pool)}`,
  );
  console.log(
    `off_topic by the spam detector: ${byRule.detectorSpam} spam, ${byRule.detectorGenuine} genuine; by the relevance rule: ${byRule.relevanceSpam} spam, ${byRule.relevanceGenuine} genuine`,
  );
}

main();
