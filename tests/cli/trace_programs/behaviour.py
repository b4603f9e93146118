"""Small programs for `flopscope trace` bad-input and pass-through tests: python3 behaviour.py MODE."""
import os
import signal
import sys
import time

mode = sys.argv[1]
if mode == "no-torch":
    sys.path[:] = [p for p in sys.path if "packages" not in p]
    import torch  # noqa: F401  (fails: the program cannot import torch)
import torch

model = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
x = torch.randn(4, 8)
if mode == "no-module":
    print("only tensors:", float((x @ x.t()).sum() > -1e9))
    sys.exit(0)
if mode == "crash-early":
    raise RuntimeError("crashed before any module")
if mode == "threads":
    # Four threads call the model at once, five calls each: 20 root calls that overlap in time.
    import threading

    def calls():
        with torch.no_grad():
            for _ in range(5):
                model(x)

    workers = [threading.Thread(target=calls) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    print("threads done", flush=True)
    sys.exit(0)
if mode == "ten-then-wait":
    with torch.no_grad():
        for _ in range(10):
            model(x)
    print("ten", flush=True)
    while True:
        time.sleep(1)
with torch.no_grad():
    for i in range(3):
        y = model(x)
print("output", list(y.shape))
sys.stdout.flush()
print("to stderr", file=sys.stderr)
if mode == "exit3":
    sys.exit(3)
if mode == "crash":
    raise RuntimeError("crashed after the model ran")
if mode == "loop":
    print("ready", flush=True)
    with torch.no_grad():
        while True:
            model(x)
            time.sleep(0.01)
if mode == "hard-exit":
    os._exit(5)
