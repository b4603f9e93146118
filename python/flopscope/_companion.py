"""The companion `flopscope trace` loads into an unchanged PyTorch program (plain Python, torch only).

- Every nn.Module call is named by its named_modules() path (global forward pre/post hooks) and, while the
  profiler records, wrapped in a record_function range "flopscope.module <Class> <path>" that flopscope's
  Kineto importer turns into that module path.
- Iterations: each call of the root module (the first outermost module called), or each flopscope.step().
  The first FLOPSCOPE_WARMUP iterations run unrecorded, the next FLOPSCOPE_ITERATIONS are recorded.
- At the first call of a root: its parameters and buffers (dtype, shape, L2, max |x|, non-zero share,
  SHA-256 of the raw bytes), as `flopscope profile` records them.
- FLOPSCOPE_ACTIVATIONS=1: per module call output statistics (the input is copied at entry, so in-place
  modules are measured against what they were given); the work runs inside "flopscope.overhead" ranges,
  which are left out of the written trace.
- FLOPSCOPE_NVTX=1 (`flopscope exec --modules`): an NVTX range named by the path around each module call.
- FLOPSCOPE_META=1 (`flopscope trace --meta`, torch >= 2): the program runs with the meta device as the
  default device (torch.set_default_device) and torch.load maps to it, so modules are built and called
  without values: the profiler still records every op with its shapes, so FLOPs and bytes per module come
  out as usual, in seconds and without memory for weights. Ops whose output shape or cost depends on tensor
  values (torch.Tag.dynamic_output_shape / data_dependent_output: nonzero, masked_select, item, ...) are
  counted per module path by a dispatch mode and listed; on the meta device they usually stop the program.
  On torch < 2 (no default-device switch) the companion refuses at `import torch` and ends the process.

- FLOPSCOPE_ABLATE (`flopscope trace --ablate GLOB=zero|identity`, one per line): the output of every call of a
  module whose path matches GLOB is replaced, by zeros of its shape and dtype or by the module's first tensor
  input (only when shape and dtype agree; otherwise it is left as is), through the global forward hook. The
  run's notes say which modules were replaced in how many calls, and which rules matched no call.

Everything goes to files in FLOPSCOPE_TRACE_DIR (a folder flopscope made and removes): trace.<pid>.json
(Chrome trace in the Kineto schema) and info.<pid>.json. Nothing is printed.
"""
import atexit
import ctypes
import fnmatch
import hashlib
import importlib.util
import json
import os
import sys
import threading
import time

MODULE_PREFIX = "flopscope.module "
OVERHEAD = "flopscope.overhead"
OUTPUT_VALUE_BUDGET = 64 << 20  # bytes of output elements kept whole per run (db/model/output_records.h)


def _env_int(name, default):
    try:
        return int(os.environ.get(name, ""))
    except ValueError:
        return default


class _State:
    def __init__(self):
        self.dir = os.environ.get("FLOPSCOPE_TRACE_DIR", "")
        self.warmup = max(0, _env_int("FLOPSCOPE_WARMUP", 0))
        self.iterations = max(1, _env_int("FLOPSCOPE_ITERATIONS", 10))
        self.activations = os.environ.get("FLOPSCOPE_ACTIVATIONS") == "1"
        self.save_outputs = os.environ.get("FLOPSCOPE_SAVE_OUTPUTS") == "1"
        self.outputs_out = []  # per distinct input of the root: what forward() returned (--save-outputs)
        self.output_inputs = set()  # input hashes already recorded
        self.output_budget = OUTPUT_VALUE_BUDGET
        self.output_blob = None  # outputs.<pid>.bin: element values and top-1 indices the JSON points into
        self.nvtx = os.environ.get("FLOPSCOPE_NVTX") == "1"
        self.meta = os.environ.get("FLOPSCOPE_META") == "1"
        self.meta_refused = ""
        self.ablate = _ablation_rules(os.environ.get("FLOPSCOPE_ABLATE", ""))
        self.ablation_mode = {}  # path -> (glob, mode) or None, cached
        self.ablated = {}  # path -> calls whose output was replaced
        self.ablation_refused = {}  # path -> why it was left as is
        self.value_dependent = {}  # (op, module path) -> calls, under --meta
        self.torch = None
        self.local = threading.local()
        self.lock = threading.RLock()
        self.main_root = None
        self.roots = {}  # id(root) -> {"paths": {id(module): [path, ...]}, "prefix": str}
        self.modules = []  # [path, class] in named_modules() order, every root
        self.module_seen = set()
        self.params = []
        self.activations_out = []
        self.activation_cost_ns = 0
        self.notes = []
        self.root_calls = 0
        self.step_mode = False
        self.steps = 0  # iterations begun (root calls or step() calls), on every thread
        self.begun_recorded = 0  # recorded iterations begun
        self.open_steps = 0  # recorded iterations begun and not yet ended
        self.recorded = 0  # recorded iterations ended: the ones the trace holds
        self.unrecorded_calls = 0  # root calls in the window on threads the profiler cannot record
        self.started = False  # the profiler was started (with the first recorded iteration)
        self.profiler = None  # torch.profiler.profile (Kineto)
        self.profiler_thread = None  # the thread that started it
        self.all_threads = False  # it records every thread (profile_all_threads)
        self.kineto_live = False
        self.main_session = False  # event tree: the main thread's session is open
        self.tree_results = []  # event tree: closed sessions' results
        self.pending_write = False  # event tree: recording ended on another thread; the main thread writes
        self.interrupted = ""  # "SIGTERM" when flopscope's handler ended the program
        self.exiting = False  # the atexit handler runs
        self.backend = ""
        self.trace_file = None
        self.done = False  # recording finished (all iterations recorded)
        self.path_cache = {}  # (id(module), caller path) -> (path, range name)


