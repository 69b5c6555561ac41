import { EMOTIONS } from '@analyst/contracts';
import { replaceEmoji } from '../src/emoji';
import { emotionOf } from '../src/emotion';
import { sentimentOf } from '../src/lexicon-scorer';
import { emotionScores } from '../src/emotion-model/model';
import { extractFeatures, newFeatures } from '../src/sentiment-model/features';
import { vaderReading } from '../src/vader';
import probes from './emotion-probes.json';

function scores(text: string): number[] {
  const spelled = replaceEmoji(text);
  const { compound, signal } = vaderReading(spelled);
  const features = newFeatures();
  extractFeatures(spelled, compound, signal, features);
  return Array.from(emotionScores(features));
}

describe('the English emotion head', () => {
  it('loads the shipped weights and scores the training script probes as it did', () => {
    expect(probes.length).toBeGreaterThan(10);
    for (const probe of probes) {
      const read = scores(probe.text);
      expect(read).toHaveLength(EMOTIONS.length);
      read.forEach((score, k) => expect(score).toBeCloseTo(probe.scores[k], 4));
      expect(emotionOf(probe.text)).toBe(probe.emotion);
    }
  });

  it.each([
    ["I'm so scared of what happens next", 'fear'],
    ['this is disgusting', 'disgust'],
    ['best day ever!!', 'joy'],
    ['rest in peace, I miss him', 'sadness'],
    ['wait WHAT?? no way', 'surprise'],
    ['the video is 10 minutes long', 'neutral'],
    ['This makes me so angry, how dare they', 'anger'],
  ])('reads %j as %s', (text, emotion) => {
    expect(emotionOf(text)).toBe(emotion);
  });

  it('reads nothing in an empty body or one with no words', () => {
    expect(emotionOf('')).toBeNull();
    expect(emotionOf('   ')).toBeNull();
    expect(emotionOf('?!... --')).toBeNull();
  });

  it('reads emoji as words of their own', () => {
    expect(emotionOf('😂😂😂')).toBe('joy');
  });

  it('is deterministic and keeps nothing from one text to the next', () => {
    const first = emotionOf('I miss my grandma so much');
    emotionOf('I hate everything about this, absolutely furious and a complete waste of my evening');
    expect(emotionOf('I miss my grandma so much')).toBe(first);
  });

  it('reads the same right after the sentiment of the same text (whose features it reuses) as after another', () => {
    for (const probe of probes) {
      sentimentOf(probe.text);
      expect(emotionOf(probe.text)).toBe(probe.emotion);
      sentimentOf('a different comment altogether, lovely');
      expect(emotionOf(probe.text)).toBe(probe.emotion);
    }
  });
});
