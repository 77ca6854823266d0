"""Synthetic records for the sample: typed tool inventories, DAG-shaped traces, three queries.

Everything takes an explicit ``numpy.random.Generator``; nothing here keeps state. A record is a
plain dict in the `main` config schema (docs/DATA_FORMAT.md §1) plus private keys starting with
``_`` (the calls, each value's provenance, how the hard query wrote it, the distractor tools) that
the writer strips.
"""

from __future__ import annotations

import calendar
import json
from typing import Any

import numpy as np
import yaml

from ajb_sample.streams import RESOURCES_DIR, Rng, hex_id, rng_for
from ajb_utils.schema import TOPOLOGIES

VOCAB: dict[str, Any] = yaml.safe_load((RESOURCES_DIR / "sample_vocab.yaml").read_text())
WORDS: dict[str, dict[Any, Any]] = VOCAB["words"]  # how a hard query writes a value
CHOICES: dict[str, list[int]] = VOCAB["choices"] | {k: list(WORDS[k]) for k in ("seconds", "bandwidth")}


def fmt_num(v: Any) -> str:
    """Return a value as it is written in a query ("850.5", "300", "2500", a string as it is)."""
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return repr(v) if isinstance(v, float) else str(v)


def words(name: str) -> str:
    """Return an identifier with underscores as spaces."""
    return name.replace("_", " ")


def openai_calls(calls: list[dict[str, Any]] | None, prefix: str) -> list[dict[str, Any]] | None:
    """Return calls in OpenAI style with JSON-string arguments and ids `<prefix><k>` (None stays None)."""
    if calls is None:
        return None
    return [
        {
            "type": "function",
            "id": f"{prefix}{i + 1}",
            "function": {"name": c["name"], "arguments": json.dumps(c["arguments"])},
        }
        for i, c in enumerate(calls)
    ]


# ---------------------------------------------------------------- values -------------------


def draw_value(name: str, spec: dict[str, Any], rng: Rng) -> Any:
    """Return a random value of parameter `name` drawn according to its kind."""
    kind = spec["kind"]
    if kind == "money":
        if rng.random() < 0.35:
            return float(rng.choice([1500, 2500, 4000, 7500, 12000, 250000]))
        return round(float(rng.uniform(50, 9999)), 2)
    if kind == "power":
        if rng.random() < 0.3:
            return float(rng.choice([1000, 1200, 1500, 2000]))
        return round(float(rng.uniform(100, 990)), 1)
    if kind in CHOICES:
        return int(rng.choice(CHOICES[kind]))
    if kind == "ratio":
        return round(float(rng.uniform(0.05, 0.95)), 2)
    if kind == "date":
        day = int(rng.choice(list(WORDS["ordinal"])))
        return f"{int(rng.choice([2024, 2025]))}-{int(rng.integers(1, 13)):02d}-{day:02d}"
    if kind == "ident":
        return f"{spec['prefix']}-{int(rng.integers(10000, 99999))}"
    if kind == "enum":
        return str(rng.choice(spec["enum"]))
    if kind in ("name", "text"):
        return str(rng.choice(spec["values"]))
    if kind == "email":
        return f"{rng.choice(['j.doe', 'a.khan', 'm.rossi', 'l.chen'])}@example.com"
    if kind == "bool":
        return bool(rng.random() < 0.6)
    if kind == "tags":
        k = int(rng.integers(1, 3))
        return [str(t) for t in rng.choice(spec["values"], size=k, replace=False)]
    raise ValueError(f"unknown kind {kind}")


def default_for(spec: dict[str, Any]) -> Any:
    """Return the schema default for a parameter spec (None when the kind has none)."""
    kind = spec["kind"]
    if kind == "enum":
        return spec["enum"][0]
    value = VOCAB["defaults"].get(kind)
    if value is not None and spec["type"] == "number":
        return float(value)
    return value


def render_easy(name: str, value: Any, spec: dict[str, Any]) -> str:
    """Return the explicit easy rendering: parameter name and literal value ("amount 184.73")."""
    if spec["kind"] == "tags":
        return f"{name} {', '.join(value)}"
    if spec["kind"] == "bool":
        return f"{name} {'true' if value else 'false'}"
    return f"{name} {fmt_num(value)}"


def render_medium(name: str, value: Any, spec: dict[str, Any]) -> str:
    """Return the paraphrased medium rendering; the literal value stays visible."""
    if spec["kind"] == "tags":
        return f"labelled {' and '.join(value)}"
    if spec["kind"] == "bool":
        value = "on" if value else "off"
    return VOCAB["medium"].get(spec["kind"], "{label} {value}").format(label=words(name), value=fmt_num(value))


