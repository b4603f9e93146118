"""A model of many small ops (64 tiny Linear+GELU blocks on a [4, 32] input), for the companion's overhead.

  small_ops.py MODE ITERATIONS OUT.json
MODE: plain (no profiler), profiler (torch.profiler, record_shapes, as the companion runs it), or traced
(the program as `flopscope trace` runs it: the companion does the recording). Writes per-iteration wall
times (ns) to OUT.json; prints nothing."""
import json
import sys
import time

import torch


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(32, 32)
        self.act = torch.nn.GELU()

    def forward(self, x):
        return x + self.act(self.fc(x))


def start_profiler():
    """The profiler as the companion runs it: torch.profiler with shapes, or, without Kineto, the same
    event collection through torch._C (so the comparison isolates the companion's hooks and ranges)."""
    if torch.autograd.kineto_available():
        prof = torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU], record_shapes=True)
        prof.__enter__()
        return lambda: prof.__exit__(None, None, None)
    from torch._C import _autograd as A
    from torch._C import _profiler as P

    config = P.ProfilerConfig(P.ProfilerState.KINETO, True, False, False, False, False, P._ExperimentalConfig())
    A._prepare_profiler(config, {P.ProfilerActivity.CPU})
    A._enable_profiler(config, {P.ProfilerActivity.CPU})
    return lambda: A._disable_profiler()


def main():
    mode, iterations, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    torch.manual_seed(0)
    torch.set_num_threads(1)
    model = torch.nn.Sequential(*[Block() for _ in range(64)]).eval()
    x = torch.randn(4, 32)
    times = []
    with torch.no_grad():
        model(x)  # warm-up, unmeasured in every mode
        if mode == "profiler":
            stop = start_profiler()
        for _ in range(iterations):
            t0 = time.perf_counter_ns()
            model(x)
            times.append(time.perf_counter_ns() - t0)
        if mode == "profiler":
            stop()
    with open(out, "w") as f:
        json.dump(times, f)


main()
