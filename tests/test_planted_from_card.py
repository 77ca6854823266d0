"""What a sample planted is read from its card, never typed into a notebook (issue 49).

A notebook's prose that describes the sample's planted behaviour with a judge's name or a rate goes
false on another sample (`python -m ajb_sample --random-seed N`); the notebooks print it instead with
`takeaways.planted_text(planted_effects(data_source), topics)`. The check finds such sentences: a
sentence that speaks of what is planted (planted, the simulator, sample_judges.yaml, the synthetic
runs or judges) and names a judge, or gives a percentage in a sentence that cites no paper's or draft's value.
"""

from __future__ import annotations

import json
import re

import pytest

from ajb_sample.judges import planted_summary
from ajb_utils import schema
from ajb_utils import takeaways as tk
from ajb_utils.paths import REPO_ROOT

NAMES = sorted({schema.display(j) for j in [*schema.JUDGES, "qwen3_32b"]}, key=len, reverse=True)
PLANTED = re.compile(
    r"planted|sample_judges\.yaml|the simulator|synthetic (?:temperature|thinking|judges|runs|free)", re.I
)
RATE = re.compile(r"\d+(?:\.\d+)?\s*%")
CITED = re.compile(r"paper's|draft's|the paper")
SENTENCE = re.compile(r"(?<=[.;])\s+(?=[A-Z*(])")
# Typed on purpose, with the reason it cannot go false on a sample ajb_sample builds (the knob is not
# drawn by --random-seed and is the same in every variant). The human study's disagreement rates and
# GPT-5.4's over-complete generator profile (its error modes) are such knobs.
NOT_DRAWN = {
    ("11", "20-25% on flawed tool-selection"): "ajb_sample/studies.py DISAGREE: fixed in every sample",
    ("13", "GPT-5.4's generator profile"): "generator error modes are not drawn: fixed in every sample",
}


def typed_planted(nn: str, text: str) -> list[str]:
    """Return the sentences of a notebook's markdown that type what the sample planted (module docstring)."""
    out = []
    for para in text.split("\n"):
        for s in SENTENCE.split(para):
            typed = any(n in s for n in NAMES) or (RATE.search(s) and not CITED.search(s))
            if PLANTED.search(s) and typed:
                if not any(nn == k and key in s for k, key in NOT_DRAWN):
                    out.append(s)
    return out


def test_the_check_finds_the_issue_cases() -> None:
    """The four sentences the issue lists are found; the rewritten ones, reading the card, are not."""
    listed = {
        "04": "**On the synthetic sample** the per-metric pattern is planted (per-metric sensitivity; GPT-5.4 and "
        "Gemini-2.5-Pro anchor sequence and coverage to the reference: `ajb_sample/resources/sample_judges.yaml`).",
        "07": "On the sample the lines are flat because the simulator redraws only 1-2% of verdicts per temperature.",
        "08": "What the data loaded show (computed; on the sample the near-null effect is planted: the thinking-off "
        "run redraws 1.5% of verdicts):",
        "14": "**What the sample planted.** The six synthetic judges' profiles (`ajb_sample/resources/sample_judges.yaml`)"
        " make QwQ-32B and GPT-OSS-120B lead with GT.",
    }
    assert {nn: bool(typed_planted(nn, s)) for nn, s in listed.items()} == dict.fromkeys(listed, True)
    assert typed_planted("06", "On the sample the C2 deltas are planted; the paper's reading is +4.1 to +5.6 pp.") == []
    assert (
        typed_planted("04", "**What the sample planted** (each judge's sensitivity) is printed under the load.") == []
    )


@pytest.mark.parametrize("path", sorted((REPO_ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")), ids=lambda p: p.stem[:2])
def test_no_planted_description_is_typed(path) -> None:
    """0 typed planted descriptions in every notebook's markdown."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    text = "\n".join("".join(c["source"]) for c in nb["cells"] if c["cell_type"] == "markdown")
    assert typed_planted(path.stem[:2], text) == []


def test_every_planted_topic_reads_the_card_of_every_variant() -> None:
    """Every topic a notebook can print is computed from the card of each shipped variant and a drawn one;
    a card without a topic's field says so in one line."""
    for variant in ("default", "contrast", "reversed", "random-5"):
        card = planted_summary(variant)
        text = tk.planted_text(card, tk.PLANTED_TOPICS)
        assert f"(variant {variant}," in text and "nan" not in text and "None" not in text
        assert len(text.splitlines()) == 1 + len(tk.PLANTED_TOPICS)
    drawn = planted_summary("random-5")
    assert f"{100 * drawn['resample']['thinking_off']:.1f}".removesuffix(".0") + "%" in tk.planted_text(
        drawn, ["thinking"]
    )
    assert "does not record `resample`" in tk.planted_text({"variant": "old"}, ["temperature"])
