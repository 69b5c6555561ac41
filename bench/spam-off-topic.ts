// Spam as off-topic on held-out, labelled real comment sections: the UCI YouTube Spam Collection
// (Alberto, Lochter & Almeida 2015; 1,956 comments under 5 music videos, CLASS 1 = spam; CC BY 4.0).
// Each video becomes a post and its comments; the real LexiconScorer.scorePost scores them, and a
// comment counts as flagged when its relevance lands in the off_topic bucket (bucketOf, as every mix,
// filter and sample reads it). Only figures are printed, never a comment: nothing here may shape a rule.
// The data is never committed. Run: ANALYST_EVAL_DATA=/path/to/dir npm run bench -- bench/spam-off-topic.ts
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf, type FetchedComment, type ProviderPost } from '@analyst/contracts';
import { LexiconScorer } from '@analyst/scoring';
import { isSpam } from '../libs/scoring/src/spam';

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

/** RFC 4180 records: quoted fields may hold commas, doubled quotes and line breaks. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      record.push(field);
      if (record.some((f) => f.length > 0)) records.push(record);
      record = [];
      field = '';
    } else field += ch;
  }
  record.push(field);
  if (record.some((f) => f.length > 0)) records.push(record);
  return records;
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
  const [id, author, date, content, label] = ['COMMENT_ID', 'AUTHOR', 'DATE', 'CONTENT', 'CLASS'].map(at);
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

interface Counts {
  tp: number;
  fp: number;
  fn: number;
  tn: number;
}

function figures(c: Counts): string {
  const precision = c.tp / Math.max(1, c.tp + c.fp);
  const recall = c.tp / Math.max(1, c.tp + c.fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return `precision ${precision.toFixed(4)}  recall ${recall.toFixed(4)}  F1 ${f1.toFixed(4)}  (tp ${c.tp}, fp ${c.fp}, fn ${c.fn}, tn ${c.tn})`;
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
  const total: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
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
    const counts: Counts = { tp: 0, fp: 0, fn: 0, tn: 0 };
    scored.forEach((s, i) => {
      const flagged = bucketOf('relevance', s.scores.relevance ?? Number.NaN, 3) === 'negative';
      const key = rows[i].spam ? (flagged ? 'tp' : 'fn') : flagged ? 'fp' : 'tn';
      counts[key]++;
      total[key]++;
      if (!flagged) return;
      const detected = isSpam(comments[i].body.toLowerCase());
      const label = rows[i].spam ? 'Spam' : 'Genuine';
      byRule[`${detected ? 'detector' : 'relevance'}${label}`]++;
    });
    console.log(`${video.file.padEnd(24)} ${String(rows.length).padStart(4)} comments  ${figures(counts)}`);
  }
  console.log(
    `${'overall'.padEnd(24)} ${String(total.tp + total.fp + total.fn + total.tn).padStart(4)} comments  ${figures(total)}`,
  );
  console.log(
    `off_topic by the spam detector: ${byRule.detectorSpam} spam, ${byRule.detectorGenuine} genuine; by the relevance rule: ${byRule.relevanceSpam} spam, ${byRule.relevanceGenuine} genuine`,
  );
}

main();
