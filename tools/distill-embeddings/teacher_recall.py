"""Recall@10 and MRR of the teacher itself (the full all-MiniLM-L6-v2 ONNX model, mean-pooled and
normalised as sentence-transformers does) on the retrieval sets bench/search-paraphrase.ts dumps:
the ceiling the distilled static embedding is measured against. A comment ranks by cosine alone.

Usage: SEARCH_PARAPHRASE_DUMP=/tmp/sets.json DISTRACTORS=5000 npm run bench -- bench/search-paraphrase.ts
       python3 teacher_recall.py --teacher DIR /tmp/sets.json
"""

import argparse
import json
import os
import re
import time
import unicodedata

import numpy as np
import onnxruntime as ort

from distill import MODEL_FILE, TOKENIZER_FILE, wordpiece


def teacher_ids(text, vocab, max_tokens=128):
    """BERT uncased pre-tokenization (lowercase, accents off, words and punctuation), then WordPiece."""
    text = "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")
    ids = []
    for word in re.findall(r"\w+|[^\w\s]", text):
        ids += wordpiece(word, vocab) or [vocab["[UNK]"]]
    return [vocab["[CLS]"]] + ids[: max_tokens - 2] + [vocab["[SEP]"]]


def embed(session, texts, vocab, batch=128):
    sequences = [teacher_ids(t, vocab) for t in texts]
    out = np.zeros((len(texts), 384), dtype=np.float32)
    order = np.argsort([len(s) for s in sequences], kind="stable")
    for start in range(0, len(order), batch):
        rows = order[start : start + batch]
        width = max(len(sequences[r]) for r in rows)
        ids = np.zeros((len(rows), width), dtype=np.int64)
        mask = np.zeros_like(ids)
        for k, r in enumerate(rows):
            ids[k, : len(sequences[r])] = sequences[r]
            mask[k, : len(sequences[r])] = 1
        hidden = session.run(
            ["last_hidden_state"], {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )[0]
        pooled = (hidden * mask[:, :, None]).sum(1) / mask.sum(1)[:, None]
        out[rows] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--teacher", required=True)
    parser.add_argument("sets")
    args = parser.parse_args()
    data = json.load(open(args.sets, encoding="utf-8"))
    vocab = json.load(open(os.path.join(args.teacher, TOKENIZER_FILE), encoding="utf-8"))["model"]["vocab"]
    options = ort.SessionOptions()
    options.intra_op_num_threads = 2
    session = ort.InferenceSession(os.path.join(args.teacher, MODEL_FILE), options, providers=["CPUExecutionProvider"])
    started = time.time()
    comments = embed(session, data["comments"], vocab)
    seconds = time.time() - started
    print(f"teacher embedded {len(comments)} comments in {seconds:.1f} s ({len(comments) / seconds:.0f} a second)")
    for s in data["sets"]:
        queries = embed(session, [q["text"] for q in s["queries"]], vocab)
        scores = queries @ comments.T
        found = total = 0
        reciprocal = 0.0
        for q, row in zip(s["queries"], scores):
            ranks = [int((row > row[i]).sum() + (row[:i] == row[i]).sum()) + 1 for i in q["relevant"]]
            found += sum(r <= 10 for r in ranks)
            total += len(ranks)
            reciprocal += 1 / min(ranks)
        print(
            f"{s['name']}: teacher recall@10 {found / total:.3f}  MRR {reciprocal / len(s['queries']):.3f}"
            f"  ({len(s['queries'])} queries, {len(data['comments'])} comments)"
        )


if __name__ == "__main__":
    main()
