#!/usr/bin/python3
"""Growth of `diff` in instructions executed, per doubling of vanished modules (issue #32).

CPU time on a shared machine grows faster than the work once the working set outgrows the caches (see
diff_scaling.cpp), so time alone cannot tell a linear diff from a slightly superlinear one. The number of
instructions the diff executes can: it does not depend on load or caches. This runs diff_scaling at N, 2N,
4N, 8N blocks under valgrind's callgrind, counting only inside diff_runs, and fails when one doubling
multiplies the count by more than 2.3 (linear is 2.0; n log n at these sizes is about 2.2).

Usage: instruction_growth.py DIFF_SCALING [N]   (N defaults to 1000)
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

TARGET = 2.3
ENTRY = ("flopscope::diff_runs(flopscope::RunData const&, flopscope::RunSummary const&, "
         "flopscope::RunData const&, flopscope::RunSummary const&, flopscope::DiffOptions const&)")


def instructions(binary, blocks, out_dir):
    out = os.path.join(out_dir, f"callgrind.{blocks}")
    r = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                        f"--toggle-collect={ENTRY}", binary, str(blocks), "1"],
                       capture_output=True, text=True, check=False)
    m = re.search(r"Collected : (\d+)", r.stderr)
    if r.returncode != 0 or not m:
        sys.exit(f"instruction_growth: {binary} {blocks} under callgrind failed (exit {r.returncode}):\n"
                 + r.stderr[-2000:])
    if int(m.group(1)) == 0:
        sys.exit("instruction_growth: no instruction counted inside diff_runs (was it renamed?)")
    return int(m.group(1))


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if shutil.which("valgrind") is None:
        print("instruction_growth: SKIP: valgrind is not installed (Debian package valgrind)")
        return 0
    binary, n = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    print(f"{'blocks':>8} {'instructions':>16} {'growth':>8}")
    worst, previous = 0.0, None
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(4):
            blocks = n << k
            count = instructions(binary, blocks, tmp)
            growth = count / previous if previous else None
            if growth:
                worst = max(worst, growth)
            print(f"{blocks:>8} {count:>16,} {growth:>8.3f}" if growth else f"{blocks:>8} {count:>16,} {'-':>8}")
            previous = count
    ok = worst <= TARGET
    print(f"largest growth in instructions per doubling {worst:.3f} (linear 2.0, target <= {TARGET}): "
          + ("PASS" if ok else "FAIL"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