S = None


def _stack():
    st = getattr(S.local, "stack", None)
    if st is None:
        st = S.local.stack = []
    return st


# ---- start-up -------------------------------------------------------------------------------------------


class _TorchWatcher:
    """Finishes set-up right after `import torch` completes, so programs that never import torch pay nothing."""

    def find_spec(self, name, path=None, target=None):
        if name != "torch":
            return None
        try:
            sys.meta_path.remove(self)
        except ValueError:
            pass
        spec = importlib.util.find_spec("torch")
        if spec is None or spec.loader is None:
            return spec
        loader = spec.loader
        original = loader.exec_module

        def exec_module(module):
            original(module)
            _on_torch(module)

        loader.exec_module = exec_module
        return spec


def install():
    global S
    if S is not None:
        return
    S = _State()
    if S.dir:
        _write_json("started.%d.json" % os.getpid(), {"pid": os.getpid(), "argv": sys.argv})
        atexit.register(_at_exit)
        _exit_cleanly_on_sigterm()
    if "torch" in sys.modules:
        _on_torch(sys.modules["torch"])
    else:
        sys.meta_path.insert(0, _TorchWatcher())


def _exit_cleanly_on_sigterm():
    """Python ends at SIGTERM without running atexit, so what was recorded would be lost: unless the program
    handles SIGTERM itself, it becomes a SystemExit (the run is written, marked as stopped by the signal),
    and the process then ends by the signal as it would have."""
    import signal

    try:
        if signal.getsignal(signal.SIGTERM) != signal.SIG_DFL:
            return

        def on_term(sig, frame):
            S.interrupted = "SIGTERM"
            signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a second one must not cut the write short
            raise SystemExit(128 + sig)

        signal.signal(signal.SIGTERM, on_term)
    except (ValueError, OSError):  # not the main thread: nothing to install
        pass


def _on_torch(torch):
    if S.torch is not None:
        return
    S.torch = torch
    from torch.nn.modules import module as nn_module

    nn_module.register_module_forward_pre_hook(_pre_hook)
    nn_module.register_module_forward_hook(_post_hook)
    if S.meta:
        _start_meta(torch)


META_REFUSED_EXIT = 86  # the process ends with this at `import torch` when --meta cannot work


