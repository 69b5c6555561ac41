import { englishCompound } from '../src/english-sentiment';
import { replaceEmoji } from '../src/emoji';
import { sentimentOf } from '../src/lexicon-scorer';
import { extractFeatures, newFeatures } from '../src/sentiment-model/features';
import { modelReading } from '../src/sentiment-model/model';
import { vaderReading } from '../src/vader';
import probes from './english-sentiment-probes.json';

function reading(text: string): number {
  const spelled = replaceEmoji(text);
  const { compound, signal } = vaderReading(spelled);
  const features = newFeatures();
  extractFeatures(spelled, compound, signal, features);
  return modelReading(features);
}

describe('the trained English sentiment model', () => {
  it('loads the shipped weights and reads the training script probes as it did', () => {
    expect(probes.length).toBeGreaterThan(10);
    for (const probe of probes) {
      expect(reading(probe.text)).toBeCloseTo(probe.reading, 5);
      expect(englishCompound(replaceEmoji(probe.text))).toBeCloseTo(probe.compound, 5);
    }
  });

  it('reads clear praise as positive and clear complaints as negative on the compound scale', () => {
    expect(englishCompound('I love this, it is wonderful!')).toBeGreaterThanOrEqual(0.5);
    expect(englishCompound('Thank you so much, this helped me a lot')).toBeGreaterThanOrEqual(0.35);
    expect(englishCompound('This is the worst thing I have ever seen.')).toBeLessThan(-0.5);
    expect(englishCompound('what a waste of time')).toBeLessThan(-0.075);
  });

  it('reads a negated liking as negative and a negated complaint as not negative', () => {
    expect(englishCompound('I do not like it')).toBeLessThan(-0.075);
    expect(englishCompound('not bad at all')).toBeGreaterThanOrEqual(-0.075);
    // A negated word's character grams are hashed apart from the plain word's, so "bad" in "not bad" does
    // not read through the grams of a plain "bad" (it read 4.11, lean negative, before); and the negator is
    // read only through what it negates, not as a word of its own that tweets taught to read negative.
    expect(englishCompound('not bad')).toBeGreaterThanOrEqual(0);
    expect(sentimentOf('not bad')).toBeGreaterThanOrEqual(5);
    expect(englishCompound('not good')).toBeLessThan(-0.075);
  });

  it('reads slang by VADER alone: the model learnt killed, sick and fire in their older senses', () => {
    for (const text of ['Killed it 🔥', 'this is sick', 'that beat slaps', 'goated', 'so mid']) {
      expect(vaderReading(text).slang).toBe(true);
      expect(englishCompound(replaceEmoji(text))).toBe(vaderReading(replaceEmoji(text)).compound);
    }
    expect(sentimentOf('Killed it 🔥')).toBeGreaterThanOrEqual(7.5);
    expect(sentimentOf('this is sick')).toBeGreaterThanOrEqual(5.5);
    expect(sentimentOf('so mid')).toBeLessThan(4.5);
    // Not slang here: the model reads it with VADER as usual.
    expect(vaderReading("I'm sick of it").slang).toBe(false);
    expect(sentimentOf("I'm sick of it")).toBeLessThan(3);
  });

  it('gives a statement with no sentiment word that the model reads as neutral no sentiment at all', () => {
    expect(englishCompound('The video was uploaded on Tuesday.')).toBe(0);
    expect(sentimentOf('The video was uploaded on Tuesday.')).toBe(5);
  });

  it('maps the readings onto the v1 buckets through sentimentOf', () => {
    expect(sentimentOf('I love this, it is wonderful!')).toBeGreaterThanOrEqual(7.5);
    expect(sentimentOf('This is the worst thing I have ever seen.')).toBeLessThan(3);
    const neutral = sentimentOf('When is the next video?');
    expect(neutral).toBeGreaterThanOrEqual(4.5);
    expect(neutral).toBeLessThan(5.5);
  });

  it('is deterministic and keeps nothing from one text to the next', () => {
    const first = englishCompound('honestly this was pretty good');
    englishCompound('I hate everything about this, absolutely terrible and a complete waste of my evening');
    expect(englishCompound('honestly this was pretty good')).toBe(first);
    expect(reading('')).toBe(reading(''));
  });
});
