import type { FetchedComment, ProviderPost } from '@analyst/contracts';

// A phone review's comment section as it looks in the wild, written for the project: reactions on the
// camera and battery, questions, replies, a few remarks about something else, and spam in the shapes
// that dodge filters. The spam is liked more than most genuine comments (bought likes, or liked as a
// joke), so only the spam rule keeps it out of the notables. Used by spam-section.unit.spec.ts here and
// by libs/sampling's notables-spam e2e test, which serves the same section through both routes.

export const SECTION_POST: ProviderPost = {
  link: 'https://www.youtube.com/watch?v=pxl9review01',
  platform: 'youtube',
  creator: { username: 'TechWithMara', name: 'Mara Lindqvist' },
  title: 'Pixel 9 review after two weeks: the camera is stunning, the battery is not',
  caption:
    'I used the Pixel 9 as my only phone for two weeks. The camera is the best I have tested this year, ' +
    'night mode and zoom included. Battery life is the weak spot: heavy days end at 20 percent by dinner. ' +
    'Charging speed is slow for the price.',
  description: null,
  engagement: { views: 412_000, likes: 18_300, comments: 44, shares: 950 },
  postedAt: '2026-05-04T15:00:00.000Z',
  postType: 'video',
  thumbnail: null,
};

export interface SectionComment {
  id: string;
  body: string;
  likes: number;
  spam: boolean;
  /** The id of the comment this one replies to. */
  replyTo?: string;
}

