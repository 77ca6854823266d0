"""The build's frames equal, column by column, those of the code before the columnar reader
(issue 38): tests/fixtures/build_digests.json was written by that code (`tests/frame_digests.py`)
from the committed sample, whose messy cases (malformed and cut-free bad lines, other encodings
and spellings, duplicates) go through every reading rule."""

from __future__ import annotations

import json
from pathlib import Path

from tests.frame_digests import build_digests

FIXTURE = Path(__file__).parent / "fixtures" / "build_digests.json"


def test_the_build_of_the_sample_has_the_frames_of_the_code_before():
    """Every column of every frame has the values (digest) the code before gave; dtypes too,
    except the rationales, now one dictionary-encoded (categorical) column."""
    want, got = json.loads(FIXTURE.read_text()), build_digests("sample")
    assert sorted(got) == sorted(want)
    for frame in want:
        assert list(got[frame]) == list(want[frame]), frame  # the same columns in the same order
        for column, (dtype, digest) in want[frame].items():
            assert got[frame][column][1] == digest, f"{frame}.{column} differs"
            if column != "justification":
                assert got[frame][column][0] == dtype, f"{frame}.{column}: {got[frame][column][0]} != {dtype}"
