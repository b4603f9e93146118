#!/usr/bin/env python3
"""The GPU check of flopscope's CUPTI collector (run through scripts/gpu-check.sh; docs/gpu.md).

Modes:
  (default)          use an existing build (--build-dir, default build/dev) and run the checks below
  --device           on the lent GPU machine: take the bundle (.gpu/, scripts/gpu-bundle.sh), configure
                     the gpu-device preset against it and the machine's CUDA toolkit, build with -j16,
                     then run the checks; one `run` call, everything also written under $OUT
  --device --dry-run everything up to the first CUDA call (bundle, unpack, configure, build, nvcc), plus
                     the CPU-only parts of the checks: runnable without a GPU
  --compile-only     only compile samples/gpu/known_work.cu with nvcc

Checks (each runs even when an earlier one failed; FAIL/SKIP says why):
  known_work   FP32 FMA FLOPs and copy DRAM bytes measured vs exact (pass within 2%), bf16 GEMM tensor ops
               / 2MNK, tracing-only overhead and counter pass cost over the uninstrumented run
  sonnet       sonnet-mini v1 and v2 (eager, CUDA, bf16) under `flopscope exec`, then
               `flopscope diff v1.db v2.db --expect-vanished '*position_adaptive_bias*'`
  kineto       the same v1 program under torch.profiler, imported; kernel counts and times vs our trace
  ctest        ctest -L gpu
Databases are read with Python's sqlite3 module; all arithmetic is done here.
Exit: 0 when every check passed, 1 when one failed, 2 when the command line is wrong.
"""
import argparse
import gzip
import os
import re
import shlex
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOLERANCE_PCT = 2.0
VANISHED_GLOB = "*position_adaptive_bias*"
BUNDLE_FILES = [  # one file per bundled package that the configure step needs
    "usr/include/sqlite3.h", "usr/include/zlib.h", "usr/include/simdjson.h", "usr/include/CLI/CLI.hpp",
    "usr/include/nlohmann/json.hpp", "usr/include/fmt/format.h", "usr/include/gtest/gtest.h",
    "usr/lib/x86_64-linux-gnu/libsqlite3.so", "usr/lib/x86_64-linux-gnu/libfmt.so",
    "usr/lib/x86_64-linux-gnu/libsimdjson.so", "usr/lib/x86_64-linux-gnu/libz.so",
    "usr/lib/x86_64-linux-gnu/libgtest.a",
]
BUILD_TARGETS = ["flopscope", "flopscope_inject", "gpu_session_test"]
# Sonnet-mini size for the GPU runs; the dry run uses a tiny CPU model.
SONNET_GPU = ["--dtype", "bf16", "--forwards", "3"]
SONNET_CPU = ["--device", "cpu", "--dtype", "fp32", "--forwards", "1", "--batch", "1", "--seq", "32",
              "--d-model", "64", "--heads", "2", "--vocab", "512"]


# The database reads (schema: db/schema/*.sql). Module path '' is the root; kernels outside any NVTX range.
SQL_KERNELS = "SELECT COUNT(*) FROM kernel WHERE kind = 'kernel'"
SQL_PER_SCOPE = """
    SELECT COALESCE(m.path, '(unknown)'), COUNT(*), SUM(k.has_counters), SUM(k.flops_fp32), SUM(k.flops_fp16),
           SUM(k.tensor_ops), SUM(k.dram_bytes_read), SUM(k.dram_bytes_written), SUM(k.duration_ns)
    FROM kernel k LEFT JOIN module m ON m.id = k.module_id WHERE k.kind = 'kernel'
    GROUP BY m.path ORDER BY m.path"""
SQL_RUN_TOTALS = """
    SELECT COUNT(*), SUM(m.path <> ''), COUNT(DISTINCT m.path), SUM(k.has_counters),
           SUM(COALESCE(k.flops_fp32, 0) + COALESCE(k.flops_fp16, 0)), SUM(k.tensor_ops),
           SUM(COALESCE(k.dram_bytes_read, 0) + COALESCE(k.dram_bytes_written, 0)), SUM(k.duration_ns) / 1e6
    FROM kernel k LEFT JOIN module m ON m.id = k.module_id WHERE k.kind = 'kernel'"""
SQL_VANISHED = """
    SELECT COUNT(*), SUM(COALESCE(k.flops_fp32, 0) + COALESCE(k.flops_fp16, 0)), SUM(k.tensor_ops),
           SUM(k.dram_bytes_read), SUM(k.dram_bytes_written), SUM(k.duration_ns)
    FROM kernel k JOIN module m ON m.id = k.module_id WHERE m.path GLOB ? AND k.kind = 'kernel'"""
SQL_VANISHED_NAMES = """
    SELECT k.name, COUNT(*) FROM kernel k JOIN module m ON m.id = k.module_id
    WHERE m.path GLOB ? AND k.kind = 'kernel' GROUP BY k.name ORDER BY 2 DESC LIMIT 8"""
SQL_FORWARD_KERNELS = """
    SELECT k.name, COUNT(*), SUM(k.duration_ns) FROM kernel k JOIN module m ON m.id = k.module_id
    WHERE k.kind = 'kernel' AND m.path <> '' GROUP BY k.name"""
