// Spam as off-topic on two labelled development sets, each split in two halves by a hash of the text
// (the same text always lands in the same half): rules are written looking at the `develop` half only;
// the `report` half is read for figures. The held-out check is bench/spam-off-topic.ts (YouTube).
//   - ScamSpot Instagram comments (github.com/ScamSpot/scamspot_ig-comment-scraper, data/comments-rated.csv,
//     3,444 comments rated scam 1 / 0; MIT): $ANALYST_TRAIN_DATA/scamspot/comments-rated.csv
//   - SMS Spam Collection v.1 (Almeida, Gómez Hidalgo & Yamakami 2011; UCI dataset 228, 5,574 messages
//     labelled spam / ham; CC BY 4.0), the tab-separated file `label<TAB>text` with or without a header:
//     $ANALYST_TRAIN_DATA/sms-spam/SMSSpamCollection
// Beside them, a false-alarm check on comments nobody labelled spam: the GoEmotions train split (Demszky et
// al. 2020, 43,410 Reddit comments labelled with emotions; Apache-2.0), $ANALYST_TRAIN_DATA/goemotions/train.tsv,
// counted as all genuine (a flagged one may still be real spam: the develop half's are printed to look at).
// Each comment is scored by LexiconScorer.scorePost under a post with no text (so the relevance rule
// cannot judge and off_topic is the spam reading alone), 500 comments a post.
// The data is never committed.
//   ANALYST_TRAIN_DATA=/path npm run bench -- bench/spam-dev-sets.ts
//   SPAM_DEV_MISSES=1 also prints the develop half's misses and false alarms with the signals each carries
//   (never the report half's).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bucketOf, type FetchedComment, type ProviderPost } from '@analyst/contracts';
import { LexiconScorer } from '@analyst/scoring';
import { spamSignalsOf } from '../libs/scoring/src/spam';
import { count, emptyCounts, figures, parseCsv } from './csv';

const HOW_TO = `ANALYST_TRAIN_DATA is not set. It names a directory holding
  scamspot/comments-rated.csv  from github.com/ScamSpot/scamspot_ig-comment-scraper (data/, MIT)
  sms-spam/SMSSpamCollection   the SMS Spam Collection (UCI dataset 228, CC BY 4.0):
    curl -LO https://archive.ics.uci.edu/static/public/228/sms+spam+collection.zip
  goemotions/train.tsv         GoEmotions (github.com/google-research/google-research, goemotions/data/, Apache-2.0)
Do not commit them.`;

interface Labelled {
  text: string;
  spam: boolean;
}

type Half = 'develop' | 'report';

/** FNV-1a of the trimmed, lowercased text: a fixed half per distinct text, about one in two each. */
export function halfOf(text: string): Half {
  const key = text.trim().toLowerCase();
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  return (h >>> 0) % 2 === 0 ? 'develop' : 'report';
}

function scamSpot(path: string): Labelled[] {
  const [header, ...records] = parseCsv(readFileSync(path, 'utf8'));
  const text = header.indexOf('msg');
  const label = header.indexOf('scam');
  return records.map((r) => ({ text: r[text], spam: r[label].trim() === '1' }));
}

function goEmotions(path: string): Labelled[] {
  return readFileSync(path, 'utf8')
    .split(/\r?\n/)
    .filter((line) => line.length > 0)
    .map((line) => ({ text: line.slice(0, line.indexOf('\t')), spam: false }));
}

function smsCollection(path: string): Labelled[] {
  const rows: Labelled[] = [];
  for (const line of readFileSync(path, 'utf8').split(/\r?\n/)) {
    const tab = line.indexOf('\t');
    const label = line.slice(0, tab).trim().toLowerCase();
    if (label !== 'spam' && label !== 'ham') continue;
    rows.push({ text: line.slice(tab + 1), spam: label === 'spam' });
  }
  return rows;
}

const POST: ProviderPost = {
  link: 'https://www.instagram.com/p/devset',
  platform: 'instagram',
  creator: { username: 'creator', name: 'Creator' },
  title: '',
  caption: '',
  description: null,
  engagement: { views: 0, likes: 0, comments: 0, shares: 0 },
  postedAt: '2024-01-01T00:00:00.000Z',
  postType: 'image',
  thumbnail: null,
};

const PER_POST = 500;

/** Which texts land in the off_topic relevance bucket when scored as comments. */
function offTopic(scorer: LexiconScorer, rows: Labelled[]): boolean[] {
  const flagged: boolean[] = [];
  for (let from = 0; from < rows.length; from += PER_POST) {
    const comments: FetchedComment[] = rows.slice(from, from + PER_POST).map((r, i) => ({
      id: `c${from + i}`,
      parentId: null,
      authorUsername: `u${from + i}`,
      authorIsCreator: false,
      body: r.text,
      likes: 0,
      postedAt: POST.postedAt,
      hidden: false,
    }));
    for (const s of scorer.scorePost(POST, comments).comments)
      flagged.push(bucketOf('relevance', s.scores.relevance ?? Number.NaN, 3) === 'negative');
  }
  return flagged;
}

function main(): void {
  const root = process.env.ANALYST_TRAIN_DATA;
  if (!root) {
    console.log(HOW_TO);
    return;
  }
  const sets: { name: string; path: string; read: (path: string) => Labelled[] }[] = [
    { name: 'ScamSpot', path: join(root, 'scamspot', 'comments-rated.csv'), read: scamSpot },
    { name: 'SMS Spam Collection', path: join(root, 'sms-spam', 'SMSSpamCollection'), read: smsCollection },
    { name: 'GoEmotions (genuine)', path: join(root, 'goemotions', 'train.tsv'), read: goEmotions },
  ];
  const scorer = new LexiconScorer();
  const showMisses = process.env.SPAM_DEV_MISSES === '1';
  console.log('spam = relevance bucket off_topic, LexiconScorer.scorePost under a post with no text');
  for (const set of sets) {
    if (!existsSync(set.path)) {
      console.log(`${set.name}: missing ${set.path}`);
      continue;
    }
    const rows = set.read(set.path);
    for (const half of ['develop', 'report'] as const) {
      const part = rows.filter((r) => halfOf(r.text) === half);
      const flagged = offTopic(scorer, part);
      const counts = emptyCounts();
      part.forEach((r, i) => count(counts, r.spam, flagged[i]));
      const spam = part.filter((r) => r.spam).length;
      const result =
        spam > 0
          ? figures(counts)
          : `read as spam ${counts.fp} (${((100 * counts.fp) / Math.max(1, part.length)).toFixed(2)}%)`;
      console.log(
        `${set.name.padEnd(20)} ${half.padEnd(8)} ${String(part.length).padStart(5)} (${spam} spam)  ${result}`,
      );
      if (!showMisses || half !== 'develop') continue;
      part.forEach((r, i) => {
        if (r.spam === flagged[i]) return;
        const signals = spamSignalsOf(r.text.toLowerCase()).join(', ');
        console.log(`  ${r.spam ? 'MISS ' : 'FALSE'} ${JSON.stringify(r.text.slice(0, 200))} [${signals}]`);
      });
    }
  }
}

main();
