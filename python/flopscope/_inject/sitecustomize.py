# Loaded by Python at start-up because `flopscope trace` puts this folder first on PYTHONPATH. It starts the
# flopscope companion (module paths, iterations, weights) and then runs the sitecustomize this one shadows,
# so the user's interpreter set-up is unchanged.
import importlib.machinery
import importlib.util
import os
import sys


def _chain_next_sitecustomize():
    here = os.path.dirname(os.path.abspath(__file__))
    path = [p for p in sys.path if os.path.abspath(p or ".") != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is None or spec.loader is None:
        return
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)


try:
    if os.environ.get("FLOPSCOPE_TRACE_DIR") or os.environ.get("FLOPSCOPE_NVTX"):
        from flopscope import _companion

        _companion.install()
finally:
    _chain_next_sitecustomize()