SQL_KERNELS_BY_NAME = "SELECT name, COUNT(*), SUM(duration_ns) FROM kernel WHERE kind = 'kernel' GROUP BY name"
SQL_QUALITY = "SELECT severity, code, count, detail FROM data_quality ORDER BY severity, code"


class Check:
    """Runs steps against one time budget; logs to stdout and to $OUT/gpu-check.log."""

    def __init__(self, args):
        self.args = args
        self.t0 = time.monotonic()
        self.results = []  # (step, verdict, detail)
        self.out = os.environ.get("OUT") or None
        self.work = os.path.abspath(args.work)
        os.makedirs(self.work, exist_ok=True)
        self.logf = open(os.path.join(self.out, "gpu-check.log"), "w") if self.out else None
        self.build_log = open(os.path.join(self.out or self.work, "build.log"), "w")
        self.build_dir = None
        self.flopscope = None
        self.known_work = None
        self.torch_python = None

    # ---- output ----
    def say(self, line=""):
        print(line, flush=True)
        if self.logf:
            self.logf.write(line + "\n")
            self.logf.flush()

    def elapsed(self):
        return time.monotonic() - self.t0

    def left(self):
        return self.args.budget - self.elapsed()

    def record(self, step, verdict, detail=""):
        self.results.append((step, verdict, detail))
        self.say(f"[{self.elapsed():6.1f}s] {step}: {verdict}{(' - ' + detail) if detail else ''}")

    def export(self, path, name, compress=False):
        """Copies a file under $OUT (flat: at most 8 files come back; gpu-check.log and build.log are two)."""
        if not self.out or not os.path.exists(path):
            return
        dest = os.path.join(self.out, name)
        if compress:
            with open(path, "rb") as src, gzip.open(dest, "wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            shutil.copyfile(path, dest)

    # ---- processes ----
    def run(self, cmd, timeout, env=None, cwd=None, echo=True, log=None):
        """Runs cmd in its own process group, at most `timeout` s and never past the budget.
        Returns (rc, stdout+stderr, seconds); rc 124 on a timeout."""
        limit = max(1.0, min(timeout, self.left() - self.args.reserve))
        self.say(f"$ {' '.join(shlex.quote(c) for c in cmd)}")
        t = time.monotonic()
        try:
            p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env, cwd=cwd,
                                 start_new_session=True, text=True, errors="replace")
        except OSError as e:
            return 127, f"cannot start {cmd[0]}: {e}", 0.0
        try:
            output, _ = p.communicate(timeout=limit)
            rc = p.returncode
        except subprocess.TimeoutExpired:
            # SIGTERM first: `flopscope exec` passes it on, and the program's database is still written.
            os.killpg(p.pid, signal.SIGTERM)
            try:
                output, _ = p.communicate(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                output, _ = p.communicate()
            output += f"\n(killed after {limit:.0f} s: step or global budget)"
            rc = 124
        seconds = time.monotonic() - t
        if log is not None:
            log.write(f"$ {' '.join(cmd)}\n{output}\n(rc {rc}, {seconds:.1f} s)\n")
            log.flush()
        if echo:
            for line in output.rstrip("\n").splitlines():
                self.say("  " + line)
        self.say(f"  (rc {rc}, {seconds:.2f} s)")
        return rc, output, seconds

    def step(self, name, fn, needs=()):
        """Runs one step; an exception or a missing prerequisite is recorded, never fatal."""
        missing = [n for n in needs if not getattr(self, n)]
        if missing:
            self.record(name, "SKIP", "needs " + ", ".join(missing) + " (an earlier step failed)")
            return
        if self.left() < self.args.reserve:
            self.record(name, "SKIP", f"global budget of {self.args.budget:.0f} s spent")
            return
        self.say()
        self.say(f"== {name}")
        try:
            verdict, detail = fn()
        except Exception as e:  # a broken step must not stop the others
            verdict, detail = "FAIL", f"{type(e).__name__}: {e}"
        self.record(name, verdict, detail)

    # ---- steps: setup ----
    def environment(self):
        self.say(f"date: {time.strftime('%Y-%m-%d %H:%M:%S %Z')}  root: {ROOT}  work: {self.work}")
        try:
            with open("/etc/os-release") as f:
                osr = dict(line.rstrip().split("=", 1) for line in f if "=" in line)
            self.say(f"os: {osr.get('PRETTY_NAME', '?').strip(chr(34))}  cpus: {os.cpu_count()}")
        except OSError:
            pass
        probes = [["nvidia-smi", "--query-gpu=name,driver_version,memory.total,clocks.sm,clocks.mem",
                   "--format=csv,noheader"], [self.nvcc(), "--version"], ["cmake", "--version"],
                  ["ninja", "--version"], ["c++", "--version"]]
        for cmd in probes:
            if not (shutil.which(cmd[0]) or os.path.exists(cmd[0])):
                self.say(f"{cmd[0]}: not found")
                continue
            rc, out, _ = self.run(cmd, 30, echo=False)
            lines = [l.strip() for l in out.splitlines() if l.strip()]
            release = [l for l in lines if "release" in l]  # nvcc's version line
            self.say(f"{os.path.basename(cmd[0])}: {(release or lines or ['(no output)'])[0]}")
        self.torch_python = self.find_torch_python()
        return "PASS", f"python with torch: {self.torch_python or 'none'}"

    def nvcc(self):
        return os.environ.get("NVCC") or shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"

    def find_torch_python(self):
        candidates = [os.environ.get("FLOPSCOPE_TORCH_PYTHON"), sys.executable, shutil.which("python3"),
                      "/usr/bin/python3"]
        for py in [c for c in candidates if c]:
            try:
                r = subprocess.run([py, "-c", "import torch, sys; print(torch.__version__, torch.version.cuda, "
                                    "torch.cuda.is_available(), sys.version.split()[0])"],
                                   capture_output=True, text=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired):
                continue
            if r.returncode == 0:
                ver, cuda, avail, pyver = r.stdout.split()[-4:]
                self.say(f"torch: {ver} (CUDA {cuda}, GPU available: {avail}) in {py} (Python {pyver})")
                return py
        return None

    def bundle(self):
        src = os.path.join(ROOT, ".gpu")
        manifest = os.path.join(src, "MANIFEST")
        if not os.path.exists(manifest):
            return "FAIL", ".gpu/MANIFEST missing: run scripts/gpu-bundle.sh here and carry .gpu"
        with open(manifest) as f:
            lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
        self.say("bundle: " + ", ".join(f"{p[0]} {p[1]}" for p in lines))
        missing = [p for p in BUNDLE_FILES if not os.path.exists(os.path.join(src, "prefix", p))]
        if missing:
            return "FAIL", "bundle incomplete: " + ", ".join(missing)
        # Unpack: a private copy, as the device machine gets it (links kept; every link must resolve).
        dest = os.path.join(self.work, "prefix")
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(os.path.join(src, "prefix"), dest, symlinks=True)
        broken = [os.path.join(d, n) for d, _, files in os.walk(dest) for n in files
                  if os.path.islink(os.path.join(d, n)) and not os.path.exists(os.path.join(d, n))]
        if broken:
            return "FAIL", "broken links after unpacking: " + ", ".join(broken)
        return "PASS", f"{len(lines)} packages unpacked into {dest}"

    def build(self):
        build = os.path.join(self.work, "build")
        prefix = os.path.join(self.work, "prefix", "usr")
        # A build folder configured from another checkout (an earlier dry run elsewhere) cannot be reused.
        cache_path = os.path.join(build, "CMakeCache.txt")
        if os.path.exists(cache_path):
            home = re.search(r"^CMAKE_HOME_DIRECTORY:INTERNAL=(.*)$", open(cache_path).read(), re.M)
            if home is None or os.path.realpath(home.group(1)) != os.path.realpath(ROOT):
                shutil.rmtree(build, ignore_errors=True)
        cmd = ["cmake", "--preset", "gpu-device", "-B", build, f"-DCMAKE_PREFIX_PATH={prefix}"]
        if os.path.isdir("/usr/local/cuda"):
            cmd.append("-DCUDAToolkit_ROOT=/usr/local/cuda")
        rc, out, _ = self.run(cmd, 180, cwd=ROOT, echo=False, log=self.build_log)
        summary = [l for l in out.splitlines() if re.search(r"(TORCH|CUPTI|QT|GRAPHVIZ): |Error|error:", l)]
        for l in summary:
            self.say("  " + l)
        if rc != 0:
            self.say("\n".join("  " + l for l in out.splitlines()[-30:]))
            return "FAIL", f"configure failed (rc {rc})"
        if not re.search(r"CUPTI: yes", out):
            # The toolkit came without CUPTI: try the one a Python package carries (nvidia-cuda-cupti).
            lib, inc = find_cupti()
            self.say(f"  CUPTI not in the CUDA toolkit; elsewhere: library {lib or 'none'}, headers {inc or 'none'}")
            if not (lib and inc):
                return "FAIL", "configured without CUPTI (none found): no exec, no injection library"
            rc, out, _ = self.run(cmd + [f"-DCUDA_cupti_LIBRARY={lib}", f"-DCMAKE_CXX_FLAGS=-isystem {inc}"], 180,
                                  cwd=ROOT, echo=False, log=self.build_log)
            if rc != 0 or not re.search(r"CUPTI: yes", out):
                return "FAIL", f"configured without CUPTI, also with {lib}"
        cache = open(os.path.join(build, "CMakeCache.txt")).read()
        for var in ["SQLite3_INCLUDE_DIR", "fmt_DIR", "CLI11_DIR", "nlohmann_json_DIR", "simdjson_DIR",
                    "ZLIB_INCLUDE_DIR", "GTest_DIR", "CUDA_cupti_LIBRARY", "CUDAToolkit_NVCC_EXECUTABLE"]:
            m = re.search(rf"^{var}:[A-Z]+=(.*)$", cache, re.M)
            self.say(f"  {var} = {m.group(1) if m else '(unset)'}")
            if var != "CUDA_cupti_LIBRARY" and var != "CUDAToolkit_NVCC_EXECUTABLE" and m and \
                    not m.group(1).startswith(os.path.join(self.work, "prefix")):
                return "FAIL", f"{var} is not from the bundle: {m.group(1)}"
        jobs = str(min(16, os.cpu_count() or 2)) if not self.args.dry_run else str(self.args.jobs)
        rc, out, secs = self.run(["cmake", "--build", build, "-j", jobs, "--target"] + BUILD_TARGETS,
                                 self.args.build_timeout, echo=False, log=self.build_log)
        if rc != 0:
            errors = [l for l in out.splitlines() if "error" in l.lower() or l.startswith("FAILED")]
            self.say("\n".join("  " + l for l in (errors or out.splitlines())[-30:]))
            return "FAIL", f"build failed (rc {rc}, {secs:.0f} s; {self.build_log.name} has everything)"
        flopscope = os.path.join(build, "cli", "flopscope")
        inject = os.path.join(build, "cli", "libflopscope_inject.so")
        if not (os.path.exists(flopscope) and os.path.exists(inject)):
            return "FAIL", "build finished without cli/flopscope or cli/libflopscope_inject.so"
        self.build_dir, self.flopscope = build, flopscope
        rc, out, _ = self.run([flopscope, "--help"], 30, echo=False)
        cmds = [c for c in ("exec", "metrics", "import", "diff", "report") if re.search(rf"^\s+{c}\b", out, re.M)]
        if rc != 0 or "exec" not in cmds:
            return "FAIL", f"flopscope --help (rc {rc}) lists {cmds}"
        return "PASS", f"{len(BUILD_TARGETS)} targets with -j{jobs} in {secs:.0f} s; commands {' '.join(cmds)}"

    def prebuilt_fallback(self):
        """After a failed build: the binaries built here by the dry run (.gpu/prebuilt, gpu-bundle.sh --prebuilt)."""
        pre = os.path.join(ROOT, ".gpu", "prebuilt")
        flopscope = os.path.join(pre, "flopscope")
        if not os.path.exists(flopscope):
            return "SKIP", "no .gpu/prebuilt (scripts/gpu-bundle.sh --prebuilt /tmp/flopscope-gpu/build)"
        lib, _ = find_cupti()
        if lib:  # their run path names this work folder's prefix, and the build machine's CUDA folder
            os.environ["LD_LIBRARY_PATH"] = os.pathsep.join(
                [os.path.dirname(lib)] + [p for p in os.environ.get("LD_LIBRARY_PATH", "").split(os.pathsep) if p])
        rc, out, _ = self.run([flopscope, "--help"], 30, echo=False)
        if rc != 0 or not re.search(r"^\s+exec\b", out, re.M):
            self.say("\n".join("  " + l for l in out.splitlines()[-10:]))
            return "FAIL", f"prebuilt flopscope --help: rc {rc}"
        self.flopscope = flopscope
        return "PASS", f"using the binaries built on the build machine ({pre}); CUPTI from {lib}; no ctest"

    def use_existing_build(self):
        build = os.path.abspath(self.args.build_dir)
        flopscope = self.args.flopscope or os.path.join(build, "cli", "flopscope")
        if not os.access(flopscope, os.X_OK):
            return "FAIL", f"flopscope not found: {flopscope} (cmake --build {build} --target flopscope flopscope_inject)"
        self.build_dir, self.flopscope = build, flopscope
        return "PASS", flopscope

    def compile_known_work(self):
        nvcc = self.nvcc()
        if not os.path.exists(nvcc) and not shutil.which(nvcc):
            return "FAIL", f"nvcc not found at {nvcc} (set NVCC=...)"
        arch = os.environ.get("ARCH") or "sm_90"  # H100/H200; ARCH=native on another GPU
        exe = os.path.join(self.work, "known_work")
        include = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(nvcc))), "include")
        rc, out, secs = self.run([nvcc, "-O2", "-std=c++17", f"-arch={arch}", f"-I{include}", "-o", exe,
                                  os.path.join(ROOT, "samples", "gpu", "known_work.cu"), "-lcublas"], 240)
        if rc != 0:
            return "FAIL", f"nvcc failed (rc {rc})"
        self.known_work = exe
        return "PASS", f"nvcc -arch={arch} in {secs:.0f} s: {exe}"

    # ---- steps: without a GPU (dry run) ----
    def offline_metrics(self):
        rc, out, _ = self.run([self.flopscope, "metrics", "--chip", "GH100"], 60)
        return ("PASS", "CUPTI Profiler Host API answers offline") if rc == 0 else ("FAIL", f"rc {rc}")

    def sonnet_cpu(self):
        """The sample on the CPU (NVTX ranges recorded, not emitted), and its Kineto JSON imported."""
        script = os.path.join(ROOT, "samples", "gpu", "infer_sonnet_mini.py")
        rc, out, _ = self.run([self.torch_python, "-m", "py_compile", script], 60)
        if rc != 0:
            return "FAIL", "py_compile"
        lines = []
        for version in ("v1", "v2"):
            rc, out, _ = self.run([self.torch_python, script, "--version", version] + SONNET_CPU, 300)
            if rc != 0:
                return "FAIL", f"{version} on the CPU: rc {rc}"
            lines.append(out.strip().splitlines()[-1])
        kineto = os.path.join(self.work, "cpu-kineto.json")
        rc, out, _ = self.run([self.torch_python, script, "--version", "v1", "--kineto", kineto] + SONNET_CPU, 300)
        if rc != 0:
            return "FAIL", f"Kineto export on the CPU: rc {rc}"
        ranges = [re.search(r"nvtx_ranges=(\d+)", l).group(1) for l in lines]
        with open(kineto) as f:
            legacy = f.read(1) == "["  # a torch built without Kineto writes the old autograd profiler's list
        if legacy:
            return "PASS", (f"v1/v2 NVTX ranges per forward {ranges[0]}/{ranges[1]}; this torch has no Kineto "
                            "(its trace is the legacy profiler's), so the import is exercised by the next step only")
        db = os.path.join(self.work, "cpu-kineto.db")
        rc, out, _ = self.run([self.flopscope, "import", "-f", kineto, "-o", db], 120)
        if rc != 0:
            return "FAIL", f"flopscope import of the CPU Kineto trace: rc {rc}"
        ops = query1(db, "SELECT COUNT(*) FROM op")
        return "PASS", f"v1/v2 NVTX ranges per forward {ranges[0]}/{ranges[1]}; CPU Kineto trace imported ({ops} ops)"

    def queries_on_gpu_trace(self):
        """Every database read of the GPU steps, on a real GPU trace imported from tests/data (an H100 Kineto
        trace): the SQL and the printing are checked against the schema without a GPU."""
        trace = os.path.join(ROOT, "tests", "data", "kineto", "tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz")
        db = os.path.join(self.work, "h100-kineto.db")
        rc, _, _ = self.run([self.flopscope, "import", "-f", trace, "-o", db], 120)
        if rc != 0:
            return "FAIL", f"flopscope import of {os.path.basename(trace)}: rc {rc}"
        self.print_scopes(db, "H100 Kineto trace", max_rows=6)
        self.print_quality(db, "H100 Kineto trace")
        sums = [self.scope_sum(db, c, "") for c in ("flops_fp32", "tensor_ops", "dram_bytes_read")]
        self.print_run_totals([("h100", db)])
        self.print_vanished(db, db)
        na, nb, _ = self.compare_kernels(db, db)
        kernels = query1(db, SQL_KERNELS)
        if not kernels or nb != kernels:
            return "FAIL", f"{kernels} kernels imported, {nb} counted"
        return "PASS", f"{kernels} kernels, {na} in modules; root sums {sums}"

    # ---- steps: on the GPU ----
    def known_work_check(self):
        w = self.work
        for f in ("trace.db", "counters.db"):
            rm(os.path.join(w, f))
        rc, plain_out, t_plain = self.run([self.known_work], 120)
        if rc != 0:
            return "FAIL", f"uninstrumented run failed (rc {rc})"
        expected = {m.group(1): float(m.group(2)) for m in re.finditer(r"^expected (\S+) (\S+)$", plain_out, re.M)}
        trace_db, counters_db = os.path.join(w, "trace.db"), os.path.join(w, "counters.db")
        rc_t, trace_out, t_trace = self.run([self.flopscope, "exec", "--metrics", "none", "-o", trace_db, "--",
                                             self.known_work], 180)
        rc_c, counters_out, t_counters = self.run([self.flopscope, "exec", "-o", counters_db, "--", self.known_work],
                                                  300)
        inner = [inner_wall(o) for o in (plain_out, trace_out, counters_out)]
        self.export(counters_db, "known_work-counters.db")
        problems = []
        if rc_t != 0 or not os.path.exists(trace_db):
            problems.append(f"tracing run rc {rc_t}")
        if rc_c != 0 or not os.path.exists(counters_db):
            problems.append(f"counter run rc {rc_c}")
            return "FAIL", "; ".join(problems)
        self.print_scopes(counters_db, "counter run")
        self.print_quality(counters_db, "counter run")
        if os.path.exists(trace_db):
            self.print_quality(trace_db, "tracing run")

        def scope_sum(column, path):
            return self.scope_sum(counters_db, column, path)

        self.say()
        self.say("measured vs expected (counter run)")
        ok = True
        for label, column, path, key in [("fma FP32 FLOPs", "flops_fp32", "fma", "fma_flops_fp32"),
                                         ("copy DRAM bytes read", "dram_bytes_read", "copy", "copy_bytes_read"),
                                         ("copy DRAM bytes written", "dram_bytes_written", "copy",
                                          "copy_bytes_written")]:
            measured, exp = scope_sum(column, path), expected.get(key)
            if not exp:
                self.say(f"  {label:<26} no expected value printed by known_work")
                ok = False
                continue
            err = (measured - exp) / exp * 100
            verdict = "ok" if abs(err) <= TOLERANCE_PCT else "FAIL"
            ok = ok and verdict == "ok"
            self.say(f"  {label:<26} measured {measured:>18,.0f}  expected {exp:>18,.0f}  error {err:+8.3f}%  {verdict}")
        gemm_ops, gemm_flops = scope_sum("tensor_ops", "gemm"), expected.get("gemm_flops", 0)
        gemm_read = scope_sum("dram_bytes_read", "gemm")
        ratio = gemm_ops / gemm_flops if gemm_flops else float("nan")
        self.say(f"  {'gemm tensor ops':<26} measured {gemm_ops:>18,.0f}  2*M*N*K  {gemm_flops:>18,.0f}  ratio {ratio:.4f}"
                 "  (1.0: one op is one FLOP; 0.5: one op is one FMA)")
        self.say(f"  {'gemm DRAM bytes read':<26} measured {gemm_read:>18,.0f}  (>= {2 * 4096 * 4096 * 2:,} bytes of bf16 inputs)")
        trace_kernels = query1(trace_db, SQL_KERNELS) if os.path.exists(trace_db) else 0
        self.say()
        self.say("cost: wall time of the whole process (start to exit, database written) | inside main() (from its "
                 "first CUDA call to its last kernel: known_work's wall_seconds)")
        self.say(f"  uninstrumented   {t_plain:7.2f} s | {inner[0]:7.3f} s")
        self.say(f"  tracing only     {t_trace:7.2f} s | {inner[1]:7.3f} s  overhead {pct(t_trace, t_plain):+.1f}% | "
                 f"{pct(inner[1], inner[0]):+.1f}%  ({trace_kernels} kernels traced)")
        self.say(f"  with counters    {t_counters:7.2f} s | {inner[2]:7.3f} s  counter pass cost "
                 f"{pct(t_counters, t_plain):+.1f}% | {pct(inner[2], inner[0]):+.1f}% over uninstrumented")
        if problems:
            return "FAIL", "; ".join(problems)
        if not ok:
            return "FAIL", f"FMA FLOPs or copy bytes off by more than {TOLERANCE_PCT}%"
        return "PASS", f"within {TOLERANCE_PCT}%; gemm tensor ops / 2MNK = {ratio:.4f}"

    def print_scopes(self, db, label, max_rows=40):
        self.say(f"per scope ({label}): path | kernels | with counters | fp32 FLOPs | fp16 FLOPs | tensor ops "
                 "| DRAM read | DRAM written | device ns")
        rows = query(db, SQL_PER_SCOPE)
        for row in rows[:max_rows]:
            self.say("  " + " | ".join(fmt_num(v) for v in row))
        if len(rows) > max_rows:
            self.say(f"  ... {len(rows) - max_rows} more scopes")

    @staticmethod
    def scope_sum(db, column, path):
        assert column in ("flops_fp32", "flops_fp16", "tensor_ops", "dram_bytes_read", "dram_bytes_written")
        return query1(db, f"SELECT COALESCE(SUM(k.{column}), 0) FROM kernel k JOIN module m "
                          f"ON m.id = k.module_id WHERE m.path = ? AND k.kind = 'kernel'", (path,))

    def print_quality(self, db, label):
        rows = query(db, SQL_QUALITY)
        self.say(f"data quality ({label}): {len(rows) or 'none'}")
        for r in rows:
            self.say(f"  {r[0]}: {r[1]} x{r[2]}{(' - ' + r[3]) if r[3] else ''}")

    def sonnet_exec(self, version, db, metrics=None, extra=()):
        rm(db)
        cmd = [self.flopscope, "exec"] + (["--metrics", metrics] if metrics else []) + ["-o", db, "--",
               self.torch_python, os.path.join(ROOT, "samples", "gpu", "infer_sonnet_mini.py"),
               "--version", version] + SONNET_GPU + list(extra)
        rc, out, secs = self.run(cmd, 300)
        return rc, out, secs

    def sonnet(self):
        w = self.work
        v1, v2 = os.path.join(w, "v1.db"), os.path.join(w, "v2.db")
        rc1, _, s1 = self.sonnet_exec("v1", v1)
        rc2, _, s2 = self.sonnet_exec("v2", v2)
        self.export(v1, "sonnet-v1.db")
        self.export(v2, "sonnet-v2.db")
        if rc1 != 0 or rc2 != 0 or not (os.path.exists(v1) and os.path.exists(v2)):
            return "FAIL", f"flopscope exec: v1 rc {rc1}, v2 rc {rc2}"
        self.print_run_totals([("v1", v1), ("v2", v2)])
        a, b = self.print_vanished(v1, v2)
        md = os.path.join(w, "diff.md")
        rm(md)
        rc, out, _ = self.run([self.flopscope, "diff", v1, v2, "--expect-vanished", VANISHED_GLOB, "--md", md,
                               "--force"], 120)
        self.export(md, "sonnet-diff.md")
        self.say(f"flopscope diff exit code: {rc} (0: the gate passed, 1: a gate failed, 2: bad input or data quality)")
        if not a[0]:
            return "FAIL", f"no kernels under {VANISHED_GLOB} in v1 (NVTX module paths missing?)"
        if b[0]:
            return "FAIL", f"{b[0]} kernels under {VANISHED_GLOB} in v2"
        if rc != 0:
            return "FAIL", f"diff --expect-vanished exited {rc}"
        return "PASS", (f"vanished: {a[0]} kernels, {fmt_num(a[1])} CUDA-core FLOPs, {fmt_num(a[2])} tensor ops, "
                        f"{fmt_num((a[3] or 0) + (a[4] or 0))} DRAM bytes in v1; diff exit 0")

    def print_run_totals(self, runs):
        self.say("per run: kernels | in NVTX modules | module paths | with counters | fp32+fp16 FLOPs | tensor ops "
                 "| DRAM bytes | device ms")
        for label, db in runs:
            self.say(f"  {label}: " + " | ".join(fmt_num(v) for v in query(db, SQL_RUN_TOTALS)[0]))

    def print_vanished(self, db_a, db_b):
        """The modules that should vanish: their kernels, FLOPs and bytes in A and in B."""
        a = query(db_a, SQL_VANISHED, (VANISHED_GLOB,))[0]
        b = query(db_b, SQL_VANISHED, (VANISHED_GLOB,))[0]
        self.say(f"{VANISHED_GLOB}: kernels | CUDA-core FLOPs | tensor ops | DRAM read | DRAM written | device ns")
        self.say("  v1: " + " | ".join(fmt_num(v) for v in a))
        self.say("  v2: " + " | ".join(fmt_num(v) for v in b))
        for name, count in query(db_a, SQL_VANISHED_NAMES, (VANISHED_GLOB,)):
            self.say(f"    v1 kernel x{count}: {name[:110]}")
        return a, b

    def compare_kernels(self, ours, theirs):
        """Our trace's kernels inside NVTX modules (the forwards) vs every kernel of the imported Kineto trace."""
        a = {r[0]: (r[1], r[2]) for r in query(ours, SQL_FORWARD_KERNELS)}
        b = {r[0]: (r[1], r[2]) for r in query(theirs, SQL_KERNELS_BY_NAME)}
        na, nb = sum(v[0] for v in a.values()), sum(v[0] for v in b.values())
        ta, tb = sum(v[1] for v in a.values()), sum(v[1] for v in b.values())
        ratio = ta / tb if tb else float("nan")
        self.say(f"kernels in the forwards: ours {na} (of {query1(ours, SQL_KERNELS)} in the process), Kineto {nb}; "
                 f"distinct names ours {len(a)}, Kineto {len(b)}")
        self.say(f"device time of those kernels: ours {ta / 1e6:.3f} ms, Kineto {tb / 1e6:.3f} ms "
                 f"(ratio {ratio:.3f}; separate runs, same program)")
        zero = (0, 0)
        differ = [n for n in set(a) | set(b) if a.get(n, zero)[0] != b.get(n, zero)[0]]
        for name in sorted(differ, key=lambda n: -abs(a.get(n, zero)[0] - b.get(n, zero)[0]))[:8]:
            self.say(f"  count differs: ours {a.get(name, zero)[0]}, Kineto {b.get(name, zero)[0]}: {name[:100]}")
        for name, (n, t) in sorted(a.items(), key=lambda kv: -kv[1][1])[:5]:
            nk, tk = b.get(name, zero)
            self.say(f"  top: ours {t / 1e3:9.1f} us x{n}, Kineto {tk / 1e3:9.1f} us x{nk}: {name[:80]}")
        return na, nb, ratio

    def kineto(self):
        w = self.work
        ours = os.path.join(w, "v1-trace.db")
        rc_ours, _, _ = self.sonnet_exec("v1", ours, metrics="none")
        trace = os.path.join(w, "v1-kineto.json")
        rm(trace)
        rc, _, _ = self.run([self.torch_python, os.path.join(ROOT, "samples", "gpu", "infer_sonnet_mini.py"),
                             "--version", "v1", "--kineto", trace] + SONNET_GPU, 300)
        self.export(trace, "v1-kineto.json.gz", compress=True)
        if rc != 0 or not os.path.exists(trace):
            return "FAIL", f"torch.profiler run: rc {rc}"
        theirs = os.path.join(w, "v1-kineto.db")
        rc, _, _ = self.run([self.flopscope, "import", "-f", trace, "-o", theirs], 120)
        if rc != 0:
            return "FAIL", f"flopscope import: rc {rc}"
        if rc_ours != 0 or not os.path.exists(ours):
            self.say(f"Kineto trace: {query1(theirs, SQL_KERNELS)} kernels")
            return "FAIL", f"flopscope exec --metrics none: rc {rc_ours}"
        # Ours traced the whole process; Kineto only the profiled forwards, which all run inside NVTX modules.
        na, nb, ratio = self.compare_kernels(ours, theirs)
        if na != nb:
            return "FAIL", f"kernel count ours {na} vs Kineto {nb}"
        return "PASS", f"{na} kernels both; device time ours/Kineto {ratio:.3f}"

    def ctest(self):
        rc, out, secs = self.run(["ctest", "--test-dir", self.build_dir, "-L", "^gpu$", "--output-on-failure",
                                  "--no-tests=error", "--timeout", "120"], 240)
        m = re.search(r"^\d+% tests passed.*$", out, re.M)
        skipped = out.count("***Skipped")
        if rc == 0 and skipped:  # on the GPU machine a skip means the GPU was not usable
            return "FAIL", f"{skipped} skipped: {m.group(0) if m else ''}"
        return ("PASS" if rc == 0 else "FAIL"), (m.group(0) if m else f"rc {rc}")

    def summary(self):
        self.say()
        self.say(f"== summary ({self.elapsed():.0f} s of a {self.args.budget:.0f} s budget)")
        for step, verdict, detail in self.results:
            self.say(f"  {verdict:<4}  {step:<21} {detail}")
        failed = [r for r in self.results if r[1] == "FAIL"]
        self.say(f"gpu-check: {'FAIL' if failed else 'PASS'}")
        return 1 if failed else 0


