import type { Platform, PostType, ProviderPost } from '@analyst/contracts';
import { Rng, sha256Hex } from './prng';
import {
  FIRST_NAMES,
  HANDLE_WORDS,
  LAST_NAMES,
  STANCE_SENTENCES,
  SUBJECTS,
  type CreatorStance,
  type Subject,
} from './subjects';
import { fill } from './fill';

/** Weights of each platform's post types, and types forced by the link's shape. */
const POST_TYPES: Record<Platform, [PostType, number][]> = {
  youtube: [
    ['video', 75],
    ['short', 25],
  ],
  tiktok: [
    ['video', 92],
    ['carousel', 8],
  ],
  instagram: [
    ['image', 35],
    ['carousel', 25],
    ['reel', 40],
  ],
  facebook: [
    ['text', 30],
    ['image', 30],
    ['video', 25],
    ['reel', 15],
  ],
  x: [
    ['text', 60],
    ['image', 25],
    ['video', 15],
  ],
  reddit: [
    ['text', 60],
    ['image', 25],
    ['video', 10],
    ['other', 5],
  ],
  linkedin: [
    ['text', 55],
    ['image', 25],
    ['carousel', 10],
    ['video', 10],
  ],
  threads: [
    ['text', 70],
    ['image', 25],
    ['carousel', 5],
  ],
};
const TITLED: ReadonlySet<Platform> = new Set(['youtube', 'reddit', 'linkedin']);
const MAX_AGE_MINUTES = 90 * 24 * 60;

/** Everything the comment generator needs besides the post itself. */
export interface SimulatedPost {
  post: ProviderPost;
  subject: Subject;
  /** Topic phrases the caption talks about, first one leading. */
  topics: string[];
  stance: CreatorStance;
  totalComments: number;
  /** Short stable id of the link, used in comment ids. */
  key: string;
}

export function subjectIndexOf(link: string): number {
  return parseInt(sha256Hex(`${link}#subject`).slice(0, 8), 16) % SUBJECTS.length;
}

/** The handle a post link carries (TikTok, X, Threads, Facebook pages, Instagram stories), if any. */
export function handleInLink(link: string, platform: Platform): string | null {
  const segments = new URL(link).pathname.split('/').filter(Boolean);
  switch (platform) {
    case 'tiktok':
    case 'threads':
      return segments[0]?.startsWith('@') ? segments[0].slice(1) : null;
    case 'x':
      return segments[0] && segments[0] !== 'i' && segments[1] === 'status' ? segments[0] : null;
    case 'facebook':
      return segments[1] === 'posts' ? segments[0] : null;
    case 'instagram':
      return segments[0] === 'stories' ? segments[1] : null;
    default:
      return null;
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** How many comments the post's full section holds: ~5% none, otherwise log-uniform 3 to 2,000. */
function commentCountFor(rng: Rng): number {
  if (rng.chance(0.05)) return 0;
  return Math.floor(Math.exp(Math.log(3) + rng.next() * (Math.log(2001) - Math.log(3))));
}

function postTypeFor(link: string, platform: Platform, rng: Rng): PostType {
  if (platform === 'instagram' && link.includes('/stories/')) return 'story';
  if (platform === 'facebook' && link.includes('/reel/')) return 'reel';
  if (platform === 'facebook' && link.includes('/watch?v=')) return 'video';
  if (platform === 'facebook' && link.includes('/photo?fbid=')) return 'image';
  if (platform === 'tiktok' && link.includes('/photo/')) return 'carousel';
  if (platform === 'linkedin' && link.includes('/pulse/')) return 'text';
  const table = POST_TYPES[platform];
  return table[rng.weighted(table.map(([, w]) => w))][0];
}

function thumbnailFor(link: string, platform: Platform, postType: PostType, key: string): string | null {
  if (postType === 'text') return null;
  if (platform === 'youtube')
    return `https://i.ytimg.com/vi/${new URL(link).searchParams.get('v')}/hqdefault.jpg`;
  return `https://thumbs.sim.analyst.invalid/${platform}/${key}.jpg`;
}

/** Builds the post a normalized post link stands for; the same link always gives the same post. */
export function simulatePost(link: string, platform: Platform, reference: Date): SimulatedPost {
  const rng = new Rng(`${link}#post`);
  const key = sha256Hex(link).slice(0, 10);
  const subject = SUBJECTS[subjectIndexOf(link)];

  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const handle = handleInLink(link, platform) ?? `${first}${last}${rng.pick(HANDLE_WORDS)}`.toLowerCase();
  const creator = { username: handle, name: `${first} ${last}` };

  const pool = [...subject.topics];
  const topics: string[] = [];
  const topicCount = rng.int(2, 3);
  while (topics.length < topicCount) topics.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]);
  const stance: CreatorStance = (['supports', 'criticizes', 'explains'] as const)[rng.weighted([35, 30, 35])];

  const used = new Set<string>();
  const sentences = topics.map((topic, i) => {
    const s: CreatorStance = i === 0 ? stance : rng.chance(0.6) ? 'explains' : stance;
    const options: readonly string[] = STANCE_SENTENCES[s];
    let template = rng.pick(options);
    while (used.has(template)) template = options[(options.indexOf(template) + 1) % options.length];
    used.add(template);
    return fill(template, { topic, topic2: topic, creator, parent: '', place: rng.pick(subject.places) });
  });
  const hashtags = subject.hashtags.slice(0, rng.int(1, subject.hashtags.length)).join(' ');
  const caption = `${sentences.join(' ')} ${hashtags}`;
  const titled = TITLED.has(platform) && !link.includes('/feed/update/');
  const title = titled
    ? fill(rng.pick(subject.titles), { topic: topics[0], topic2: topics[1], creator, parent: '', place: '' })
    : sentences[0];
  const description =
    platform === 'youtube'
      ? `${caption}\n\nChapters:\n0:00 Intro\n1:12 ${capitalise(topics[0])}\n4:30 ${capitalise(topics[1])}\n9:05 Wrap-up\n\nFollow ${creator.name} for more on ${subject.key.replace('-', ' ')}.`
      : null;

  const views = Math.max(50, Math.round(Math.exp(9.5 + 2 * rng.normal())));
  const likes = Math.round(views * (0.01 + 0.07 * rng.next()));
  const shares = Math.round(likes * 0.02 + rng.longTail(Math.max(1, likes / 200)));
  const totalComments = commentCountFor(rng);
  const postType = postTypeFor(link, platform, rng);
  const ageMinutes = 30 + Math.floor(rng.next() * (MAX_AGE_MINUTES - 30));

  return {
    post: {
      link,
      platform,
      creator,
      title,
      caption,
      description,
      engagement: { views, likes, comments: totalComments, shares },
      postedAt: new Date(reference.getTime() - ageMinutes * 60_000).toISOString(),
      postType,
      thumbnail: thumbnailFor(link, platform, postType, key),
    },
    subject,
    topics,
    stance,
    totalComments,
    key,
  };
}
