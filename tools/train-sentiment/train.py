"""Trains the English sentiment model behind the scorer's sentimentOf / scorePost.

Fits a 3-class linear model (negative / neutral / positive; one logistic regression per class over
naive-Bayes-scaled features, read together through a softmax) on GoEmotions (Reddit comments, Apache-2.0)
and Tweet Sentiment Extraction (tweets, CC BY 4.0) over the features of libs/scoring/src/sentiment-model/features.ts (dumped by dump-features.ts, so training and
inference share one feature code), then calibrates, on the validation split of TweetEval's sentiment task
only, the blend with VADER's compound and where the blend lands on the compound scale. Writes libs/scoring/src/sentiment-model/weights.ts and the probe
readings the tests compare with (libs/scoring/test/english-sentiment-probes.json).

Run from the repository root (see README.md beside this file):
  ANALYST_TRAIN_DATA=/work/data/train ANALYST_EVAL_DATA=/work/data/eval nice python3 tools/train-sentiment/train.py
"""

import base64
import csv
import html
import json
import os
import re
import subprocess
import sys
import tempfile

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression

HOW_TO = """ANALYST_TRAIN_DATA and ANALYST_EVAL_DATA must name directories (outside the repository; never commit them):
  $ANALYST_TRAIN_DATA/goemotions/{train,dev}.tsv and labels.txt: GoEmotions (Demszky et al., ACL 2020; Apache-2.0),
    github.com/google-research/google-research, goemotions/data/ (emotions.txt is labels.txt there), or the same
    files in github.com/monologg/GoEmotions-pytorch, data/original/.
  $ANALYST_TRAIN_DATA/tse/train_10fold.csv: Tweet Sentiment Extraction (Kaggle 2020, from Figure Eight's
    "Data for Everyone"; CC BY 4.0), the copy in github.com/thuwyh/Tweet-Sentiment-Extraction,
    input/tweet-sentiment-extraction/train_10fold.csv (its text and sentiment columns are read).
  $ANALYST_TRAIN_DATA/dynasent/dynasent-v1.1-round01-yelp-dev.jsonl and dynasent-v1.1-round02-dynabench-dev.jsonl
    (variants.py only): DynaSent v1.1 (Potts et al., ACL 2021; CC BY 4.0), github.com/cgpotts/dynasent, or the
    copy in github.com/aksinia-02/Sentiment_Analysis_of_Text, dynasent-v1.1/.
  $ANALYST_EVAL_DATA/tweeteval/val_text.txt and val_labels.txt: TweetEval sentiment validation split,
    github.com/cardiffnlp/tweeteval, datasets/sentiment/. Used to calibrate only; its test split is never read here."""

HASH_BITS = 18
BUCKETS = 1 << HASH_BITS
DENSE = 5
CLASSES = 3
# Regularisation, how much each corpus weighs (each is class-balanced within itself first), and the grids
# calibrated on the TweetEval validation split; C and the corpus weights were chosen there too (MODEL_CARD.md,
# variants.py): DynaSent at any weight lowered validation, so it is not trained on.
C = 2.0
CORPUS_WEIGHT = {'goemotions': 1.0, 'tse': 1.0}
# DynaSent's dev rounds (its train files were not obtainable; its test rounds are left alone).
DYNASENT_FILES = ['dynasent-v1.1-round01-yelp-dev.jsonl', 'dynasent-v1.1-round02-dynabench-dev.jsonl']
SENTIMENTS = {'negative': 0, 'neutral': 1, 'positive': 2}
BLEND_GRID = [0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8]
CUT_GRID = np.round(np.arange(-0.6, 0.61, 0.025), 3)
# compoundToScore's neutral band on the compound scale (libs/scoring/src/vader.ts).
NEUTRAL_LOW, NEUTRAL_HIGH = -0.075, 0.35

# GoEmotions' own grouping of its emotions by sentiment (sentiment_mapping.json in its repository).
POSITIVE = {'amusement', 'excitement', 'joy', 'love', 'desire', 'optimism', 'caring', 'pride', 'admiration',
            'gratitude', 'relief', 'approval'}
NEGATIVE = {'fear', 'nervousness', 'remorse', 'embarrassment', 'disappointment', 'sadness', 'grief', 'disgust',
            'anger', 'annoyance', 'disapproval'}

