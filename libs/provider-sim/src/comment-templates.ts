/**
 * Comment bodies by kind. Placeholders: {t}/{T} a topic of the post (lower / capitalised), {t2} another
 * topic, {c} the creator's first name, {@c} the creator's @handle, {@p} the parent comment's author,
 * {place} a place the subject is discussed in.
 */
export const TOP_LEVEL = {
  praiseCreator: [
    'Love this, you nailed it 🔥',
    'Great video {c}, super clear and well researched!',
    'You always explain {t} so well 🙌',
    'Best breakdown of {t} I have seen, thank you',
    'Thanks for making this, it really helped me ❤️',
    '{@c} this is exactly the content I needed',
    'Your editing keeps getting better, love the pacing 😍',
    'This post deserves way more views',
  ],
  praiseTopic: [
    '{T} is honestly amazing',
    'Finally someone talking about {t}! 😍',
    '{T} changed my life, no joke',
    'I switched to {t} last year and it was the best decision',
    '{T} works great in {place} too 👍',
    'More people need to hear this about {t}',
  ],
  criticiseCreator: [
    'This video is misleading and you know it',
    'You clearly did not research {t} at all',
    'Worst take on {t} I have heard this year 👎',
    'Unsubscribed. This was lazy and boring.',
    '{@c} you left out half the facts, disappointing',
    'Clickbait title, the video says nothing',
  ],
  criticiseTopic: [
    '{T} is a scam',
    '{T} never works, it only makes things worse',
    'This take on {t} is wrong and you know it',
    '{T} sounds nice until you try it in {place} 🙄',
    'I tried {t} and it was a complete waste of money',
    'The problem with {t} is that nobody can afford it',
  ],
  neutral: [
    'What do you think about {t2}?',
    'How long did it take to make this?',
    'Does {t} apply in {place} too?',
    'Source for the numbers on {t}?',
    'Watching this in 2026',
    'Part 2 please, especially on {t2}',
    'Can someone summarise the bit about {t}?',
    'First time seeing this channel',
    'Saving this for later',
    'Is there a written version of this?',
  ],
  hostile: [
    "You're an idiot",
    'Delete your account, clown 🤡',
    'This is garbage and so are you',
    'Nobody asked. Stupid take.',
    'Pathetic. {@c} should be banned 😡😡',
    'Shut up, you have no clue what you are talking about',
  ],
  offTopic: [
    'Check out my channel!!!',
    'Follow me for daily giveaways 💰💰',
    'I made $5,000 a week from home, DM me',
    'sub4sub anyone?',
    'Who else is eating pizza while watching this lol',
    'Anyone here from the algorithm? 😂',
    'Free crypto at the link in my bio 🚀',
    'My cat just knocked my coffee over 😂😂',
  ],
  spanish: [
    'Me encanta este video, muy bien explicado',
    'No estoy de acuerdo con lo de {t}',
    '¿Alguien más viendo esto desde México?',
  ],
  portuguese: [
    'Adorei o vídeo! Muito bom',
    'Isso é mentira, {t} não funciona assim',
    'Conteúdo excelente, parabéns',
  ],
  french: ['Super vidéo, merci beaucoup !', 'Je ne suis pas d’accord sur {t}', 'Très intéressant, bravo'],
} as const;
export type TopLevelKind = keyof typeof TOP_LEVEL;

export const REPLIES = {
  agree: [
    'Exactly, agreed',
    'This 💯',
    'So true',
    'Facts.',
    "Couldn't agree more",
    'Yes! Same experience with {t}',
    '{@p} well said',
    'Agreed, 100%',
  ],
  disagree: [
    "No, that's not how {t} works",
    'Disagree, {t} actually helps a lot',
    "{@p} you're wrong about this",
    'Lol no. Source?',
    "That's just not true",
    'Nope, completely disagree',
  ],
  discuss: [
    'What do you mean?',
    '{@p} can you explain?',
    'Depends on where you live tbh',
    'Kind of, but {t} is different in {place}',
    'Interesting point, never thought of it that way',
  ],
  hostile: ['{@p} nobody cares, idiot', 'Imagine being this dumb 🤡', 'Go away troll'],
  creator: [
    'Thanks so much for watching! 🙏',
    "Great question, I'll cover {t} in the next one",
    "Appreciate the feedback, I'll double-check the numbers",
    '{@p} glad it helped!',
    'Fair point, I should have mentioned {t2}',
  ],
} as const;
export type ReplyKind = keyof typeof REPLIES;

export const EMOJI_BY_MOOD = {
  positive: ['🔥', '😍', '❤️', '🙌', '👏', '😂', '💯', '👍🏽', '🥰'],
  negative: ['👎', '🙄', '😡', '🤦‍♂️', '😒', '💀'],
  neutral: ['🤔', '👀', '😅', '🙂'],
} as const;
