"""Builds the SYNTHETIC sample in the hub layout: configs, runs, annotations, README (docs/DATA_FORMAT.md).

    python -m ajb_sample --scale small --out data/sample --seed 0

Records (`records`), simulated generators (`generators`), simulated judges (`judges`, behaviour in
resources/sample_judges.yaml), the runs specified here and the two annotation studies (`studies`)
are combined here. Same seed -> same bytes.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import string
from pathlib import Path
from typing import Any

import yaml

from ajb_sample.generators import build_generations
from ajb_sample.judges import VARIANTS, behaviour, judge_config, planted, planted_summary
from ajb_sample.messy import add_messy_cases
from ajb_sample.random_config import random_seed_of, random_variant
from ajb_sample.records import build_records
from ajb_sample.streams import RESOURCES_DIR, judge_generator_name
from ajb_sample.studies import human_annotations, rewrite_validation
from ajb_utils import schema
from ajb_utils.paths import DATA_DIR, SAMPLE_DIR
from ajb_utils.schema import DIFFICULTIES, GENERATORS, JUDGES, MAIN_JUDGES, TOPOLOGIES

SCALES: dict[str, dict[str, int]] = {  # records per topology; "full" has the paper's counts
    "tiny": {t: 3 for t in TOPOLOGIES},
    "small": {t: 20 for t in TOPOLOGIES},
    "full": {
        "linear": 812,
        "fan_out": 399,
        "fan_in": 1049,
        "diamond": 501,
        "optional_enrichment": 823,
        "loop_like": 224,
    },
}
DATA_CONFIGS: list[str] = ["main", *GENERATORS, *JUDGES]  # under data/; the runs go under runs/


STUDIES: dict[str, tuple[list[str], str, list[str]]] = {  # a run's conditions, prompt and difficulties
    "temperature": (["with_gt", "without_gt"], "structured", DIFFICULTIES),
    "thinking": (["with_gt", "without_gt"], "structured", DIFFICULTIES),
    "format": (["with_gt", "freeform"], "freeform", DIFFICULTIES),
    "c2": (["without_gt_05"], "0.5-default", ["hard"]),
    "c3": (["with_gt", "without_gt", "corrupted_gt"], "structured", DIFFICULTIES),
}


def run_spec(
    judge: str,
    suffix: str,
    study: str,
    generators: list[str],
    label: str,
    rate: float = 0.0,
    temperature: float | None = None,
    thinking: bool | None = None,
) -> dict[str, Any]:
    """Return a run: its judge, generators, share of draws redrawn and `<run>.meta.json` (DATA_FORMAT.md §2)."""
    model = judge.removeprefix("judge_")
    conditions, prompt_variant, difficulties = STUDIES[study]
    meta = {
        "name": f"synthetic_{model}_{suffix}",
        "judge": model,
        "display": f"{schema.display(judge)} ({label})",
        "study": study,
        "conditions": conditions,
        "generators": [judge_generator_name(g) for g in generators],
        "difficulties": difficulties,
        "decoding": {"temperature": temperature, "thinking": thinking},
        "prompt_variant": prompt_variant,
        "backend": "simulated",
        "model": model,
        "synthetic": True,
        "source": "sample",
    }
    return {"judge": judge, "generators": generators, "rate": rate, "meta": meta}


def run_specs() -> list[dict[str, Any]]:
    """Return the sample's runs, in their random streams' order: temperature, thinking, format, C2, C3."""
    rs, llama_70b = behaviour()["resample"], "llama_3_3_70b_instruct"
    temperature = [
        run_spec(j, f"temp_{t.replace('.', '_')}", "temperature", [g], f"T={t}", rs["temperature"][t], float(t))
        for j, g in (("qwen3_32b", llama_70b), ("judge_gpt_oss_120b", "llama_3_1_8b_instruct"))
        for t in ("0.3", "0.7", "1.0")
    ]
    open_gens = [g for g in GENERATORS if g != "gpt5_4"]
    thinking = [
        run_spec("judge_qwq_32b", f"thinking_{on}", "thinking", open_gens, f"thinking {on}", rate, thinking=on == "on")
        for on, rate in (("on", 0.0), ("off", rs["thinking_off"]))
    ]
    formats = [
        run_spec(j, f"format_{g}", "format", [g], "free-form vs structured")
        for j, g in (("qwen3_32b", llama_70b), ("judge_qwq_32b", "smollm3_3b"))
    ]
    c2 = [run_spec(j, "c2", "c2", GENERATORS, "0.5-default") for j in MAIN_JUDGES]
    c3 = [
        run_spec(j, "c3", "c3", [llama_70b], "corrupted GT", rs["corrupted_gt"])
        for j in ("judge_qwq_32b", "judge_gemini_2_5_pro")
    ]
    return temperature + thinking + formats + c2 + c3


# ---------------------------------------------------------------- writing ---------------------


def write_jsonl(path: Path, rows: list[dict[str, Any]]) -> None:
    """Write rows as compact JSON lines (creating the folder)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as fh:
        fh.writelines(json.dumps(r, separators=(",", ":"), ensure_ascii=False) + "\n" for r in rows)


