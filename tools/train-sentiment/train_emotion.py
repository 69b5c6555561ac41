"""Trains the English emotion head behind the scorer's emotionOf.

A 7-class logistic regression (GoEmotions' Ekman grouping: anger, disgust, fear, joy, sadness, surprise,
neutral) over the sentiment model's own features (libs/scoring/src/sentiment-model/features.ts, dumped by
dump-features.ts), with the hashed buckets folded to 2^16 (the top 16 of the 18 bits) so the weights stay
compact. Settings are chosen by fitting on GoEmotions train and scoring macro-F1 on GoEmotions dev; the
chosen settings are then fitted on train + dev. GoEmotions test is read only with --report-test, once, after
every choice is made. Writes libs/scoring/src/emotion-model/weights.ts and the probe readings the tests
compare with (libs/scoring/test/emotion-probes.json).

Run from the repository root (see README.md beside this file):
  ANALYST_TRAIN_DATA=/work/data/train nice python3 tools/train-sentiment/train_emotion.py [--report-test]
"""

import base64
import json
import os
import subprocess
import sys
import tempfile

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import f1_score

from train import BUCKETS, DENSE, HASH_BITS, ROOT, dump_features

HOW_TO = """ANALYST_TRAIN_DATA must name a directory (outside the repository; never commit it) holding
  goemotions/{train,dev,test}.tsv and labels.txt: GoEmotions (Demszky et al., ACL 2020; Apache-2.0),
    github.com/google-research/google-research, goemotions/data/ (emotions.txt is labels.txt there), or the same
    files in github.com/monologg/GoEmotions-pytorch, data/original/;
  goemotions/ekman_mapping.json: the dataset's own Ekman grouping, goemotions/data/ekman_mapping.json in
    github.com/google-research/google-research."""

# The order of the classes in the weights; the same as EMOTIONS in libs/contracts/src/emotions.ts.
EMOTIONS = ['anger', 'disgust', 'fear', 'joy', 'sadness', 'surprise', 'neutral']
EMOTION_BITS = 16
# Choices made on GoEmotions dev (fit on train): regularisation and class weighting.
C_GRID = [1.0, 2.0, 4.0, 8.0]
WEIGHTING_GRID = [None, 'balanced']

PROBES = [
    "I'm so scared of what happens next",
    'this is disgusting',
    'best day ever!!',
    'rest in peace, I miss him',
    'wait WHAT?? no way',
    'the video is 10 minutes long',
    'This makes me so angry, how dare they',
    'I love this, it is wonderful!',
    'not bad at all',
    'Absolutely hilarious 😂😂',
    'what a waste of time 🙄',
    'I am so disappointed in you',
    'When is the next video?',
]

WEIGHTS_TS = os.path.join(ROOT, 'libs/scoring/src/emotion-model/weights.ts')
PROBES_JSON = os.path.join(ROOT, 'libs/scoring/test/emotion-probes.json')


def read_split(directory, split, names, group_of):
    """Texts and Ekman classes of one GoEmotions split. A comment whose labels fall into more than one
    Ekman group (neutral counting as a group) is left out: it has no single emotion to learn."""
    texts, labels, left_out = [], [], 0
    for line in open(os.path.join(directory, f'{split}.tsv'), encoding='utf8'):
        text, ids, _ = line.rstrip('\n').split('\t')
        groups = {group_of[names[int(i)]] for i in ids.split(',')}
        if len(groups) != 1:
            left_out += 1
            continue
        # Masked names read like the @handles of social-media comments (as in train.py).
        texts.append(text.replace('[NAME]', '@user'))
        labels.append(EMOTIONS.index(groups.pop()))
    return texts, np.array(labels), left_out


def fold(x):
    """The hashed buckets folded to their top EMOTION_BITS bits (as emotion-model/model.ts reads them);
    the dense features after them."""
    x = x.tocoo()
    hashed = x.col < BUCKETS
    col = np.where(hashed, x.col >> (HASH_BITS - EMOTION_BITS), (1 << EMOTION_BITS) + x.col - BUCKETS)
    folded = sp.csr_matrix((x.data, (x.row, col)), shape=(x.shape[0], (1 << EMOTION_BITS) + DENSE))
    folded.sum_duplicates()
    return folded


def fit(x, y, c, weighting):
    return LogisticRegression(C=c, max_iter=300, tol=1e-3, class_weight=weighting).fit(x, y)


def quantise(model):
    """The weights as they ship: hashed ones as int8 with one scale, dense ones and biases to 6 decimals."""
    coef = model.coef_.T  # (features, classes)
    hashed = coef[: 1 << EMOTION_BITS]
    scale = float(np.abs(hashed).max()) / 127
    quantised = np.round(hashed / scale).astype(np.int8)
    dense = np.round(coef[1 << EMOTION_BITS :], 6)
    bias = np.round(model.intercept_, 6)
    return quantised, scale, dense, bias


def shipped_scores(quantised, scale, dense, bias, x):
    weights = np.vstack([quantised.astype(np.float64) * scale, dense]).astype(np.float32).astype(np.float64)
    return x @ weights + bias


