"""The deterministic SYNTHETIC sample in the hub layout (a wing of the package: not used on real data).

    python -m ajb_sample --scale tiny|small|full [--out DIR] [--seed N]

- records     typed tool inventories and DAG-shaped expected traces per topology (resources/sample_vocab.yaml)
- generators  simulated generators: plan modes and error modes per difficulty
- judges      simulated LLM judges and their configs, behaviour in resources/sample_judges.yaml
- studies     the human-annotation and rewrite meta-judge studies
- streams     seeded sub-streams and the shared row conventions
- messy       one row of each messy case the loader must count (duplicate, nulls, range, retry)
- build       the generations and runs; writes every config and the card; the command line
"""

from ajb_sample.build import SCALES, build_sample, main

__all__ = ["SCALES", "build_sample", "main"]