def find_cupti():
    """libcupti and cupti.h outside the toolkit's usual places: the CUDA folders and Python's nvidia packages."""
    roots = [d for d in ("/usr/local/cuda", "/opt/nvidia", "/usr/lib/x86_64-linux-gnu") if os.path.isdir(d)]
    roots += [os.path.join(p, "nvidia") for p in sys.path if os.path.isdir(os.path.join(p, "nvidia"))]
    lib = inc = None
    for top in roots:
        for d, _, files in os.walk(top):
            if lib is None and any(re.fullmatch(r"libcupti\.so(\.\d+)*", f) for f in files):
                lib = os.path.join(d, sorted(f for f in files if f.startswith("libcupti.so"))[0])
            if inc is None and "cupti.h" in files:
                inc = d
            if lib and inc:
                return lib, inc
    return lib, inc


def query(db, sql, params=()):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return con.execute(sql, params).fetchall()
    finally:
        con.close()


def query1(db, sql, params=()):
    rows = query(db, sql, params)
    return rows[0][0] if rows and rows[0][0] is not None else 0


def inner_wall(output):
    m = re.search(r"^wall_seconds (\S+)$", output or "", re.M)
    return float(m.group(1)) if m else float("nan")


def rm(path):
    if os.path.exists(path):
        os.remove(path)


