"""`flopscope export --chrome-trace` read by Holistic Trace Analysis (the `hta` package from PyPI) tells the
same story as the trace it came from: launch delay, launch CPU time, the idle-time breakdown and the temporal
breakdown agree within 1%. Runs in the virtualenv scripts/make-pypi-venv.sh makes ($FLOPSCOPE_PYPI_VENV,
default build/pypi-venv): started by any other Python it re-runs itself with the venv's, and exits 77 (CTest's
skip) when the venv or `hta` in it is absent. `hta_export_check.py [TRACE...]` prints the numbers side by side.
"""
import logging
import math
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_DIR = os.environ.get("FLOPSCOPE_SOURCE_DIR", os.path.join(HERE, "..", ".."))
FLOPSCOPE = os.environ.get("FLOPSCOPE", "flopscope")
VENV = os.environ.get("FLOPSCOPE_PYPI_VENV") or os.path.join(SOURCE_DIR, "build", "pypi-venv")
VENV_PYTHON = os.path.join(VENV, "bin", "python")
SKIP = 77
TOLERANCE = 0.01  # relative
TRACES = [os.path.join(SOURCE_DIR, "tests", "data", "kineto", name) for name in (
    "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz",
    "hta__alexnet_a100__benchmark_result_2869224_1695835535_trace.json.gz",
)]


def in_venv():
    return os.path.realpath(sys.prefix) == os.path.realpath(VENV)


def hta_numbers(trace, work):
    """HTA's view of one trace (alone in a folder, as HTA reads a folder of ranks)."""
    from hta.trace_analysis import TraceAnalysis

    folder = tempfile.mkdtemp(dir=work)
    link = os.path.join(folder, "rank0.json.gz" if trace.endswith(".gz") else "rank0.json")
    os.symlink(os.path.abspath(trace), link)
    t = TraceAnalysis(trace_dir=folder)
    launches = t.get_cuda_kernel_launch_stats(visualize=False)[0]
    idle = t.get_idle_time_breakdown(visualize=False)[0]
    temporal = t.get_temporal_breakdown(visualize=False)
    by_category = idle.groupby("idle_category")["idle_time"].sum()
    idle_total = float(by_category.sum())
    out = {
        "launches": float(len(launches)),
        "launch CPU time mean (us)": float(launches["cpu_duration"].mean()),
        "launch delay mean (us)": float(launches["launch_delay"].mean()),
        "idle time (us)": idle_total,
    }
    for category in ("host_wait", "kernel_wait", "other"):
        out[f"idle {category} share of idle"] = float(by_category.get(category, 0.0)) / idle_total
    for column in ("idle_time(us)", "compute_time(us)", "non_compute_time(us)", "kernel_time(us)"):
        out[f"temporal {column}"] = float(temporal[column].iloc[0])
    return out


def close(key, a, b):
    """Within 1%: of the larger value, and for a share of idle time one percentage point. No launch HTA
    counts (a trace of CUDA-graph launches) gives NaN means in both."""
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if key.endswith("share of idle"):
        return abs(a - b) <= TOLERANCE
    return abs(a - b) <= TOLERANCE * max(abs(a), abs(b))


def check(trace, work):
    exported = os.path.join(work, os.path.basename(trace).replace(".json.gz", ".export.json.gz"))
    proc = subprocess.run([FLOPSCOPE, "export", trace, "--chrome-trace", exported], capture_output=True,
                          text=True)
    if proc.returncode != 0:
        print(f"FAIL: flopscope export exited {proc.returncode}: {proc.stderr.strip()}")
        return False
    source, export = hta_numbers(trace, work), hta_numbers(exported, work)
    print(f"\n{os.path.basename(trace)} (HTA {hta_version()}, unrounded; launch times on the host clock, "
          "idle and temporal times on the device clock)")
    print(f"  {'':38} {'source':>14} {'export':>14}")
    ok = True
    for key in source:
        same = close(key, source[key], export[key])
        ok &= same
        print(f"  {key:38} {source[key]:14.4f} {export[key]:14.4f}  {'ok' if same else 'DIFFERS'}")
    return ok


def hta_version():
    from importlib.metadata import version

    return version("HolisticTraceAnalysis")


def main(argv):
    if not in_venv():
        if not os.path.exists(VENV_PYTHON):
            print(f"SKIP: pypi venv absent: run scripts/make-pypi-venv.sh (looked for {VENV_PYTHON})")
            return SKIP
        os.execv(VENV_PYTHON, [VENV_PYTHON, "-W", "ignore", os.path.abspath(__file__), *argv[1:]])
    try:
        import hta  # noqa: F401
    except ImportError:
        print(f"SKIP: the hta package (HolisticTraceAnalysis) is not in {VENV}: rerun scripts/make-pypi-venv.sh")
        return SKIP
    logging.disable(logging.WARNING)
    # HTA rounds nanosecond timestamps down to whole microseconds; the export keeps every time to the
    # nanosecond but counts from the run's start, not the source's clock origin, so rounding would move each
    # event by a different part of a microsecond in the two files. Compared unrounded, as recorded.
    os.environ["HTA_DISABLE_NS_ROUNDING"] = "1"
    traces = argv[1:] or TRACES
    with tempfile.TemporaryDirectory() as work:
        results = [check(trace, work) for trace in traces]
    passed = sum(results)
    print(f"\n{passed} passed, {len(results) - passed} failed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
