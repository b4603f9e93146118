// A RecordFunction observer that records aten ops with their module paths. Torch-free interface.
#pragma once

#include <memory>
#include <vector>

#include "db/model/module_path.h"
#include "db/model/records.h"

namespace flopscope {

class OpObserver {
 public:
  // Registers a global RecordFunction callback for aten ops. `tree` must outlive the observer.
  // With `activations`, also records statistics of each module call's output (see ActivationRecord);
  // their computation is kept out of op timings.
  explicit OpObserver(const ModuleTree& tree, bool activations = false);
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

  struct State;  // public so the RecordFunction callbacks (free functions) can reach it

 private:
  std::unique_ptr<State> state_;
};

}  // namespace flopscope