PROBES = [
    'I love this, it is wonderful!',
    'This is the worst thing I have ever seen.',
    'The video was uploaded on Tuesday.',
    'not bad at all',
    'not bad',
    'I do not like it',
    'ok',
    'When is the next video?',
    'Absolutely hilarious 😂😂',
    'what a waste of time 🙄',
    'thanks for sharing this',
    'I am so disappointed in you',
    'meh',
    'Killed it 🔥',
    'this is sick',
    'that is cap',
    'The book was good.',
]

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), '..', '..'))
WEIGHTS_TS = os.path.join(ROOT, 'libs/scoring/src/sentiment-model/weights.ts')
PROBES_JSON = os.path.join(ROOT, 'libs/scoring/test/english-sentiment-probes.json')


def sentiment_class(emotions):
    """0 negative, 1 neutral, 2 positive; None for a comment labelled with both signs (left out)."""
    positive, negative = bool(emotions & POSITIVE), bool(emotions & NEGATIVE)
    if positive and negative:
        return None
    return 2 if positive else 0 if negative else 1


def read_goemotions(directory):
    names = open(os.path.join(directory, 'labels.txt'), encoding='utf8').read().split()
    texts, labels = [], []
    for split in ('train', 'dev'):
        for line in open(os.path.join(directory, f'{split}.tsv'), encoding='utf8'):
            text, ids, _ = line.rstrip('\n').split('\t')
            label = sentiment_class({names[int(i)] for i in ids.split(',')})
            if label is None:
                continue
            # Masked names read like the @handles of social-media comments.
            texts.append(text.replace('[NAME]', '@user'))
            labels.append(label)
    return texts, np.array(labels)


def read_tse(directory):
    """Tweet Sentiment Extraction: each distinct text once (the first of its copies); a text given two
    different labels is left out. Its ` apostrophes ("I`d") read as '."""
    rows = list(csv.DictReader(open(os.path.join(directory, 'train_10fold.csv'), encoding='utf8', newline='')))
    labels_of = {}
    for row in rows:
        labels_of.setdefault(row['text'].strip(), set()).add(row['sentiment'])
    texts, labels = [], []
    for text, found in labels_of.items():
        if len(found) == 1 and text:
            texts.append(text.replace('`', "'"))
            labels.append(SENTIMENTS[found.pop()])
    print(f'Tweet Sentiment Extraction: {len(rows)} rows, {len(texts)} distinct texts with one label')
    return texts, np.array(labels)


def read_dynasent(directory):
    """DynaSent's dev rounds, by their gold label (sentences without one, or labelled mixed, are left out)."""
    texts, labels = [], []
    for name in DYNASENT_FILES:
        for line in open(os.path.join(directory, name), encoding='utf8'):
            row = json.loads(line)
            if row.get('gold_label') in SENTIMENTS:
                texts.append(row['sentence'])
                labels.append(SENTIMENTS[row['gold_label']])
    return texts, np.array(labels)


# Each corpus's reader: (texts, labels 0 negative / 1 neutral / 2 positive).
READERS = {'goemotions': read_goemotions, 'tse': read_tse, 'dynasent': read_dynasent}


def decode_export(text):
    """TweetEval's validation file holds some tweets as exported, with \\u2019-style escapes and HTML entities
    (&amp;); a comment reaches the scorer as the characters themselves."""
    return html.unescape(re.sub(r'\\u([0-9a-fA-F]{4})', lambda m: chr(int(m.group(1), 16)), text))


def read_tweeteval_validation(directory):
    texts = open(os.path.join(directory, 'val_text.txt'), encoding='utf8').read().split('\n')
    labels = [int(x) for x in open(os.path.join(directory, 'val_labels.txt')).read().split()]
    return [decode_export(t) for t in texts[: len(labels)]], np.array(labels)


def dump_features(texts, workdir, name):
    """Features of each text through the scorer's own code: (matrix, VADER compound, VADER signal, read by
    VADER alone: emoji-led or with slang)."""
    source = os.path.join(workdir, f'{name}.jsonl')
    target = os.path.join(workdir, f'{name}.tsv')
    with open(source, 'w', encoding='utf8') as f:
        for t in texts:
            f.write(json.dumps(t) + '\n')
    subprocess.run(['node', '-r', '@swc-node/register', 'tools/train-sentiment/dump-features.ts', source, target],
                   cwd=ROOT, env={**os.environ, 'SWC_NODE_PROJECT': 'tsconfig.json'}, check=True)
    rows, cols, vals, compound, signal, vader_alone = [], [], [], [], [], []
    for i, line in enumerate(open(target, encoding='utf8')):
        c, s, e, dense, buckets = line.rstrip('\n').split('\t')
        compound.append(float(c))
        signal.append(s == '1')
        vader_alone.append(e == '1')
        hashed = [int(b) for b in buckets.split()] if buckets else []
        for b in hashed:
            rows.append(i)
            cols.append(b)
            vals.append(1 / np.sqrt(len(hashed)))
        for j, v in enumerate(float(x) for x in dense.split()):
            if v:
                rows.append(i)
                cols.append(BUCKETS + j)
                vals.append(v)
    x = sp.csr_matrix((vals, (rows, cols)), shape=(len(compound), BUCKETS + DENSE))
    x.sum_duplicates()
    return x, np.array(compound), np.array(signal), np.array(vader_alone)