def render_hard(name: str, value: Any, spec: dict[str, Any], rng: Rng) -> tuple[str, str]:
    """Return (text, how) for hard: how is 'format' (reformatted/implicit) or 'visible'."""
    kind = spec["kind"]
    if kind == "money" and value >= 1000 and value % 100 == 0:
        return f"${fmt_num(value / 1000)}k", "format"
    if kind == "money":
        return f"${fmt_num(value)}", "visible"
    if kind == "power" and value >= 1000 and value % 100 == 0:
        return f"{fmt_num(value / 1000)} GW", "format"
    if kind in ("count", "big_count") and value in WORDS["number"]:
        return WORDS["number"][value], "format"
    if kind == "big_count" and value >= 1000:
        return f"{fmt_num(value / 1000)}k", "format"
    if kind == "ratio":
        return f"{fmt_num(round(value * 100, 2))}%", "format"
    if kind == "seconds":
        return WORDS["seconds"][value], "format"
    if kind == "days" and value in WORDS["days"]:
        return WORDS["days"][value], "format"
    if kind == "date":
        y, m, d = (int(x) for x in value.split("-"))
        if rng.random() < 0.5:
            return f"the {WORDS['ordinal'][d]} of {calendar.month_name[m]} {y}", "format"
        return f"{calendar.month_name[m]} {d}, {y}", "format"
    if kind == "bandwidth":
        return WORDS["bandwidth"][value], "format"
    if kind == "ident" and rng.random() < 0.5:
        return f"#{value.split('-')[1]}", "format"
    if kind == "enum" and value in WORDS["enum"]:
        return WORDS["enum"][value], "format"
    if kind == "bool":
        return WORDS["bool"][name][0 if value else 1], "format"
    if kind == "tags":
        return "/".join(value), "visible"
    return fmt_num(value), "visible"


# ---------------------------------------------------------------- tools ------------------------


def param_schema(name: str, spec: dict[str, Any], with_default: bool) -> dict[str, Any]:
    """Return the JSON-schema property of one parameter (short description, enum, default)."""
    prop: dict[str, Any] = {"type": spec["type"], "description": spec["desc"]}
    if spec["type"] == "array":
        prop["items"] = {"type": "string"}
    if spec["kind"] == "enum":
        prop["enum"] = list(spec["enum"])
    if with_default and default_for(spec) is not None:
        prop["default"] = default_for(spec)
    return prop


def tool_entry(name: str, description: str, props: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """Return one tool in the OpenAI `{"type": "function", "function": {...}}` shape."""
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": description,
            "parameters": {"type": "dict", "properties": props, "required": required},
        },
    }


def dag_parents(topology: str, n: int, rng: Rng) -> list[list[int]]:
    """Return, per call, the indices of earlier calls whose outputs it consumes."""
    if topology == "linear":
        return [[]] + [[i - 1] for i in range(1, n)]
    if topology == "fan_out":
        return [[]] + [[0] for _ in range(1, n)]
    if topology == "fan_in":
        return [[] for _ in range(n - 1)] + [list(range(n - 1))]
    if topology == "diamond":
        return [[]] + [[0] for _ in range(1, n - 1)] + [list(range(1, n - 1))]
    if topology == "optional_enrichment":
        if n == 2:
            return [[], [0]]
        core = [[]] + [[i - 1] for i in range(1, n - 2)]
        return core + [[]] + [[n - 3, n - 2]]  # enrichment (n-2) is independent, feeds the last
    if topology == "loop_like":
        k = n if n == 2 else int(rng.integers(2, n + 1))
        tail = [list(range(k))] if k < n else []
        return [[] for _ in range(k)] + tail + [[i - 1] for i in range(k + 1, n)]
    raise ValueError(f"unknown topology {topology}")


def choose_inputs(pool: list[str], k: int, rng: Rng) -> list[str]:
    """Return k distinct parameter names drawn from a pool."""
    return [str(x) for x in rng.choice(pool, size=min(k, len(pool)), replace=False)]


def output_param(noun: str, rng: Rng) -> tuple[str, dict[str, Any]]:
    """Return the (name, spec) of the parameter that carries a tool's output downstream."""
    if rng.random() < 0.75:
        return f"{noun}_score", {"type": "number", "kind": "history", "desc": f"Output of the {words(noun)} step."}
    return f"{noun}_ref", {"type": "string", "kind": "history", "desc": f"Reference from the {words(noun)} step."}


def history_value(spec: dict[str, Any], rng: Rng) -> Any:
    """Return an output value of an earlier step (never written in any query)."""
    if spec["type"] == "number":
        return round(float(rng.uniform(10, 5000)), 2)
    return f"REF-{int(rng.integers(100000, 999999))}"


def distractor_param_count(rng: Rng) -> int:
    """Return a right-skewed parameter count for a distractor tool (0-19, mean ~2)."""
    if rng.random() < 0.04:
        return int(rng.integers(8, 20))
    return int(rng.choice([0, 1, 1, 1, 2, 2, 2, 3, 3, 4]))