export const SECTION: readonly SectionComment[] = [
  {
    id: 'g01',
    body: 'The night mode shots at 6:40 look unreal, the camera on this thing is insane',
    likes: 310,
    spam: false,
  },
  {
    id: 'g02',
    body: 'Battery life is a dealbreaker for me, 20 percent by dinner is not acceptable in 2026',
    likes: 240,
    spam: false,
  },
  { id: 'g03', body: 'Mara your reviews are the only ones I trust, no fluff', likes: 190, spam: false },
  { id: 'g04', body: 'Does the zoom hold up at night or only in daylight?', likes: 85, spam: false },
  {
    id: 'g05',
    body: 'Agreed, the zoom is fine at night but gets soft past 10x',
    likes: 40,
    spam: false,
    replyTo: 'g04',
  },
  {
    id: 'g06',
    body: 'Charging is so slow, took me almost two hours to get to full',
    likes: 120,
    spam: false,
  },
  {
    id: 'g07',
    body: 'Camera is great but I will wait for the Pro because of the battery',
    likes: 95,
    spam: false,
  },
  {
    id: 'g08',
    body: 'Switched from an iPhone last month, the camera alone was worth it',
    likes: 60,
    spam: false,
  },
  { id: 'g09', body: 'How is the screen outside in direct sun?', likes: 12, spam: false },
  { id: 'g10', body: 'great review as always', likes: 22, spam: false },
  {
    id: 'g11',
    body: 'The battery on mine lasts all day, maybe yours is a bad unit?',
    likes: 55,
    spam: false,
  },
  { id: 'g12', body: 'No way, mine dies by 6pm too', likes: 18, spam: false, replyTo: 'g11' },
  { id: 'g13', body: 'Portrait mode still messes up hair edges, not perfect', likes: 9, spam: false },
  {
    id: 'g14',
    body: 'That skin tone accuracy in the portrait shots is the best I have seen',
    likes: 70,
    spam: false,
  },
  { id: 'g15', body: 'Price is too high for a phone with this battery', likes: 48, spam: false },
  { id: 'g16', body: 'Who else watches these reviews with no plan to buy anything', likes: 150, spam: false },
  { id: 'g17', body: 'the b-roll in this video is gorgeous, what lens do you use?', likes: 33, spam: false },
  { id: 'g18', body: 'My Pixel 7 camera is still fine honestly', likes: 14, spam: false },
  { id: 'g19', body: 'Thanks for testing the charging speed, nobody else did', likes: 27, spam: false },
  { id: 'g20', body: 'Could you compare the battery with the Galaxy next?', likes: 31, spam: false },
  { id: 'g21', body: 'lol the cat at 3:12', likes: 44, spam: false },
  { id: 'g22', body: 'Zoom samples look better than my DSLR, which is sad', likes: 8, spam: false },
  { id: 'g23', body: 'Mine overheats when I record 4k for more than ten minutes', likes: 19, spam: false },
  { id: 'g24', body: 'same here, it gets hot fast', likes: 5, spam: false, replyTo: 'g23' },
  {
    id: 'g25',
    body: 'Wish they fixed the slow charging instead of adding AI features',
    likes: 66,
    spam: false,
  },
  {
    id: 'g26',
    body: 'my landlord raised the rent again and the heating still does not work',
    likes: 3,
    spam: false,
  },
  { id: 'g27', body: 'Camera: 10/10. Battery: 4/10. Fair review.', likes: 88, spam: false },
  {
    id: 'g28',
    body: 'The video stabilisation is smooth, walked around with it all day',
    likes: 16,
    spam: false,
  },
  { id: 'g29', body: 'Is the 128GB version enough if I shoot a lot of video?', likes: 7, spam: false },
  { id: 'g30', body: 'no it fills up fast, get 256', likes: 4, spam: false, replyTo: 'g29' },
  { id: 'g31', body: 'honestly the best phone camera review on youtube', likes: 52, spam: false },
  { id: 'g32', body: 'anyone know a good recipe for banana bread without eggs?', likes: 2, spam: false },
  { id: 'g33', body: 'Night sky photo at the end gave me chills', likes: 37, spam: false },
  {
    id: 'g34',
    body: 'Battery degrades after a year anyway, so buy the bigger model',
    likes: 11,
    spam: false,
  },
  {
    id: 's01',
    body: 'Get your free Pixel 9 at freephonez. net before they run out!!',
    likes: 420,
    spam: true,
  },
  { id: 's02', body: 'check out my channel, I review phones too 📱', likes: 380, spam: true },
  { id: 's03', body: 'sub4sub? I sub back in 5 minutes', likes: 260, spam: true },
  {
    id: 's04',
    body: 'I invested $1,000 and got $12,400 back in a week, contact @mark_trades_fx',
    likes: 350,
    spam: true,
  },
  { id: 's05', body: 'ｆｒｅｅ ｇｉｆｔ ｃａｒｄｓ ａｔ ｗｗｗ．ｇｉｆｔｚ．ｃｏｍ', likes: 210, spam: true },
  { id: 's06', body: 'phone giveaway this week, winners at prizedrop(dot)xyz', likes: 170, spam: true },
  {
    id: 's07',
    body: 'thanks to #mrs_helen_invests I am out of debt, got my first payout today',
    likes: 140,
    spam: true,
  },
  { id: 's08', body: 'cheap cases here → bit*ly/pxl9case', likes: 100, spam: true },
  { id: 's09', body: 'Call or WhatsApp +1 415 555 0199 for a free replacement phone', likes: 90, spam: true },
  { id: 's10', body: 'ᴇᴀʀɴ $500 ᴀ ᴅᴀʏ ꜰʀᴏᴍ ʜᴏᴍᴇ, ᴅᴍ ᴍᴇ', likes: 75, spam: true },
];

/** The section as a provider hands it to the scorer. */
export function sectionComments(): FetchedComment[] {
  return SECTION.map((c, i) => ({
    id: c.id,
    parentId: c.replyTo ?? null,
    authorUsername: `viewer${i}`,
    authorIsCreator: false,
    body: c.body,
    likes: c.likes,
    postedAt: new Date(Date.parse(SECTION_POST.postedAt) + (i + 1) * 600_000).toISOString(),
    hidden: false,
  }));
}