def _start_meta(torch):
    try:
        major = int(str(torch.__version__).split(".")[0])
    except ValueError:
        major = 0
    if major < 2 or not hasattr(torch, "set_default_device"):
        S.meta_refused = ("torch %s has no default-device switch (torch.set_default_device, torch >= 2), so the "
                          "program's model cannot be built on the meta device" % torch.__version__)
        _write_info()
        try:
            sys.stdout.flush()
        except Exception:
            pass
        os._exit(META_REFUSED_EXIT)
    torch.set_default_device("meta")
    original_load = torch.load

    def load(f, *args, **kwargs):
        # Weights the program loads become meta tensors too: shapes and dtypes only, nothing read.
        kwargs["map_location"] = "meta"
        if args:  # map_location given by position
            args = args[1:]
        return original_load(f, *args, **kwargs)

    torch.load = load
    from torch.utils._python_dispatch import TorchDispatchMode

    tags = tuple(getattr(torch.Tag, t) for t in ("dynamic_output_shape", "data_dependent_output")
                 if hasattr(torch.Tag, t))

    class ValueDependent(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            if tags and any(t in func.tags for t in tags):
                stack = getattr(S.local, "stack", None)
                key = (str(func.name()), stack[-1][1] if stack else "")
                S.value_dependent[key] = S.value_dependent.get(key, 0) + 1
            return func(*args, **(kwargs or {}))

    S.meta_mode = ValueDependent()
    S.meta_mode.__enter__()


# ---- module paths ---------------------------------------------------------------------------------------


def _new_root(module):
    """Paths of every module under a root (all paths of shared modules), its module rows and its weights."""
    key = id(module)
    if module is S.main_root or S.main_root is None:
        prefix = ""
    else:
        prefix = type(module).__name__
        S.notes.append("a second outermost module (%s) was called; its paths start with '%s'" % (prefix, prefix))
    paths = {}
    for name, m in module.named_modules(remove_duplicate=False):
        full = _join(prefix, name)
        paths.setdefault(id(m), []).append(full)
    for name, m in module.named_modules():
        full = _join(prefix, name)
        if full not in S.module_seen:
            S.module_seen.add(full)
            S.modules.append([full, type(m).__name__])
    S.roots[key] = {"paths": paths, "prefix": prefix}
    _note_compiled(module, prefix)
    _record_weights(module, prefix)
    return S.roots[key]


def _note_compiled(root, prefix):
    """torch.compile wraps a module in OptimizedModule; inside it, dynamo runs the code without calling the
    submodules' hooks, so their ops go to the wrapper's path. Said per wrapper, never silently."""
    for name, m in root.named_modules():
        if type(m).__name__ == "OptimizedModule" and hasattr(m, "_orig_mod"):
            inner = [n for n, _ in m.named_modules() if n and n != "_orig_mod"]
            _note("'%s' runs compiled by torch.compile: the ops of its %d submodules are attributed to '%s' "
                  "(inside 'Torch-Compiled Region' ranges); the first calls include compilation"
                  % (_join(prefix, name) or "(root)", len(inner), _join(prefix, name) or "(root)"))


def _join(a, b):
    return b if not a else (a if not b else a + "." + b)


def _path_for(module, parent_path):
    """The module's path inside the call in progress: under the calling module when it is reachable there."""
    for info in S.roots.values():
        candidates = info["paths"].get(id(module))
        if not candidates:
            continue
        if parent_path is None:
            return candidates[0]
        inside = [p for p in candidates if parent_path == "" or p.startswith(parent_path + ".")]
        if inside:
            return min(inside, key=len)
        return candidates[0]
    # Made on the fly inside a forward (not an attribute of any root): named under its caller by class.
    name = _join(parent_path or "", type(module).__name__)
    if name not in S.module_seen:
        S.module_seen.add(name)
        S.modules.append([name, type(module).__name__])
    return name


# ---- hooks ----------------------------------------------------------------------------------------------


def _cached_path(module, parent_path):
    key = (id(module), parent_path)
    hit = S.path_cache.get(key)
    if hit is None or hit[2] is not module:  # an id reused by a new module after the old one was freed
        path = _path_for(module, parent_path)
        hit = (path, MODULE_PREFIX + type(module).__name__ + " " + path, module)
        if len(S.path_cache) < 1_000_000:
            S.path_cache[key] = hit
    return hit[0], hit[1]


def _pre_hook(module, inputs):
    try:
        _enter(module, inputs)
    except Exception as e:  # never break the user's program
        _note("companion error in forward pre-hook: %r" % (e,))
    return None


def _post_hook(module, inputs, output):
    stack = _stack()
    path = stack[-1][1] if stack and stack[-1][0] is module else None
    try:
        _leave(module, output)
    except Exception as e:
        _note("companion error in forward hook: %r" % (e,))
    if S.ablate and path:
        try:
            return _ablated_output(path, inputs, output)
        except Exception as e:
            _note("companion error in --ablate: %r" % (e,))
    return None


# ---- ablation (--ablate) --------------------------------------------------------------------------------


def _ablation_rules(text):
    """[(glob, mode)] from "GLOB=zero\nGLOB=identity" (flopscope checked the syntax)."""
    rules = []
    for line in text.splitlines():
        glob, _, mode = line.rpartition("=")
        if glob and mode in ("zero", "identity"):
            rules.append((glob, mode))
    return rules


def _ablated_output(path, inputs, output):
    """The replacement of a matched module's output (the hook's return value), or None to keep it."""
    if path not in S.ablation_mode:
        # The first rule that matches, as shell globs match (* crosses dots), like `flopscope ablate`.
        S.ablation_mode[path] = next(((g, m) for g, m in S.ablate if fnmatch.fnmatchcase(path, g)), None)
    rule = S.ablation_mode[path]
    if rule is None:
        return None
    torch = S.torch
    if not isinstance(output, torch.Tensor):
        S.ablation_refused[path] = "returns %s, not a tensor" % type(output).__name__
        return None
    if rule[1] == "zero":
        replacement = torch.zeros_like(output)
    else:
        x = _first_tensor(inputs)
        if x is None or x.shape != output.shape or x.dtype != output.dtype:
            S.ablation_refused[path] = "identity needs equal shapes: its output is %s%s, its first input %s" % (
                output.dtype, list(output.shape), "none" if x is None else "%s%s" % (x.dtype, list(x.shape)))
            return None
        replacement = x
    S.ablated[path] = S.ablated.get(path, 0) + 1
    return replacement


def _ablation_notes():
    notes = []
    for glob, mode in S.ablate:
        paths = [p for p, rule in S.ablation_mode.items() if rule == (glob, mode)]
        for p in paths:
            if p in S.ablated:
                notes.append("--ablate %s=%s: the output of %s was replaced in %d call(s)" % (glob, mode, p, S.ablated[p]))
            if p in S.ablation_refused:
                notes.append("--ablate %s=%s: %s was left as is: %s" % (glob, mode, p, S.ablation_refused[p]))
        if not paths:
            notes.append("--ablate %s=%s: matched no module call: nothing was replaced" % (glob, mode))
    return notes


def _enter(module, inputs):
    stack = _stack()
    ordinal = None
    is_iteration = False
    with S.lock:
        if not stack:
            if S.main_root is None:
                S.main_root = module
            if id(module) not in S.roots and _path_for_known(module) is None:
                _new_root(module)
            if module is S.main_root:
                S.root_calls += 1
                is_iteration = not S.step_mode
            path, name = _cached_path(module, None)
        else:
            path, name = _cached_path(module, stack[-1][1])
        if is_iteration:
            ordinal = _begin_iteration()
    if ordinal is not None:
        _open_iteration_here(ordinal)
    elif S.pending_write and _on_main_thread():
        _flush_pending_trace()
    recording = _recording_here()
    entry = [module, path, None, None, is_iteration, None, None]
    if recording and ordinal is not None and S.save_outputs:
        entry[6] = _timed(lambda: _input_hash(inputs))
    if recording and S.activations:
        entry[3] = _timed(lambda: _first_tensor_copy(inputs))
    if recording:
        entry[2] = _range_enter(name)
    if S.nvtx and path:  # the root needs no range: kernels outside every range belong to it
        try:
            S.torch.cuda.nvtx.range_push(path)
            entry[5] = True
        except Exception:
            pass
    stack.append(entry)


def _path_for_known(module):
    for info in S.roots.values():
        if id(module) in info["paths"]:
            return info
    return None


def _leave(module, output):
    stack = _stack()
    # A forward that raised leaves its entries behind: drop them up to this module's.
    while stack and stack[-1][0] is not module:
        _close(stack.pop(), None)
    if not stack:
        return
    entry = stack.pop()
    _close(entry, output)


def _close(entry, output):
    module, path, rf, x, is_iteration, nvtx, input_hash = entry
    if nvtx:
        try:
            S.torch.cuda.nvtx.range_pop()
        except Exception:
            pass
    if rf is not None:
        _range_exit(rf)
        if S.activations and output is not None:
            _timed(lambda: _activation(path, x, output))
        if input_hash is not None and output is not None:
            with S.lock:
                new = input_hash not in S.output_inputs
                S.output_inputs.add(input_hash)
            if new:
                _timed(lambda: _record_outputs(input_hash, output))
    if is_iteration:
        _end_iteration_here()


def _range_enter(name):
    """Opens a record_function range. The profiler ops directly: torch 1.13's record_function object runs
    torch.zeros(1) when made, which would put three extra ops in the trace per module call."""
    fast = getattr(getattr(S.torch._C, "_profiler", None), "_RecordFunctionFast", None)
    if fast is not None:
        # torch >= 2.2: a range opened in C++, without the Python op-call path of the two profiler ops below
        # (~190 us per module call on torch 2.15). The profiler files it under cpu_op; flopscope's importer
        # reads "flopscope.module ..." by its name.
        try:
            rf = fast(name)
            rf.__enter__()
            return ("object", rf)
        except Exception:
            pass
    ops = getattr(getattr(S.torch, "ops", None), "profiler", None)
    try:
        return ("op", ops._record_function_enter_new(name, None))
    except Exception:
        rf = S.torch.autograd.profiler.record_function(name)
        rf.__enter__()
        return ("object", rf)


def _range_exit(handle):
    kind, rf = handle
    if kind == "op":
        S.torch.ops.profiler._record_function_exit._RecordFunction(rf)
    else:
        rf.__exit__(None, None, None)


# ---- iterations and recording ---------------------------------------------------------------------------
#
# An iteration is one call of the root module (or one flopscope.step() span) on one thread; the first
# FLOPSCOPE_WARMUP begun anywhere run unrecorded, the next FLOPSCOPE_ITERATIONS are recorded, whichever
# threads make them. Each has its ProfilerStep# range on its own thread, so calls that overlap in time
# keep their ops apart. The profiler records threads as it can:
# - torch.profiler (Kineto), one session: every thread where it has profile_all_threads (torch >= 2.6);
#   otherwise only the thread that started it, and calls on other threads are counted, not recorded;
# - the event tree (torch without Kineto), whose sessions are per thread: the main thread keeps one open
#   from its first recorded iteration to the end of recording; any other thread opens one per recorded
#   iteration and hands its events over when the iteration ends.


def _on_main_thread():
    return threading.current_thread() is threading.main_thread()


def step():
    if S is None or S.torch is None:
        return
    ordinal = None
    with S.lock:
        first = not S.step_mode
        if first:
            S.step_mode = True
            if S.steps > 0:
                _note("flopscope.step() first called after %d root calls; iterations are counted from here" % S.steps)
                S.steps = 0
    if getattr(S.local, "step", None) is not None:
        _end_iteration_here()
    with S.lock:
        ordinal = _begin_iteration()
    if ordinal is not None:
        _open_iteration_here(ordinal)


def _begin_iteration():
    """Under S.lock: counts an iteration begun on this thread; its recorded ordinal, or None."""
    index = S.steps
    S.steps += 1
    if S.done or index < S.warmup or S.begun_recorded >= S.iterations:
        return None
    if not _can_record_here():
        S.unrecorded_calls += 1
        return None
    ordinal = S.begun_recorded
    S.begun_recorded += 1
    S.open_steps += 1
    return ordinal


def _can_record_here():
    """Under S.lock: starts the profiler with the first recorded iteration; whether this thread's ops can be
    recorded."""
    if not S.started:
        _start_profiler()
    if S.backend == "kineto":
        return S.all_threads or threading.get_ident() == S.profiler_thread
    return True


def _open_iteration_here(ordinal):
    if S.backend == "event-tree":
        if _on_main_thread():
            if not S.main_session:
                _enable_session()
                S.main_session = True
        else:
            _enable_session()
            S.local.session = True
    S.local.iteration = ordinal
    S.local.step = _range_enter("ProfilerStep#%d" % ordinal)
    S.local.call_counts = {}


def _recording_here():
    if getattr(S.local, "step", None) is not None:
        return True
    if S.backend == "kineto":
        return S.kineto_live and (S.all_threads or threading.get_ident() == S.profiler_thread)
    if S.backend == "event-tree":
        return (S.main_session if _on_main_thread() else getattr(S.local, "session", False)) and not S.done
    return False


def _end_iteration_here():
    step = getattr(S.local, "step", None)
    if step is None:
        return
    _range_exit(step)
    S.local.step = None
    S.local.iteration = None
    if getattr(S.local, "session", False):
        result = _disable_session()
        S.local.session = False
        with S.lock:
            S.tree_results.append(result)
    with S.lock:
        S.recorded += 1
        S.open_steps -= 1
        if S.begun_recorded >= S.iterations and S.open_steps == 0:
            _finish_recording()


def _enable_session():
    from torch._C import _autograd as A
    from torch._C import _profiler as P

    config = P.ProfilerConfig(P.ProfilerState.KINETO, True, False, False, False, False, P._ExperimentalConfig())
    activities = {P.ProfilerActivity.CPU}
    A._prepare_profiler(config, activities)
    A._enable_profiler(config, activities)


def _disable_session():
    from torch._C import _autograd as A

    return A._disable_profiler()


def _start_profiler():
    torch = S.torch
    S.started = True
    try:
        kineto = bool(torch.autograd.kineto_available())
    except Exception:
        kineto = False
    if not kineto:
        # Builds without Kineto (Debian's torch 1.13): the profiler's own event collection still records
        # names, times, shapes, dtypes and scalar arguments; the trace is written from its event trees.
        S.backend = "event-tree"
        return
    activities = [torch.profiler.ProfilerActivity.CPU]
    try:
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            activities.append(torch.profiler.ProfilerActivity.CUDA)
    except Exception:
        pass
    kwargs = {}
    try:
        from torch._C._profiler import _ExperimentalConfig

        kwargs["experimental_config"] = _ExperimentalConfig(profile_all_threads=True)
        S.all_threads = True
    except (ImportError, TypeError):
        S.all_threads = False
    S.profiler = torch.profiler.profile(activities=activities, record_shapes=True, **kwargs)
    _quietly(S.profiler.__enter__)
    S.profiler_thread = threading.get_ident()
    S.kineto_live = True
    S.backend = "kineto"


def _quietly(fn):
    """Runs fn with file descriptor 2 on /dev/null: Kineto logs its start and stop there ("USDT: ...
    profiler_start"), and the program's stderr must stay its own."""
    try:
        sys.stderr.flush()
    except Exception:
        pass
    saved = os.dup(2)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        return fn()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _finish_recording():
    """Under S.lock: no more iterations will be recorded; writes the trace now, or (event tree, main thread's
    session still open and this is another thread) as soon as the main thread runs flopscope's code."""
    if S.done:
        return
    S.done = True
    if S.backend == "event-tree" and S.main_session and not _on_main_thread():
        S.pending_write = True
        return
    _write_trace()


def _flush_pending_trace():
    with S.lock:
        if S.pending_write:
            S.pending_write = False
            _write_trace()


def _write_trace():
    """Under S.lock, with Ctrl-C and SIGTERM held back on the main thread until the file is whole."""
    with _signals_deferred():
        _write_trace_now()


def _write_trace_now():
    name = "trace.%d.json" % os.getpid()
    if S.backend == "kineto":
        S.kineto_live = False
        _quietly(lambda: S.profiler.__exit__(None, None, None))
        tmp = os.path.join(S.dir, name + ".raw")
        _quietly(lambda: S.profiler.export_chrome_trace(tmp))
        with open(tmp) as f:
            doc = json.load(f)
        os.remove(tmp)
        events = doc.get("traceEvents", []) if isinstance(doc, dict) else doc
        events = _outside_iterations(_drop_overhead(events))
        if S.meta:
            # The --meta dispatch mode's own ranges: the ops inside them stay.
            events = [e for e in events if e.get("name") != "PythonDispatchMode"]
        if isinstance(doc, dict):
            doc["traceEvents"] = events
        else:
            doc = {"traceEvents": events}
        _write_json(name, doc)
    elif S.backend == "event-tree":
        if S.main_session and _on_main_thread():
            S.tree_results.append(_disable_session())
            S.main_session = False
        events = _outside_iterations(_events_from_trees(S.tree_results))
        S.tree_results = []
        _write_json(name, {"schemaVersion": 1, "traceEvents": events, "traceName": "flopscope"})
    else:
        return
    S.trace_file = name
    S.profiler = None
    if S.unrecorded_calls:
        _note("%d root module call(s) in the recording window ran on threads this torch.profiler cannot record "
              "(no profile_all_threads before torch 2.6): they are not in the run" % S.unrecorded_calls)
    _write_info()


class _signals_deferred:
    """Holds Ctrl-C and SIGTERM back while the trace is written (only the main thread can, and only the
    main thread receives them as exceptions); the first one that came is delivered afterwards."""

    def __enter__(self):
        self.saved = {}
        self.caught = None
        if not _on_main_thread():
            return self
        import signal

        def hold(sig, frame):
            if self.caught is None:
                self.caught = (sig, frame)

        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                self.saved[sig] = signal.signal(sig, hold)
            except (ValueError, OSError):
                pass
        return self

    def __exit__(self, *exc):
        import signal

        for sig, handler in self.saved.items():
            signal.signal(sig, handler)
        if self.caught is not None and not S.exiting:
            sig, frame = self.caught
            handler = self.saved.get(sig)
            if callable(handler):
                handler(sig, frame)
            elif handler == signal.SIG_DFL:
                os.kill(os.getpid(), sig)
        return False


def _outside_iterations(events):
    """Host events wholly before a thread's first or after its last recorded iteration are the program's own
    work (e.g. printing a result before exit) or calls outside the recording window on that thread, not the
    recorded iterations: they are left out, and counted in a note. So are host events of threads that
    recorded no iteration (other threads' unrecorded calls, which a profiler of every thread also sees).
    Device events and runtime calls are never dropped."""
    spans = {}
    for e in events:
        if e.get("ph") == "X" and str(e.get("name", "")).startswith("ProfilerStep#"):
            t0 = float(e["ts"])
            key = (e.get("pid"), e.get("tid"))
            first, last = spans.get(key, (t0, t0))
            spans[key] = (min(first, t0), max(last, t0 + float(e.get("dur", 0))))
    if not spans:
        return events
    out, dropped = [], 0
    for e in events:
        if e.get("ph") == "X" and e.get("cat") in ("cpu_op", "user_annotation", "python_function") and "ts" in e:
            span = spans.get((e.get("pid"), e.get("tid")))
            t0 = float(e["ts"])
            if span is None or t0 + float(e.get("dur", 0)) < span[0] or t0 > span[1]:
                dropped += e.get("cat") == "cpu_op"
                continue
        out.append(e)
    if dropped:
        _note("%d host ops outside the recorded iterations of their thread left out (not the recorded model calls)"
              % dropped)
    return out


def _drop_overhead(events):
    spans = {}
    for e in events:
        if e.get("ph") == "X" and e.get("name") == OVERHEAD:
            spans.setdefault((e.get("pid"), e.get("tid")), []).append((float(e["ts"]), float(e["ts"]) + float(e.get("dur", 0))))
    if not spans:
        return events
    out = []
    for e in events:
        if e.get("ph") == "X" and "ts" in e:
            t0 = float(e["ts"])
            t1 = t0 + float(e.get("dur", 0))
            if any(a <= t0 and t1 <= b for a, b in spans.get((e.get("pid"), e.get("tid")), ())):
                continue
        out.append(e)
    return out


def _events_from_trees(results):
    pid = os.getpid()
    out = []
    trees = [r.experimental_event_tree() for r in results]
    # Microseconds from the first event of any thread: small enough for a double to keep nanoseconds.
    base = min((e.start_time_ns for roots in trees for e in roots), default=0)
    todo = [e for roots in reversed(trees) for e in reversed(roots)]
    while todo:
        e = todo.pop()
        name = e.name
        if name == OVERHEAD:
            continue
        fields = e.extra_fields
        inputs = getattr(fields, "inputs", None)
        if inputs is not None:
            annotation = name.startswith("flopscope.") or name.startswith("ProfilerStep#")
            event = {"ph": "X", "cat": "user_annotation" if annotation else "cpu_op", "name": name,
                     "pid": pid, "tid": int(e.start_tid), "ts": 0, "dur": 0}
            event["ts"] = round((e.start_time_ns - base) / 1000.0, 3)
            event["dur"] = round(max(0, e.duration_time_ns) / 1000.0, 3)
            if not annotation:
                args = {"Input Dims": [list(s) for s in inputs.shapes], "Input type": list(inputs.dtypes)}
                concrete = [_concrete(v) for v in inputs.ivalues]
                if any(concrete):
                    args["Concrete Inputs"] = concrete
                seq = getattr(fields, "sequence_number", -1)
                if seq is not None and seq >= 0:
                    args["Sequence number"] = seq
                event["args"] = args
            out.append(event)
        todo.extend(reversed(e.children))
    return out


def _concrete(v):
    if v is None:
        return ""
    if isinstance(v, (bool, int, float, str)):
        return str(v)
    if isinstance(v, (list, tuple)) and all(isinstance(x, (bool, int, float)) for x in v):
        return "[" + ", ".join(str(x) for x in v) + "]"
    return ""


# ---- weights and activations ----------------------------------------------------------------------------


def _named_tensors(root):
    """(name, tensor) for every parameter, then every buffer, under root, a tensor with several names (a tied
    lm_head.weight = embed.weight, a shared module) under each of them, as TorchScript's module slots list
    them. named_parameters() keeps one name per tensor, and remove_duplicate=False needs torch >= 2.0."""
    try:
        modules = list(root.named_modules(remove_duplicate=False))
    except TypeError:
        modules = list(root.named_modules())
    out = []
    for slots in ("_parameters", "_buffers"):
        for path, m in modules:
            for leaf, t in getattr(m, slots, {}).items():
                out.append((_join(path, leaf), t))
    return out


def _record_weights(root, prefix):
    torch = S.torch
    seen = set()
    by_tensor = {}  # id(tensor) -> its record: an alias is the same values under another name
    for name, t in _named_tensors(root):
        full = _join(prefix, name)
        if full in seen or t is None:
            continue
        seen.add(full)
        if id(t) in by_tensor:
            rec = dict(by_tensor[id(t)])
            rec["name"] = full
        else:
            rec = _tensor_record(torch, full, t)
            by_tensor[id(t)] = rec
        S.params.append(rec)


SKETCH_BUCKETS = 61  # flopscope's kSketchBuckets (db/model/records.h)


def _sketch(torch, d):
    """The content sketch flopscope compares tensors by (ParamRecord::sketch): per bucket k, the float64 sum of
    the elements whose row-major flat index i has i % 61 == k; and the sum of all elements."""
    flat = d.reshape(-1)
    rows = flat.numel() // SKETCH_BUCKETS
    if rows:
        buckets = flat[:rows * SKETCH_BUCKETS].reshape(rows, SKETCH_BUCKETS).sum(0)
    else:
        buckets = torch.zeros(SKETCH_BUCKETS, dtype=torch.float64, device=flat.device)
    tail = flat[rows * SKETCH_BUCKETS:]
    buckets[:tail.numel()] += tail
    return [_num(x) for x in buckets.tolist()], _num(flat.sum().item())


def _tensor_record(torch, name, t):
    t = t.detach()
    rec = {"name": name, "dtype": str(t.dtype).replace("torch.", ""), "shape": list(t.shape),
           "numel": t.numel(), "bytes": t.numel() * t.element_size()}
    try:
        if t.device.type == "meta":
            rec["unknown"] = "meta tensor (no values)"
            return rec
        with torch.no_grad():
            if t.numel() > 0:
                d = t.to(torch.float64)
                rec["l2"] = _num(d.norm().item())
                rec["max_abs"] = _num(d.abs().max().item())
                rec["nonzero_fraction"] = float(torch.count_nonzero(d).item()) / t.numel()
                rec["sketch"], rec["sum"] = _sketch(torch, d)
            c = t.contiguous().cpu()
            rec["sha256"] = hashlib.sha256(ctypes.string_at(c.data_ptr(), rec["bytes"]) if rec["bytes"] else b"").hexdigest()
    except Exception as e:
        rec["unknown"] = "statistics failed: %s" % (e,)
    return rec


def _first_tensor(value):
    torch = S.torch
    if isinstance(value, torch.Tensor):
        return value
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        for v in value:
            t = _first_tensor(v)
            if t is not None:
                return t
    return None


def _first_tensor_copy(inputs):
    x = _first_tensor(inputs)
    if x is None or not x.is_floating_point():
        return x if x is not None and x.numel() > 0 else None
    return x.detach().clone()


def _timed(fn):
    rf = _range_enter(OVERHEAD)
    t0 = time.perf_counter_ns()
    try:
        with S.torch.no_grad():
            return fn()
    finally:
        S.activation_cost_ns += time.perf_counter_ns() - t0
        _range_exit(rf)


# ---- outputs (trace --save-outputs) ---------------------------------------------------------------------
# The same records `flopscope profile` keeps (db/model/output_records.h): per distinct input of the root
# module, every tensor forward() returned with its path, hash, statistics and top-1; element values while the
# run's budget lasts, written to outputs.<pid>.bin as float64 (values) and int64 (top-1) little-endian.


def _tensor_bytes(t):
    c = t.detach().cpu().contiguous()
    n = c.numel() * c.element_size()
    return ctypes.string_at(c.data_ptr(), n) if n else b""


def _dtype_name(t):
    return str(t.dtype).replace("torch.", "")


def _input_hash(inputs):
    """sha256 over every input's dtype, shape and bytes in argument order, as the TorchScript profiler hashes
    them, so two captures fed the same inputs pair their calls."""
    torch = S.torch
    key = []
    for v in inputs:
        if isinstance(v, torch.Tensor):
            key.append("tensor %s [%s] %s\n" % (_dtype_name(v), "".join("%d," % d for d in v.shape),
                                                hashlib.sha256(_tensor_bytes(v)).hexdigest()))
        else:
            key.append("value %r\n" % (v,))
    return hashlib.sha256("".join(key).encode()).hexdigest()


def _output_tensors(value, path, out):
    torch = S.torch
    if isinstance(value, torch.Tensor):
        out.append((path or "0", value))
    elif isinstance(value, dict):
        for k, v in value.items():
            _output_tensors(v, _join(path, str(k)), out)
    elif isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            _output_tensors(v, _join(path, str(i)), out)


def _blob_write(data):
    if S.output_blob is None:
        S.output_blob = open(os.path.join(S.dir, "outputs.%d.bin" % os.getpid()), "wb")
    offset = S.output_blob.tell()
    S.output_blob.write(data)
    return offset


def _output_record(name, t):
    torch = S.torch
    t = t.detach().cpu()
    rec = {"name": name, "dtype": _dtype_name(t), "shape": list(t.shape), "sha256": hashlib.sha256(_tensor_bytes(t)).hexdigest()}
    d = (torch.view_as_real(t) if t.is_complex() else t).to(torch.float64).contiguous()
    finite = torch.isfinite(d)
    f = d[finite]
    rec["nan_count"] = int(torch.isnan(d).sum().item())
    rec["inf_count"] = int(torch.isinf(d).sum().item())
    rec["max_abs"] = float(f.abs().max().item()) if f.numel() else 0.0
    rec["mean"] = float(f.mean().item()) if f.numel() else 0.0
    rec["rms"] = float(f.pow(2).mean().sqrt().item()) if f.numel() else 0.0
    if t.is_floating_point() and d.dim() >= 1 and d.shape[-1] > 0:
        # NaN never wins, as in the TorchScript profiler; ties go to the first index.
        top1 = d.nan_to_num(nan=float("-inf"), posinf=float("inf"), neginf=float("-inf")).argmax(dim=-1)
        blob = _tensor_bytes(top1.reshape(-1).to(torch.int64))
        rec["argmax"] = [_blob_write(blob), top1.numel()]
    size = t.numel() * t.element_size()
    if size <= S.output_budget:
        S.output_budget -= size
        rec["values"] = [_blob_write(_tensor_bytes(d.reshape(-1))), d.numel()]
    else:
        S.output_budget = -1  # later tensors are summarized too
        rec["summarized"] = True
    return rec


def _record_outputs(input_hash, output):
    tensors = []
    _output_tensors(output, "", tensors)
    S.outputs_out.append({"call": getattr(S.local, "iteration", None) or 0, "input_hash": input_hash,
                          "tensors": [_output_record(name, t) for name, t in tensors]})


def _activation(path, x, output):
    torch = S.torch
    y = _first_tensor(output)
    if y is None or y.numel() == 0:
        return
    y = y.detach()
    if y.dtype not in (torch.float32, torch.float64):
        y = y.float()
    n = y.numel()
    counts = getattr(S.local, "call_counts", None)
    if counts is None:
        counts = S.local.call_counts = {}
    call = counts.get(path, 0)
    counts[path] = call + 1
    iteration = getattr(S.local, "iteration", None) or 0
    rec = {"path": path, "iteration": iteration, "call": call, "numel": n,
           "l2": _num(torch.linalg.vector_norm(y, 2).item()),
           "max_abs": _num(torch.linalg.vector_norm(y, float("inf")).item()),
           "zero_fraction": 1.0 - float(torch.count_nonzero(y).item()) / n}
    if x is not None and tuple(x.shape) == tuple(y.shape):
        xf = x.detach().to(y.dtype)
        xn = float(torch.linalg.vector_norm(xf, 2).item())
        dn = float(torch.linalg.vector_norm(y - xf, 2).item())
        rec["rel_change"] = _num(dn / xn if xn > 0 else (float("inf") if dn > 0 else 0.0))
    S.activations_out.append(rec)


# ---- output ---------------------------------------------------------------------------------------------


def _num(x):
    """JSON has no inf/nan: they are written as strings flopscope reads back."""
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return x


def _note(text):
    if S is not None and text not in S.notes and len(S.notes) < 50:
        S.notes.append(text)


def _write_json(name, doc):
    if not S.dir:
        return
    path = os.path.join(S.dir, name)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, allow_nan=False)
    os.replace(tmp, path)


