"""Golden outputs of `flopscope report` and `flopscope diff` in every format, on committed inputs.

    golden.py --flopscope BIN --write    regenerate tests/golden/expected/ (scripts/regen-golden.sh)
    golden.py --flopscope BIN            compare; on a difference print the unified diff of the first
                                         differing file and exit 1

Each output is stdout of one command run from the repository root with relative paths, so what it prints
is the same on every machine. Normalised, because they are specific to a checkout or a build: the
repository's absolute path (<src>), the scratch folder of the rank-matched diff (<tmp>) and the tool
version (<version>).
"""
import argparse
import difflib
import os
import re
import shutil
import subprocess
import sys
import tempfile

SOURCE_DIR = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXPECTED = os.path.join(SOURCE_DIR, "tests", "golden", "expected")

RUN_A = "tests/data/runs/sonnet-mini-1layer-v1.db"
RUN_B = "tests/data/runs/sonnet-mini-1layer-v2.db"
KINETO = "tests/data/kineto"
GPU_H100 = f"{KINETO}/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"
GPU_MI300 = f"{KINETO}/tracelens__mi300__gaunernst_bert-small-uncased__1016001.json.gz"
RANKS = [f"{KINETO}/hta__trace_filter__sampled_rank-{r}.json.gz" for r in (0, 1)]

REPORT_FORMATS = ["table", "md", "json", "csv"]
DIFF_FORMATS = ["table", "md", "json", "junit", "html"]
RANK_FORMATS = ["table", "json"]  # a per-rank report or diff has these two (others exit 2)
EXTENSION = {"table": "txt", "md": "md", "json": "json", "csv": "csv", "junit": "junit.xml", "html": "html"}
BIAS = "*position_adaptive_bias*"

# (name, arguments, formats, working directory: None for the repository root, "ranks" for the scratch
# folder holding A/ and B/, two folders of the same two rank traces).
CASES = [
    ("report_cpu", ["report", RUN_A], REPORT_FORMATS, None),
    ("report_gpu", ["report", GPU_H100], REPORT_FORMATS, None),
    ("report_ranks", ["report", *RANKS], RANK_FORMATS, None),
    ("diff_cpu", ["diff", RUN_A, RUN_B, "--expect-vanished", BIAS, "--forbid-active", BIAS], DIFF_FORMATS, None),
    ("diff_cpu_gate_fails", ["diff", RUN_A, RUN_A, "--expect-vanished", BIAS], DIFF_FORMATS, None),
    ("diff_gpu", ["diff", GPU_H100, GPU_MI300], DIFF_FORMATS, None),
    ("diff_ranks", ["diff", "A", "B", "--max-regression", "flops=0.5%"], RANK_FORMATS, "ranks"),
]


def rank_folders(tmp):
    """A/ and B/ each hold both rank traces under rank-numbered names (copies: no links in the tree)."""
    for side in ("A", "B"):
        os.makedirs(os.path.join(tmp, side), exist_ok=True)
        for rank, path in enumerate(RANKS):
            shutil.copyfile(os.path.join(SOURCE_DIR, path), os.path.join(tmp, side, f"run.rank{rank}.json.gz"))


def normalise(text, tmp, version):
    text = text.replace(SOURCE_DIR, "<src>").replace(tmp, "<tmp>")
    if version:
        text = re.sub(r"(flopscope[ /v-]*)" + re.escape(version) + r"\b", r"\g<1><version>", text)
    return text


def outputs(flopscope, tmp):
    """{file name: text} for every case and format, plus one <case>.exit.txt with exit code and stderr."""
    version = subprocess.run([flopscope, "--version"], capture_output=True, text=True).stdout.split()[-1:]
    version = version[0] if version else ""
    rank_folders(os.path.join(tmp, "ranks"))
    out = {}
    for name, args, formats, cwd in CASES:
        where = os.path.join(tmp, cwd) if cwd else SOURCE_DIR
        status = []
        for fmt in formats:
            proc = subprocess.run([flopscope, *args, "--format", fmt], cwd=where, capture_output=True,
                                  text=True, timeout=300)
            out[f"{name}.{EXTENSION[fmt]}"] = normalise(proc.stdout, tmp, version)
            status.append(f"--format {fmt}: exit {proc.returncode}\n" + normalise(proc.stderr, tmp, version))
        out[f"{name}.exit.txt"] = "".join(status)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--flopscope", required=True)
    ap.add_argument("--write", action="store_true", help="regenerate the expected files")
    a = ap.parse_args()
    flopscope = os.path.abspath(a.flopscope)
    with tempfile.TemporaryDirectory(prefix="flopscope-golden-") as tmp:
        got = outputs(flopscope, os.path.realpath(tmp))
    if a.write:
        shutil.rmtree(EXPECTED, ignore_errors=True)
        os.makedirs(EXPECTED)
        for file, text in got.items():
            with open(os.path.join(EXPECTED, file), "w", encoding="utf-8", newline="") as f:
                f.write(text)
        print(f"wrote {len(got)} files to {os.path.relpath(EXPECTED, SOURCE_DIR)}")
        return 0
    expected = set(os.listdir(EXPECTED)) if os.path.isdir(EXPECTED) else set()
    if expected != set(got):
        print(f"golden: expected files differ: missing {sorted(set(got) - expected)}, "
              f"extra {sorted(expected - set(got))} (scripts/regen-golden.sh)")
        return 1
    differing = []
    for file in sorted(got):
        with open(os.path.join(EXPECTED, file), encoding="utf-8", newline="") as f:
            want = f.read()
        if want != got[file]:
            differing.append((file, want))
    if not differing:
        print(f"golden: {len(got)} outputs match")
        return 0
    file, want = differing[0]
    sys.stdout.writelines(difflib.unified_diff(want.splitlines(True), got[file].splitlines(True),
                                               f"expected/{file}", f"got/{file}"))
    print(f"\ngolden: {len(differing)} of {len(got)} outputs differ: {', '.join(f for f, _ in differing)}"
          " (scripts/regen-golden.sh regenerates them once the change is intended)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