def balanced_weights(labels):
    """Row weights that give each class of one corpus the same total weight (the corpus's row count)."""
    counts = np.bincount(labels, minlength=CLASSES)
    return (len(labels) / (CLASSES * counts))[labels]


def fit_scaled_one_vs_rest(x, labels, weights):
    """One logistic regression per class over features scaled by their naive-Bayes log-count ratio for that
    class (Wang & Manning 2012, "Baselines and Bigrams"; the dense features unscaled). The scaling folds
    into the weights, so the shipped model is an ordinary linear model read through a softmax, as before.
    Returns the (features, classes) weights and the biases."""
    present = x.copy()
    present.data = np.ones_like(present.data)
    coef, bias = np.zeros((x.shape[1], CLASSES)), np.zeros(CLASSES)
    for k in range(CLASSES):
        inside = 1 + np.asarray(present[labels == k].sum(axis=0)).ravel()
        outside = 1 + np.asarray(present[labels != k].sum(axis=0)).ravel()
        ratio = np.log((inside / inside.sum()) / (outside / outside.sum()))
        ratio[BUCKETS:] = 1.0
        fit = LogisticRegression(C=C, max_iter=300, tol=1e-3)
        fit.fit(x @ sp.diags(ratio), (labels == k).astype(int), sample_weight=weights)
        coef[:, k] = fit.coef_.ravel() * ratio
        bias[k] = fit.intercept_[0]
    return coef, bias


def macro_recall(gold, predicted):
    return float(np.mean([np.mean(predicted[gold == k] == k) for k in range(CLASSES)]))


def best_band(reading, gold):
    """The cut-offs (low, high) of the grid with the best 3-class macro recall, and that recall."""
    best = (-1.0, 0.0, 0.0)
    for low in CUT_GRID:
        for high in CUT_GRID[CUT_GRID > low]:
            predicted = np.where(reading < low, 0, np.where(reading >= high, 2, 1))
            m = macro_recall(gold, predicted)
            if m > best[0]:
                best = (m, float(low), float(high))
    return best


def model_reading(weights, bias, x):
    """P(positive) - P(negative) with the given (dequantised) weights, as model.ts computes it."""
    z = x @ weights + bias
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return (e[:, 2] - e[:, 0]) / e.sum(axis=1)


def to_compound(blend, low, high):
    """Piecewise linear: the calibrated cut-offs land on compoundToScore's neutral band, ±1 on ±1."""
    return np.interp(blend, [-1, low, high, 1], [-1, NEUTRAL_LOW, NEUTRAL_HIGH, 1])


def english_compound(reading, compound, signal, vader_alone, blend_weight, low, high):
    """As english-sentiment.ts: emoji-led texts and texts with slang read VADER's compound; no sentiment word
    and a neutral blend read as no sentiment at all (0)."""
    blend = blend_weight * compound + (1 - blend_weight) * reading
    out = to_compound(blend, low, high)
    quiet = (~signal) & (blend >= low) & (blend < high)
    return np.where(vader_alone, compound, np.where(quiet, 0.0, out))