# ---------------------------------------------------------------- record -----------------------


def build_record(topology: str, rng: Rng) -> dict[str, Any]:
    """Return one synthetic record (main-config columns plus private `_` keys)."""
    specs: dict[str, dict[str, Any]] = dict(VOCAB["params"])
    domain = str(rng.choice(list(VOCAB["domains"])))
    dom = VOCAB["domains"][domain]
    lengths, probs = VOCAB["lengths"][topology]
    n = int(rng.choice(lengths, p=probs))
    parents = dag_parents(topology, n, rng)
    n_loop = sum(1 for p in parents if not p) if topology == "loop_like" else 1  # leading calls of one tool
    enrich = (1 if n == 2 else n - 2) if topology == "optional_enrichment" else None  # the optional call
    nouns = [str(x) for x in rng.permutation(dom["nouns"])]
    verbs = [str(x) for x in rng.permutation(VOCAB["verbs"])]
    pool = list(dict.fromkeys(dom["params"] + VOCAB["generic_params"]))

    tools: dict[str, dict[str, Any]] = {}
    calls: list[dict[str, Any]] = []
    provenance: list[dict[str, str]] = []  # per call: arg -> explicit | default | history
    outputs: list[tuple[str, dict[str, Any], Any]] = []
    loop_tool: str | None = None
    for i in range(n):
        if i < n_loop and loop_tool is not None:
            tname = loop_tool
        else:
            tname = f"{verbs[i % len(verbs)]}_{nouns[i % len(nouns)]}"
        if tname not in tools:
            sentinel = i == enrich and rng.random() < 0.35
            n_in = 0 if sentinel else int(rng.choice([1, 1, 2, 2, 3]))
            if topology == "loop_like" and i < n_loop:
                idents = [p for p in pool if specs[p]["kind"] == "ident"] or pool
                others = [p for p in pool if specs[p]["kind"] != "ident"]
                inputs = [str(rng.choice(idents))] + choose_inputs(others, n_in - 1, rng)
            else:
                inputs = choose_inputs(pool, n_in, rng)
            with_default = [p for p in VOCAB["generic_params"] if p not in inputs and default_for(specs[p]) is not None]
            optional = [] if sentinel else choose_inputs(with_default, int(rng.choice([0, 1, 1, 2])), rng)
            dep_params = [
                (outputs[j][0], outputs[j][1])
                for j in parents[i]
                if not (topology == "loop_like" and i >= n_loop and j < n_loop - 1)
            ]
            props = {p: param_schema(p, specs[p], False) for p in inputs}
            props.update({name: {"type": s["type"], "description": s["desc"]} for name, s in dep_params})
            props.update({p: param_schema(p, specs[p], True) for p in optional})
            deps = [name for name, _ in dep_params]
            opt_mode = {p: str(rng.choice(["default", "explicit", "absent", "absent", "absent"])) for p in optional}
            entry = tool_entry(tname, f"{words(tname).capitalize()}.", props, inputs + deps)
            tools[tname] = {"entry": entry, "opt_mode": opt_mode, "inputs": inputs, "deps": deps}
            if topology == "loop_like" and i < n_loop:
                loop_tool = tname
        t = tools[tname]
        args: dict[str, Any] = {}
        prov: dict[str, str] = {}
        for p in t["inputs"]:
            args[p], prov[p] = draw_value(p, specs[p], rng), "explicit"
        dep_values = {outputs[j][0]: outputs[j][2] for j in parents[i]}
        for p in t["deps"]:
            args[p], prov[p] = dep_values.get(p, outputs[-1][2]), "history"
        for p, mode in t["opt_mode"].items():
            if mode == "default":
                args[p], prov[p] = default_for(specs[p]), "default"
            elif mode == "explicit":
                args[p], prov[p] = draw_value(p, specs[p], rng), "explicit"
        calls.append({"name": tname, "arguments": args})
        provenance.append(prov)
        out_name, out_spec = output_param(tname.split("_", 1)[1], rng)
        outputs.append((out_name, out_spec, history_value(out_spec, rng)))
        specs[out_name] = out_spec

    n_tools = max(int(np.clip(round(rng.normal(12.9, 2.6)), 8, 19)), len(tools) + 3)
    distractors = distractor_tools(n_tools - len(tools), set(tools), domain, specs, rng)
    entries = [t["entry"] for t in tools.values()] + distractors
    available = [entries[k] for k in rng.permutation(len(entries))]
    queries = {d: build_query(calls, provenance, parents, d, specs, rng) for d in ("easy", "medium", "hard")}
    return {
        "id": hex_id(rng),  # drawn after the queries
        "dag_type": topology,
        "query_easy": queries["easy"][0],
        "query_medium": queries["medium"][0],
        "query_hard": queries["hard"][0],
        "system_prompt": VOCAB["system_prompt"],
        "available_tools": available,
        "expected_tool_calls": openai_calls(calls, "step"),
        "_calls": calls,
        "_provenance": provenance,
        "_hard_how": queries["hard"][1],
        "_distractors": [d["function"]["name"] for d in distractors],
    }


