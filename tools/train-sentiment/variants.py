"""Re-runs, on the TweetEval validation split only, the data and fitting variants tried against the shipped
model for issue 37 (MODEL_CARD.md, "Chosen on validation"): which corpora and at what weight, a multinomial
logistic regression against the naive-Bayes-scaled one-vs-rest fit train.py uses, and the regularisation.
Writes nothing; prints, for each variant, the best validation macro recall over train.py's blend grid and
cut-offs, and the model alone. The variants of issue 28 (GoEmotions' labels, weights and readings) are in the
model card's history; the script that ran them is in this file's git history.

Same data and environment as train.py (see README.md beside this file), DynaSent included; the test split is
never read:
  ANALYST_TRAIN_DATA=/work/data/train ANALYST_EVAL_DATA=/work/data/eval nice python3 tools/train-sentiment/variants.py
Takes about 15 minutes on one core.
"""

import os
import sys
import tempfile

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import LogisticRegression

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import train as T  # noqa: E402

# (corpus weights, fit, C); the shipped model is the first.
VARIANTS = [
    ({'goemotions': 1.0, 'tse': 1.0}, 'scaled', 2.0),
    ({'goemotions': 1.0}, 'scaled', 2.0),
    ({'goemotions': 1.0, 'tse': 1.0, 'dynasent': 0.1}, 'scaled', 2.0),
    ({'goemotions': 1.0, 'tse': 1.0, 'dynasent': 0.3}, 'scaled', 2.0),
    ({'goemotions': 1.0, 'tse': 1.0, 'dynasent': 1.0}, 'scaled', 2.0),
    ({'goemotions': 1.0, 'tse': 0.7}, 'scaled', 2.0),
    ({'goemotions': 1.0, 'tse': 1.5}, 'scaled', 2.0),
    ({'goemotions': 0.5, 'tse': 1.0, 'dynasent': 0.3}, 'scaled', 2.0),
    ({'goemotions': 1.0, 'tse': 1.0}, 'scaled', 1.0),
    ({'goemotions': 1.0, 'tse': 1.0}, 'scaled', 4.0),
    ({'goemotions': 1.0, 'tse': 1.0, 'dynasent': 0.3}, 'multinomial', 0.5),
    ({'goemotions': 1.0}, 'multinomial', 0.5),
]


def report(name, reading, compound, gold):
    by_blend = {w: T.best_band(w * compound + (1 - w) * reading, gold) for w in T.BLEND_GRID}
    w = max(by_blend, key=lambda k: by_blend[k][0])
    recall, low, high = by_blend[w]
    print(f'{name}: {100 * recall:.1f} (blend {w}, band {low} .. {high}); model alone {100 * by_blend[0.0][0]:.1f}',
          flush=True)


def main():
    train_dir, eval_dir = os.environ.get('ANALYST_TRAIN_DATA'), os.environ.get('ANALYST_EVAL_DATA')
    directories = {name: train_dir and os.path.join(train_dir, name) for name in T.READERS}
    tweeteval = eval_dir and os.path.join(eval_dir, 'tweeteval')
    if not (all(d and os.path.isdir(d) for d in directories.values()) and tweeteval and os.path.isdir(tweeteval)):
        print(T.HOW_TO)
        sys.exit(1)
    corpora = {name: T.READERS[name](directory) for name, directory in directories.items()}
    val_texts, gold = T.read_tweeteval_validation(tweeteval)
    with tempfile.TemporaryDirectory() as workdir:
        features = {name: T.dump_features(texts, workdir, name)[0] for name, (texts, _) in corpora.items()}
        x_val, compound, _, _ = T.dump_features(val_texts, workdir, 'val')

    for weights, fit, c in VARIANTS:
        names = list(weights)
        x = sp.vstack([features[n] for n in names]).tocsr()
        y = np.concatenate([corpora[n][1] for n in names])
        w = np.concatenate([weights[n] * T.balanced_weights(corpora[n][1]) for n in names])
        if fit == 'scaled':
            T.C = c
            coef, bias = T.fit_scaled_one_vs_rest(x, y, w)
        else:
            model = LogisticRegression(C=c, max_iter=300, tol=1e-3).fit(x, y, sample_weight=w)
            coef, bias = model.coef_.T, model.intercept_
        corpora_name = ' + '.join(f'{n} {weights[n]}' for n in names)
        report(f'{corpora_name}, {fit}, C {c}', T.model_reading(coef, bias, x_val), compound, gold)


if __name__ == '__main__':
    main()