def write_weights(hashed, dense, bias, scale, blend_weight, low, high):
    quantised = np.round(hashed / scale).astype('<i2')
    encoded = base64.b64encode(quantised.tobytes()).decode('ascii')
    floats = lambda a: ', '.join(repr(round(float(v), 6)) for v in a)
    text = f"""// Written by tools/train-sentiment/train.py (see its README and MODEL_CARD.md); do not edit by hand.
// GoEmotions (Apache-2.0) and Tweet Sentiment Extraction (CC BY 4.0) training, TweetEval validation calibration.

export const TRAINED = {{
  hashBits: {HASH_BITS},
  /** Class biases: negative, neutral, positive. */
  bias: [{floats(bias)}],
  /** Dense weights, class by class (negative, neutral, positive) over the {DENSE} dense features. */
  dense: [{floats(dense.T.reshape(-1))}],
  /** One step of the 16-bit hashed weights. */
  hashedScale: {float(scale)!r},
  /** Share of VADER's compound in the blend with the model's reading. */
  blendWeight: {blend_weight!r},
  /** Blend values that land on compoundToScore's neutral band edges (-0.075 and 0.35). */
  neutralLow: {low!r},
  neutralHigh: {high!r},
  /** Int16 little-endian, bucket by bucket, three classes each. */
  hashedBase64:
    '{encoded}',
}};
"""
    with open(WEIGHTS_TS, 'w', encoding='utf8') as f:
        f.write(text)
    # The repository's formatter has the last word on layout, so format:check passes on the file as written.
    subprocess.run(['npx', 'prettier', '--write', WEIGHTS_TS], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return os.path.getsize(WEIGHTS_TS)


def main():
    train_dir, eval_dir = os.environ.get('ANALYST_TRAIN_DATA'), os.environ.get('ANALYST_EVAL_DATA')
    directories = {name: train_dir and os.path.join(train_dir, name) for name in CORPUS_WEIGHT}
    tweeteval = eval_dir and os.path.join(eval_dir, 'tweeteval')
    if not (all(d and os.path.isdir(d) for d in directories.values()) and tweeteval and os.path.isdir(tweeteval)):
        print(HOW_TO)
        sys.exit(1)
    corpora = {name: READERS[name](directory) for name, directory in directories.items()}
    val_texts, val_labels = read_tweeteval_validation(tweeteval)
    for name, (texts, labels) in corpora.items():
        print(f'{name}: {len(texts)} texts, classes {np.bincount(labels).tolist()}, weight {CORPUS_WEIGHT[name]}')
    with tempfile.TemporaryDirectory() as workdir:
        x_train = sp.vstack([dump_features(texts, workdir, name)[0] for name, (texts, _) in corpora.items()]).tocsr()
        x_val, val_compound, val_signal, val_vader_alone = dump_features(val_texts, workdir, 'val')
        x_probe, probe_compound, probe_signal, probe_vader_alone = dump_features(PROBES, workdir, 'probes')
    train_labels = np.concatenate([labels for _, labels in corpora.values()])
    train_weights = np.concatenate([CORPUS_WEIGHT[name] * balanced_weights(labels)
                                    for name, (_, labels) in corpora.items()])

    coef, intercept = fit_scaled_one_vs_rest(x_train, train_labels, train_weights)
    # Dense weights and biases ship with 6 decimals; the probes are computed with exactly what ships.
    hashed, dense, bias = coef[:BUCKETS], np.round(coef[BUCKETS:], 6), np.round(intercept, 6)
    scale = float(np.abs(hashed).max()) / 32767
    # Calibrate with the weights as they ship (16-bit), so the figures are the product's.
    hashed = np.round(hashed / scale) * scale
    weights = np.vstack([hashed, dense]).astype(np.float32).astype(np.float64)

    val_reading = model_reading(weights, bias, x_val)
    print(f'VADER compound alone, best band on validation: {best_band(val_compound, val_labels)}')
    best = None
    for blend_weight in BLEND_GRID:
        recall, low, high = best_band(blend_weight * val_compound + (1 - blend_weight) * val_reading, val_labels)
        print(f'blend {blend_weight}: validation macro recall {100 * recall:.1f} (band {low} .. {high})')
        if best is None or recall > best[0] + 1e-9:
            best = (recall, blend_weight, low, high)
    recall, blend_weight, low, high = best
    final = english_compound(val_reading, val_compound, val_signal, val_vader_alone, blend_weight, low, high)
    product = np.where(final < NEUTRAL_LOW, 0, np.where(final >= NEUTRAL_HIGH, 2, 1))
    print(f'chosen: blend {blend_weight}, band {low} .. {high}; '
          f'validation macro recall through the compound scale {100 * macro_recall(val_labels, product):.1f}')

    size = write_weights(hashed, dense, bias, scale, blend_weight, low, high)
    print(f'wrote {os.path.relpath(WEIGHTS_TS, ROOT)} ({size / 1e6:.2f} MB)')
    probe_reading = model_reading(weights, bias, x_probe)
    probe_final = english_compound(probe_reading, probe_compound, probe_signal, probe_vader_alone, blend_weight, low,
                                   high)
    with open(PROBES_JSON, 'w', encoding='utf8') as f:
        json.dump([{'text': t, 'reading': round(float(r), 6), 'compound': round(float(c), 6)}
                   for t, r, c in zip(PROBES, probe_reading, probe_final)], f, ensure_ascii=False, indent=2)
        f.write('\n')
    for t, c in zip(PROBES, probe_final):
        print(f'  {c:+.4f}  {t}')


if __name__ == '__main__':
    main()