def pct(x, base):
    return (x - base) / base * 100 if base else float("nan")


def fmt_num(v):
    if v is None:
        return "-"
    if isinstance(v, float):
        return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"
    return f"{v:,}" if isinstance(v, int) else str(v)


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", action="store_true", help="build from the bundle, then check (the device run)")
    ap.add_argument("--dry-run", action="store_true", help="with --device: stop before the first CUDA call")
    ap.add_argument("--compile-only", action="store_true", help="only compile known_work.cu with nvcc")
    ap.add_argument("--budget", type=float, default=None,
                    help="global time budget, seconds (default 420; 4000 in a dry run, whose build takes long here)")
    ap.add_argument("--reserve", type=float, default=15, help="seconds kept for the summary (default 15)")
    ap.add_argument("--work", default=os.environ.get("FLOPSCOPE_GPU_WORK", "/tmp/flopscope-gpu"),
                    help="work folder: unpacked bundle, build, databases (default /tmp/flopscope-gpu)")
    ap.add_argument("--jobs", type=int, default=2, help="build jobs in a dry run (the device uses 16)")
    ap.add_argument("--build-timeout", type=float, default=None,
                    help="seconds for the build (default 300 on the device, 3600 in a dry run)")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build", "dev"), help="without --device: the build")
    ap.add_argument("flopscope", nargs="?", help="without --device: the flopscope binary (default BUILD_DIR/cli/flopscope)")
    args = ap.parse_args(argv)
    if args.dry_run and not args.device:
        ap.error("--dry-run goes with --device")
    if args.budget is None:
        args.budget = 4000 if args.dry_run else 420
    if args.build_timeout is None:
        args.build_timeout = 3600 if args.dry_run else 300
    c = Check(args)
    if args.compile_only:
        c.step("compile known_work", c.compile_known_work)
        return c.summary()
    c.step("environment", c.environment)
    if args.device:
        c.step("bundle", c.bundle)
        c.step("build", c.build)
        if not args.dry_run and not c.flopscope:
            c.step("prebuilt fallback", c.prebuilt_fallback)
    else:
        c.step("build", c.use_existing_build)
    c.step("compile known_work", c.compile_known_work)
    if args.dry_run:
        c.say("\ndry run: stopping before the first CUDA call; the CPU-only parts follow")
        c.step("metrics offline", c.offline_metrics, needs=("flopscope",))
        c.step("sonnet on the CPU", c.sonnet_cpu, needs=("flopscope", "torch_python"))
        c.step("reads on a GPU trace", c.queries_on_gpu_trace, needs=("flopscope",))
        return c.summary()
    c.step("known_work", c.known_work_check, needs=("flopscope", "known_work"))
    c.step("sonnet v1/v2 diff", c.sonnet, needs=("flopscope", "torch_python"))
    c.step("kineto vs ours", c.kineto, needs=("flopscope", "torch_python"))
    c.step("ctest -L gpu", c.ctest, needs=("build_dir",))
    return c.summary()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
