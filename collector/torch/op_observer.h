// A RecordFunction observer that records aten ops with their module paths. Torch-free interface.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "db/model/module_path.h"
#include "db/model/records.h"

namespace c10 {
struct IValue;
}

namespace flopscope {

// Module instances (the address of each submodule's TorchScript object) -> module id.
using ModuleInstances = std::unordered_map<const void*, Id>;

class OpObserver {
 public:
  // Registers a global RecordFunction callback for aten ops. `tree` must outlive the observer.
  // With `activations`, also records statistics of each module call's output (see ActivationRecord);
  // their computation is kept out of op timings.
  // With `instances` (must outlive the observer), ops are attributed from the interpreter's own calls:
  // each TorchScript method call names its `self` object, so an op belongs to the module instance whose
  // method is running (needs the model to run un-inlined). Without, from the interpreter's module
  // hierarchy names, and ops whose module the names cannot tell apart are counted as ambiguous.
  // Op names and argument lists are interned per thread (built once per distinct name and argument key);
  // `exact` builds them anew for every op instead: the reference the interned records are tested against.
  explicit OpObserver(const ModuleTree& tree, bool activations = false,
                      const ModuleInstances* instances = nullptr, bool exact = false);
  ~OpObserver();
  OpObserver(const OpObserver&) = delete;
  OpObserver& operator=(const OpObserver&) = delete;

  // Ops started from now on carry this iteration number.
  void set_iteration(int iteration);
  // Requests from now on carry this input-set tag (activation statistics only).
  void set_input_tag(const std::string& tag);
  // Unregisters the callback and returns all ops with run-wide ids, in start order.
  std::vector<OpRecord> finish();
  // After finish(): the activation statistics, and the time spent computing them.
  std::vector<ActivationRecord> take_activations();
  double activation_cost_ns() const;
  // Dead compute (with `activations`): the names of the model's parameters and buffers by tensor (the address
  // of each one's TensorImpl), to name an all-zero factor. A factor counts as zero only when it is one of
  // these, a constant, or computed from them alone, never when it comes from a request's data.
  void set_model_tensors(std::unordered_map<const void*, std::string> names);
  // Shape reuse (off by default; never with `activations`): argument lists are recorded (the op callback
  // takes inputs, which LibTorch boxes for every op) only in the first forward call of each request, by the
  // identity and version of its input tensors; later calls of the same request run a callback without
  // inputs and give each op the list recorded at its position, the op names checked against the record.
  // Only for a model whose state a forward call cannot change (see mutates_module_state), and a request is
  // never reused when its recorded call read tensor data into values (item, nonzero, ...) or ran on more
  // than one thread.
  void set_shape_reuse(bool on);
  // Calls whose argument lists were reused, and calls dropped to run again (shape reuse).
  std::int64_t reused_calls() const;
  std::int64_t repeated_calls() const;
  // Around each forward call: its inputs, then what it returned (what the model keeps, with `activations`).
  // request_ends returns false when a reused call did not repeat the recorded op sequence: its ops are
  // dropped, the request is recorded from now on, and the caller runs the call again.
  void request_begins(const std::vector<c10::IValue>& inputs);
  bool request_ends(const c10::IValue& output);
  // After finish(): the dead compute found in each request (see DiscardedOpRecord), with run-wide op ids.
  std::vector<DiscardedOpRecord> take_discarded();
  // Ops whose module could not be told apart by name (hierarchy attribution only), and the candidates.
  std::int64_t ambiguous_ops() const;
  std::vector<Id> ambiguous_modules() const;

  struct State;  // public so the RecordFunction callbacks (free functions) can reach it

 private:
  std::unique_ptr<State> state_;
};

}  // namespace flopscope