def write_weights(quantised, scale, dense, bias):
    encoded = base64.b64encode(quantised.tobytes()).decode('ascii')
    floats = lambda a: ', '.join(repr(round(float(v), 6)) for v in a)
    text = f"""// Written by tools/train-sentiment/train_emotion.py (see its README and MODEL_CARD.md); do not edit by hand.
// GoEmotions (Apache-2.0) training, classes by its own Ekman grouping.

export const EMOTION_TRAINED = {{
  hashBits: {EMOTION_BITS},
  /** The classes in weight order. */
  classes: {json.dumps(EMOTIONS)},
  /** Class biases, in class order. */
  bias: [{floats(bias)}],
  /** Dense weights, class by class over the {DENSE} dense features of the sentiment model. */
  dense: [{floats(dense.T.reshape(-1))}],
  /** One step of the 8-bit hashed weights. */
  hashedScale: {scale!r},
  /** Int8, bucket by bucket, {len(EMOTIONS)} classes each. */
  hashedBase64:
    '{encoded}',
}};
"""
    os.makedirs(os.path.dirname(WEIGHTS_TS), exist_ok=True)
    with open(WEIGHTS_TS, 'w', encoding='utf8') as f:
        f.write(text)
    subprocess.run(['npx', 'prettier', '--write', WEIGHTS_TS], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return os.path.getsize(WEIGHTS_TS)


def per_class(gold, predicted):
    f1 = f1_score(gold, predicted, average=None, labels=range(len(EMOTIONS)))
    return f'macro-F1 {100 * f1.mean():.1f} (' + ', '.join(f'{e} {100 * v:.1f}' for e, v in zip(EMOTIONS, f1)) + ')'


def main():
    train_dir = os.environ.get('ANALYST_TRAIN_DATA')
    directory = train_dir and os.path.join(train_dir, 'goemotions')
    if not (directory and os.path.isfile(os.path.join(directory, 'ekman_mapping.json'))):
        print(HOW_TO)
        sys.exit(1)
    names = open(os.path.join(directory, 'labels.txt'), encoding='utf8').read().split()
    ekman = json.load(open(os.path.join(directory, 'ekman_mapping.json'), encoding='utf8'))
    group_of = {emotion: group for group, emotions in ekman.items() for emotion in emotions}
    group_of['neutral'] = 'neutral'
    report_test = '--report-test' in sys.argv[1:]

    splits = {}
    for split in ('train', 'dev') + (('test',) if report_test else ()):
        texts, labels, left_out = read_split(directory, split, names, group_of)
        splits[split] = (texts, labels)
        print(f'GoEmotions {split}: {len(texts)} comments kept ({left_out} across Ekman groups left out), '
              f'classes {dict(zip(EMOTIONS, np.bincount(labels, minlength=len(EMOTIONS)).tolist()))}')
    with tempfile.TemporaryDirectory() as workdir:
        x = {split: fold(dump_features(texts, workdir, split)[0]) for split, (texts, _) in splits.items()}
        x_probe = fold(dump_features(PROBES, workdir, 'probes')[0])
    y = {split: labels for split, (_, labels) in splits.items()}

    best = None
    for c in C_GRID:
        for weighting in WEIGHTING_GRID:
            model = fit(x['train'], y['train'], c, weighting)
            predicted = shipped_scores(*quantise(model), x['dev']).argmax(axis=1)
            f1 = f1_score(y['dev'], predicted, average='macro')
            print(f'C {c}, class weights {weighting}: dev {per_class(y["dev"], predicted)}', flush=True)
            if best is None or f1 > best[0] + 1e-9:
                best = (f1, c, weighting)
    _, c, weighting = best
    print(f'chosen: C {c}, class weights {weighting}; fitted on train + dev')
    model = fit(sp.vstack([x['train'], x['dev']]), np.concatenate([y['train'], y['dev']]), c, weighting)
    shipped = quantise(model)
    size = write_weights(*shipped)
    print(f'wrote {os.path.relpath(WEIGHTS_TS, ROOT)} ({size / 1e6:.2f} MB)')
    if report_test:
        predicted = shipped_scores(*shipped, x['test']).argmax(axis=1)
        print(f'GoEmotions test (reported once, never chosen on): {per_class(y["test"], predicted)}')

    probe_scores = shipped_scores(*shipped, x_probe)
    with open(PROBES_JSON, 'w', encoding='utf8') as f:
        json.dump([{'text': t, 'emotion': EMOTIONS[int(s.argmax())], 'scores': [round(float(v), 5) for v in s]}
                   for t, s in zip(PROBES, probe_scores)], f, ensure_ascii=False, indent=2)
        f.write('\n')
    subprocess.run(['npx', 'prettier', '--write', PROBES_JSON], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    for t, s in zip(PROBES, probe_scores):
        print(f'  {EMOTIONS[int(s.argmax())]:<9} {t}')


if __name__ == '__main__':
    main()
