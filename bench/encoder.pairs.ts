/**
 * A quick paraphrase check for bench/encoder.ts (written for this project, apart from the product's
 * search bench): a query as an analyst would type it and a comment that says it without its
 * content words. Used to compare the catalogue's models, not to tune anything.
 */
export const PARAPHRASE_PAIRS: readonly (readonly [query: string, comment: string])[] = [
  ['hard to assemble', 'the instructions made no sense and two screws were missing'],
  ['too expensive', 'I would need a second mortgage to buy one'],
  ['fast delivery', 'ordered on monday and it was at my door tuesday morning'],
  ['love the song', 'this track has been on repeat all week'],
  ['the game keeps crashing', 'it freezes and kicks me to desktop every ten minutes'],
  ['the food was cold', 'my pizza arrived at room temperature'],
  ['great customer support', 'the help desk sorted my problem in five minutes'],
  ['this is a scam', 'they took my card details and never sent anything'],
  ['the politician lied', 'he said one thing in the debate and did the opposite in office'],
  ['battery life is poor', 'my phone dies before lunch'],
  ['funny video', 'I was crying laughing at the part with the cat'],
  ['bad sound quality', 'the audio is muffled and crackly'],
  ['slow website', 'pages take forever to load on their store'],
  ['the movie was boring', 'I fell asleep halfway through the film'],
  ['tasty recipe', 'made this for dinner and my kids asked for seconds'],
  ['graphics look amazing', 'the visuals in this title are stunning'],
  ['refund request ignored', 'I asked for my money back three times and heard nothing'],
  ['voting is important', 'make sure you go to the polls in november'],
  ['the app is confusing', 'I cannot figure out where any of the menus are'],
  ['concert tickets sold out', 'every seat for the show was gone within minutes'],
  ['product broke quickly', 'it stopped working after two days'],
  ['size runs small', 'I usually wear a medium but had to order a large'],
  ['the singer has a beautiful voice', 'her vocals give me chills'],
  ['cheating in online matches', 'half the lobby uses aimbots and wallhacks'],
  ['rude waiter', 'our server rolled his eyes and ignored us all night'],
  ['free gift card giveaway', 'click the link in my bio to claim your reward'],
  ['taxes are too high', 'the government takes half my paycheck'],
  ['the update ruined the phone', 'since installing the new version everything lags'],
  ['great value for money', 'cheap and it works better than the premium brands'],
  ['long wait on the phone', 'I was on hold for two hours before anyone picked up'],
];
