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
  explicit OpObserver(const ModuleTree& tree);
  ~OpObserver();
  OpObserver(const OpObserver&) = delete;
  OpObserver& operator=(const OpObserver&) = delete;

  // Ops started from now on carry this iteration number.
  void set_iteration(int iteration);
  // Unregisters the callback and returns all ops with run-wide ids, in start order.
  std::vector<OpRecord> finish();

  struct State;  // public so the RecordFunction callbacks (free functions) can reach it

 private:
  std::unique_ptr<State> state_;
};

}  // namespace flopscope