def build_records(counts: dict[str, int], seed: int) -> list[dict[str, Any]]:
    """Return all records, topology by topology in schema order."""
    rng = rng_for(seed, 1)
    return [build_record(t, rng) for t in TOPOLOGIES for _ in range(counts[t])]


def distractor_tools(
    k: int, taken: set[str], domain: str, specs: dict[str, dict[str, Any]], rng: Rng
) -> list[dict[str, Any]]:
    """Return k distractor tools (domain verb/noun pairs, an error-reporting tool, sentinels)."""
    out: list[dict[str, Any]] = []
    names = set(taken)
    pool = list(dict.fromkeys(VOCAB["domains"][domain]["params"] + VOCAB["generic_params"]))
    if rng.random() < 0.6 and k > 0:
        notes = {"notes": param_schema("notes", specs["notes"], False)}
        out.append(
            tool_entry("show_error_and_get_input_from_user", "Show an error and ask the user.", notes, ["notes"])
        )
        names.add("show_error_and_get_input_from_user")
    while len(out) < k:
        name = f"{rng.choice(VOCAB['verbs'])}_{rng.choice(VOCAB['domains'][domain]['nouns'])}"
        if name in names:
            continue
        names.add(name)
        params = choose_inputs(pool, distractor_param_count(rng), rng)
        n_req = int(rng.integers(0, len(params) + 1)) if params else 0
        props = {p: param_schema(p, specs[p], j >= n_req) for j, p in enumerate(params)}
        out.append(tool_entry(name, f"{words(name).capitalize()}.", props, params[:n_req]))
    return out


# ---------------------------------------------------------------- queries ----------------------

EASY_LEAD = ["First, {x}.", "Then {x}.", "Next, {x}.", "After that, {x}.", "Finally, {x}."]
MEDIUM_LEAD = ["I need you to {x}.", "Once that's done, {x}.", "Also {x}.", "Then {x}.", "And to wrap up, {x}."]
QUERY_FRAME = {"easy": "Please do the following. {}", "medium": "{}", "hard": "Quick one: {} - sort it out."}


def call_phrase(name: str, args: list[str], uses_prev: bool, register: str) -> str:
    """Return the clause that asks for one call in a given register."""
    verb, noun = name.split("_", 1)
    intent = f"{verb} the {words(noun)}" if register != "hard" else f"{words(noun)}"
    tail = ""
    if args:
        tail = (" with " if register == "easy" else ", ") + ", ".join(args)
    if uses_prev and register == "easy":
        tail += " using the output of the earlier step"
    return intent + tail


def build_query(
    calls: list[dict[str, Any]],
    provenance: list[dict[str, str]],
    parents: list[list[int]],
    difficulty: str,
    specs: dict[str, dict[str, Any]],
    rng: Rng,
) -> tuple[str, dict[str, str]]:
    """Return (query text, how each hard value was rendered) for one difficulty."""
    clauses: list[str] = []
    seen: set[tuple[str, str]] = set()
    how: dict[str, str] = {}
    for i, (call, prov) in enumerate(zip(calls, provenance)):
        parts: list[str] = []
        for p, v in call["arguments"].items():
            key = (p, json.dumps(v))
            if prov[p] == "history" or key in seen:
                continue
            seen.add(key)
            if difficulty == "easy":
                parts.append(render_easy(p, v, specs[p]))
            elif difficulty == "medium":
                parts.append(render_medium(p, v, specs[p]))
            elif prov[p] == "default":
                how[f"{i}:{p}"] = "default"
            elif rng.random() < 0.07:
                how[f"{i}:{p}"] = "omitted"
            else:
                text, kind = render_hard(p, v, specs[p], rng)
                how[f"{i}:{p}"] = kind
                parts.append(text)
        clause = call_phrase(call["name"], parts, bool(parents[i]), difficulty)
        last = i == len(calls) - 1 and i > 0  # the easy query's last step is "Finally"
        lead = {"easy": EASY_LEAD[4 if last else min(i, 4)], "medium": MEDIUM_LEAD[min(i, 4)], "hard": "{x}"}
        clauses.append(lead[difficulty].format(x=clause))
    text = QUERY_FRAME[difficulty].format(("; " if difficulty == "hard" else " ").join(clauses))
    text = text[0].upper() + text[1:]
    return text, how