def _write_info():
    torch = S.torch
    _write_json("info.%d.json" % os.getpid(), {
        "pid": os.getpid(),
        "argv": sys.argv,
        "torch_version": getattr(torch, "__version__", "") if torch is not None else "",
        "torch_importable": torch is not None or importlib.util.find_spec("torch") is not None,
        "backend": S.backend,
        "root_calls": S.root_calls,
        "iterations_begun": S.steps,
        "step_mode": S.step_mode,
        "warmup": S.warmup,
        "iterations": S.recorded,
        "iterations_requested": S.iterations,
        "complete": S.recorded >= S.iterations,
        "trace": S.trace_file,
        "root": type(S.main_root).__name__ if S.main_root is not None else "",
        "modules": S.modules,
        "params": S.params,
        "activations": S.activations_out if S.activations else None,
        "activation_cost_ns": S.activation_cost_ns,
        "outputs": S.outputs_out if S.save_outputs else None,
        "notes": S.notes + _ablation_notes(),
        "meta": S.meta,
        "meta_refused": S.meta_refused,
        "value_dependent": [[op, path, n] for (op, path), n in sorted(S.value_dependent.items())],
    })


def _at_exit():
    S.exiting = True  # a Ctrl-C from here on is held back and dropped: the process is ending anyway
    with _signals_deferred():
        _finish_at_exit()
    if S.interrupted:
        # Ended by our SIGTERM handler: end with the signal itself, as without flopscope.
        import signal

        for f in (sys.stdout, sys.stderr):
            try:
                f.flush()
            except Exception:
                pass
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)


def _finish_at_exit():
    try:
        # Close what is still open on this (the main) thread: Ctrl-C, an exception, a program that stops
        # mid-iteration. Iterations still running on other threads cannot be closed from here.
        stopped_inside = getattr(S.local, "step", None) is not None
        if stopped_inside:
            _end_iteration_here()
        with S.lock:
            if stopped_inside and S.recorded < S.iterations:
                _note("recording ended before %d iterations (the program stopped)" % S.iterations)
            if S.open_steps > 0:
                _note("%d recorded iteration(s) were still running on other threads when the program ended: "
                      "they are not in the run" % S.open_steps)
            if S.started and not S.done:
                _finish_recording()
            elif S.pending_write:
                S.pending_write = False
                _write_trace()
            if S.output_blob is not None:
                S.output_blob.close()
            _write_info()
    except Exception as e:
        try:
            _write_json("info.%d.json" % os.getpid(), {"pid": os.getpid(), "error": repr(e)})
        except Exception:
            pass
