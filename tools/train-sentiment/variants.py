"""Re-runs, on the TweetEval validation split only, the training variants tried against the shipped model
(MODEL_CARD.md, "Tried and not kept"): other groupings of GoEmotions' emotions, class weights, finer classes
(Ekman's seven, all 28 emotions) and other readings of the model's probabilities. Writes nothing; prints, for
each variant, the best validation macro recall over train.py's blend grid and cut-offs, and the model alone.

Same data and environment as train.py (see README.md beside this file); the test split is never read:
  ANALYST_TRAIN_DATA=/work/data/train ANALYST_EVAL_DATA=/work/data/eval nice python3 tools/train-sentiment/variants.py
Takes about 10 minutes on one core.
"""

import os
import sys
import tempfile

import numpy as np
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402

AMBIGUOUS = {'surprise', 'curiosity', 'confusion', 'realization'}
WEAK = {'approval', 'disapproval'}
# GoEmotions' own Ekman grouping (ekman_mapping.json in its repository), neutral as its seventh class.
EKMAN = {
    'anger': ['anger', 'annoyance', 'disapproval'],
    'disgust': ['disgust'],
    'fear': ['fear', 'nervousness'],
    'joy': ['joy', 'amusement', 'approval', 'excitement', 'gratitude', 'love', 'optimism', 'relief', 'pride',
            'admiration', 'desire', 'caring'],
    'sadness': ['sadness', 'disappointment', 'embarrassment', 'grief', 'remorse'],
    'surprise': ['surprise', 'realization', 'confusion', 'curiosity'],
    'neutral': ['neutral'],
}


def emotion_sets(directory):
    """The emotions of each comment read_goemotions keeps, in its order."""
    names = open(os.path.join(directory, 'labels.txt'), encoding='utf8').read().split()
    sets = []
    for split in ('train', 'dev'):
        for line in open(os.path.join(directory, f'{split}.tsv'), encoding='utf8'):
            emotions = [names[int(i)] for i in line.rstrip('\n').split('\t')[1].split(',')]
            if T.sentiment_class(set(emotions)) is not None:
                sets.append(emotions)
    return sets


def report(name, reading, compound, gold):
    by_blend = {w: T.best_band(w * compound + (1 - w) * reading, gold) for w in T.BLEND_GRID}
    w = max(by_blend, key=lambda k: by_blend[k][0])
    recall, low, high = by_blend[w]
    print(f'{name}: {100 * recall:.1f} (blend {w}, band {low} .. {high}); model alone {100 * by_blend[0.0][0]:.1f}',
          flush=True)


def three_class(x, y, x_val, class_weight='balanced', sample_weight=None):
    fit = LogisticRegression(C=T.C, max_iter=300, tol=1e-3, class_weight=class_weight)
    fit.fit(x, y, sample_weight=sample_weight)
    p = fit.predict_proba(x_val)
    return p[:, 2] - p[:, 0], fit


def emotion_classes(x, sets, x_val, group):
    """Multinomial over finer classes (one row per labelled emotion), read as P(positive) - P(negative) by
    the dataset's sentiment grouping of each class."""
    rows, labels = [], []
    for i, emotions in enumerate(sets):
        for e in emotions:
            rows.append(i)
            labels.append(group[e])
    fit = LogisticRegression(C=T.C, max_iter=200, tol=1e-3).fit(x[rows], np.array(labels))
    sign = {}
    for e, g in group.items():
        sign[g] = 1 if e in T.POSITIVE else -1 if e in T.NEGATIVE else sign.get(g, 0)
    return fit.predict_proba(x_val) @ np.array([sign[c] for c in fit.classes_])


def main():
    train_dir, eval_dir = os.environ.get('ANALYST_TRAIN_DATA'), os.environ.get('ANALYST_EVAL_DATA')
    goemotions = train_dir and os.path.join(train_dir, 'goemotions')
    tweeteval = eval_dir and os.path.join(eval_dir, 'tweeteval')
    if not (goemotions and os.path.isdir(goemotions) and tweeteval and os.path.isdir(tweeteval)):
        print(T.HOW_TO)
        sys.exit(1)
    texts, y = T.read_goemotions(goemotions)
    sets = emotion_sets(goemotions)
    assert len(sets) == len(y)
    val_texts, gold = T.read_tweeteval_validation(tweeteval)
    with tempfile.TemporaryDirectory() as workdir:
        x, _, _, _ = T.dump_features(texts, workdir, 'train')
        x_val, compound, _, _ = T.dump_features(val_texts, workdir, 'val')

    base, fit = three_class(x, y, x_val)
    report('shipped: 3 classes, balanced', base, compound, gold)
    z = x_val @ fit.coef_.T + fit.intercept_
    report('reading tanh((z_pos - z_neg) / 2)', np.tanh((z[:, 2] - z[:, 0]) / 2), compound, gold)
    p = fit.predict_proba(x_val)
    report('reading (P_pos - P_neg) / (1 - P_neu / 2)', (p[:, 2] - p[:, 0]) / (2 - p[:, 1]), compound, gold)

    ambiguous_only = np.array([set(e) <= AMBIGUOUS for e in sets])
    report('ambiguous-only comments left out', three_class(x[~ambiguous_only], y[~ambiguous_only], x_val)[0],
           compound, gold)
    surprise = y.copy()
    surprise[np.array([('surprise' in e) and c == 1 for e, c in zip(sets, y)])] = 2
    report('surprise as positive', three_class(x, surprise, x_val)[0], compound, gold)
    report('no class weights', three_class(x, y, x_val, class_weight=None)[0], compound, gold)
    weak_only = np.array([c != 1 and set(e) - {'neutral'} <= WEAK for e, c in zip(sets, y)])
    report('approval / disapproval-only left out', three_class(x[~weak_only], y[~weak_only], x_val)[0], compound,
           gold)
    as_neutral = y.copy()
    as_neutral[weak_only] = 1
    report('approval / disapproval-only as neutral', three_class(x, as_neutral, x_val)[0], compound, gold)
    report('approval / disapproval-only at weight 0.5',
           three_class(x, y, x_val, sample_weight=np.where(weak_only, 0.5, 1.0))[0], compound, gold)
    per_label = np.array([len(e) for e in sets], dtype=float)
    report('each comment weighted by its number of emotions, no class weights',
           three_class(x, y, x_val, class_weight=None, sample_weight=per_label)[0], compound, gold)
    report('Ekman 7 classes, no class weights',
           emotion_classes(x, sets, x_val, {e: g for g, es in EKMAN.items() for e in es}), compound, gold)
    report('28 emotions, no class weights',
           emotion_classes(x, sets, x_val, {e: e for es in EKMAN.values() for e in es}), compound, gold)


if __name__ == '__main__':
    main()
