import type { FakeYouTubeThread, FakeYouTubeVideo, YouTubeFake } from './youtube-fake';

export const CHANNEL_ID = 'UCabcdefghijklmnopqrstuv';
export const VIDEO_ID = 'dQw4w9WgXcQ';

/** `n` threads; thread i has `replies(i)` replies; the channel's own account writes every 4th reply. */
export function threads(videoId: string, n: number, replies: (i: number) => number): FakeYouTubeThread[] {
  return Array.from({ length: n }, (_, i) => ({
    top: {
      id: `Ug${videoId}${i}`,
      authorDisplayName: `@viewer${i}`,
      authorChannelId: `UCviewer${i}`,
      text: `comment ${i}`,
      likeCount: i * 3,
      publishedAt: `2026-02-01T10:${String(i % 60).padStart(2, '0')}:00Z`,
    },
    replies: Array.from({ length: replies(i) }, (_, j) => ({
      id: `Ug${videoId}${i}.r${j}`,
      authorDisplayName: j % 4 === 3 ? '@creatorhandle' : `@replier${j}`,
      authorChannelId: j % 4 === 3 ? CHANNEL_ID : `UCreplier${j}`,
      text: `reply ${j} to ${i}`,
      likeCount: j,
      publishedAt: `2026-02-02T11:00:${String(j % 60).padStart(2, '0')}Z`,
    })),
  }));
}

export function video(id: string, extra: Partial<FakeYouTubeVideo> = {}): FakeYouTubeVideo {
  return {
    id,
    channelId: CHANNEL_ID,
    title: `Video ${id}`,
    description: 'What we learned about rent this year',
    publishedAt: '2026-02-01T09:00:00Z',
    viewCount: 125_000,
    likeCount: 4_321,
    threads: [],
    ...extra,
  };
}

/** A channel with the given uploads (newest first), each a video with 2 comments. */
export function seedChannel(fake: YouTubeFake, uploads: string[]): void {
  fake.addChannel({
    id: CHANNEL_ID,
    handle: '@CreatorHandle',
    title: 'Creator Name',
    username: 'creatorlegacy',
    uploads,
  });
  uploads.forEach((id, i) =>
    fake.addVideo(
      video(id, {
        publishedAt: new Date(Date.UTC(2026, 1, 28 - i, 12)).toISOString(),
        title: i % 2 ? `Cooking ${i}` : `Rent ${i}`,
        viewCount: 1000 + i,
        likeCount: 10 + i,
        threads: threads(id, 2, () => 0),
      }),
    ),
  );
}
