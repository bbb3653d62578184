"""Chunks: a byte range of a JSONL file holds exactly the lines that start in it, with the file's
line numbers, so that reading every chunk gives the file's lines once each, in order."""

import random

import numpy as np

from cogevol.core import shards
from cogevol.raydata.chunks import chunk_of, count_newlines, plan_chunks, with_line_numbers


def _lines_by_chunks(path, chunk_bytes):
    chunks = plan_chunks([(str(path), "jsonl")], chunk_bytes)
    chunks = with_line_numbers(chunks, [count_newlines(c) for c in chunks])
    got = [x for c in chunks for x in shards.numbered_lines(c.path, c.start, c.end, c.newlines_before)]
    return chunks, got


def test_every_line_once_in_order_whatever_the_chunk_size(tmp_path):
    rng = random.Random(3)
    body = [b"", b'{"a": 1}', b"", b"\xe4\xbd\xa0\xe5\xa5\xbd" * 7, b"x" * 300, b"y\r", b""]
    body += [bytes(rng.choice(b"abc\xe2\x82\xac") for _ in range(rng.randint(0, 40))) for _ in range(200)]
    p = tmp_path / "f.jsonl"
    for tail in (b"", b"\n"):  # with and without a final newline
        p.write_bytes(b"\n".join(body) + tail)
        whole = list(shards.numbered_lines(p))
        assert [line for _, _, line in whole] == body and [n for _, n, _ in whole] == list(range(1, len(body) + 1))
        for size in (1, 2, 3, 7, 64, 1000, 10**6):
            chunks, got = _lines_by_chunks(p, size)
            assert got == whole, size
            if size < p.stat().st_size:
                assert len(chunks) > 1 and chunks[0].first_of_file and chunks[-1].last_of_file


def test_only_plain_jsonl_is_split_and_keys_sort_like_input(tmp_path):
    (tmp_path / "a.jsonl").write_bytes(b'{"x": 1}\n' * 100)
    (tmp_path / "b.json").write_bytes(b'[{"x": 1}' + b', {"x": 2}' * 100 + b"]")
    (tmp_path / "c.jsonl.gz").write_bytes(b"\x1f\x8b" + b"0" * 2000)
    files = [(str(tmp_path / "a.jsonl"), "jsonl"), (str(tmp_path / "b.json"), "jsonl"),
             (str(tmp_path / "c.jsonl.gz"), "jsonl.gz")]
    chunks = plan_chunks(files, 128)
    assert [c.file_index for c in chunks].count(0) == 8  # 900 bytes in 128-byte ranges
    assert [(c.file_index, c.end) for c in chunks if c.file_index > 0] == [(1, None), (2, None)]
    assert [c.index for c in chunks] == list(range(len(chunks)))
    keys = np.array([chunks[0].key(5), chunks[3].key(400), chunks[8].key(1), chunks[9].key(0)])
    assert (np.diff(keys) > 0).all() and chunk_of(keys, chunks).tolist() == [0, 3, 8, 9]