def readme_text(files: dict[str, list[dict[str, Any]]], scale: str, seed: int, variant: str) -> str:
    """Return README.md: the YAML header (`synthetic: true`, the `configs:`, each config's row count
    as the hub's `dataset_info:` gives it, and what the variant planted, `planted:`) and a plain
    statement of what this is (resources/sample_card.md). The loader reads `synthetic`, the row
    counts and `planted` from the header (ajb_utils.data). `files` maps each config's path to its
    rows; its name is the file's stem."""
    lines = ["---", "synthetic: true", "configs:"]
    for path in files:
        lines += [f"- config_name: {Path(path).stem}", "  data_files:", "  - split: train", f"    path: {path}"]
    lines.append("dataset_info:")
    for path, rows in files.items():
        lines += [f"- config_name: {Path(path).stem}", "  splits:", "  - name: train", f"    num_examples: {len(rows)}"]
    lines += yaml.safe_dump({"planted": planted_summary(variant)}, sort_keys=False, width=200).splitlines()
    command = f"python -m ajb_sample --scale {scale} --seed {seed}"
    drawn = random_seed_of(variant)
    command += "" if variant == "default" else f" --variant {variant}" if drawn is None else f" --random-seed {drawn}"
    card = string.Template((RESOURCES_DIR / "sample_card.md").read_text()).substitute(command=command)
    return "\n".join([*lines, "---", ""]) + "\n" + card


def build_sample(scale: str, seed: int, out: Path, variant: str = "default", times: int = 1) -> dict[str, Any]:
    """Write the whole sample into `out` (atomically); return the private generations and where each
    messy case went (`messy.add_messy_cases`).

    `variant` names the planted patterns (`judges.VARIANTS`); "default" is the committed sample.
    `times` multiplies the scale's records per topology (and with them every config's rows).
    """
    with planted(variant):
        records = build_records({t: n * times for t, n in SCALES[scale].items()}, seed)
        gens = {g: build_generations(records, g, behaviour()["generators"][g], seed) for g in GENERATORS}
        configs = {"main": [{k: r[k] for k in schema.MAIN_COLUMNS} for r in records]}
        configs |= {g: [{k: r[k] for k in schema.GENERATOR_COLUMNS} for r in gens[g]] for g in GENERATORS}
        configs |= {j: judge_config(gens, j, GENERATORS, schema.MAIN_CONDITIONS, seed) for j in JUDGES}
        runs = run_specs()
        for tag, run in enumerate(runs):
            meta = run["meta"]
            configs[meta["name"]] = judge_config(
                gens, run["judge"], run["generators"], meta["conditions"], seed, tag, run["rate"], meta["difficulties"]
            )
        messy = add_messy_cases(configs)
        files = {f"{'data' if name in DATA_CONFIGS else 'runs'}/{name}.jsonl": rows for name, rows in configs.items()}
        files["annotations/synthetic_human_annotations.jsonl"] = human_annotations(records, gens, seed)
        files["annotations/synthetic_rewrite_validation.jsonl"] = rewrite_validation(records, seed)
        readme = readme_text(files, scale, seed, variant)
    tmp = out.parent / f".{out.name}.tmp-{os.getpid()}"
    if tmp.exists():
        shutil.rmtree(tmp)
    for path, rows in files.items():
        write_jsonl(tmp / path, rows)
    for run in runs:
        meta = run["meta"]
        (tmp / f"runs/{meta['name']}.meta.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    (tmp / "README.md").write_text(readme, encoding="utf-8")
    replace_dir(tmp, out)
    return {"generations": gens, "messy": messy}


def replace_dir(tmp: Path, out: Path) -> None:
    """Move the finished temp dir into place, removing the previous contents of `out`."""
    old = out.parent / f".{out.name}.old-{os.getpid()}"
    if out.exists():
        out.rename(old)
    tmp.rename(out)
    if old.exists():
        shutil.rmtree(old)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Return the parsed command line."""
    ap = argparse.ArgumentParser(description="Write the deterministic SYNTHETIC sample.")
    ap.add_argument("--scale", choices=list(SCALES), default="small")
    ap.add_argument(
        "--out", type=Path, default=None, help="target dir (default data/sample, or data/sample_full for --scale full)"
    )
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument(
        "--times", type=int, default=1, help="records per topology times this (every config's rows with them)"
    )
    planted_by = ap.add_mutually_exclusive_group()
    planted_by.add_argument(
        "--random-seed",
        type=int,
        default=None,
        help="draw every planted knob (GT lift per judge, noise, difficulty slopes, ablation effects, anchoring,"
        " leniency, correlated errors) from this seed over the space sample_judges.yaml spans (random_config)",
    )
    planted_by.add_argument(
        "--variant",
        choices=list(VARIANTS),
        default="default",
        help="planted patterns: 'default' (the committed sample), 'contrast' (jury loses, every GT lift positive) or"
        " 'reversed' (with-GT and without-GT profiles swapped, flat difficulty, a sensitive Prometheus-2)",
    )
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Command-line entry point."""
    args = parse_args(argv)
    if args.times < 1:
        raise SystemExit("--times must be 1 or more")
    if args.times > 1 and args.out is None:
        raise SystemExit("--times needs --out (the committed sample and data/sample_full are the 1x scales)")
    if args.random_seed is not None and args.random_seed < 0:
        raise SystemExit(f"--random-seed must be 0 or more, got {args.random_seed}")
    if args.random_seed is not None and args.out is None:
        raise SystemExit("--random-seed needs --out (data/sample and data/sample_full hold the default variant)")
    variant = args.variant if args.random_seed is None else random_variant(args.random_seed)
    out = args.out or (DATA_DIR / "sample_full" if args.scale == "full" else SAMPLE_DIR)
    build_sample(args.scale, args.seed, Path(out), variant, args.times)
    extra = "" if variant == "default" else f", variant {variant}"
    extra += "" if args.times == 1 else f", {args.times}x the records"
    print(f"wrote {args.scale} sample (seed {args.seed}{extra}) to {out}")
