// Dead compute within one request: the data flow between a model's outermost ops, and which of them only
// feed multiplications by an all-zero factor. Torch-free: the op observer records the flow, this decides.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// One outermost op of a request, as the observer saw it end.
struct FlowOp {
  Id op = kNoId;  // the op's run-wide id
  // Producers of its tensor inputs (ops of this request), and for each whether the op discards that input
  // (multiplies it by an all-zero factor). Inputs without a producer (model inputs, parameters) are left out.
  std::vector<Id> producers;
  std::vector<bool> discarded;
  bool zeroing = false;     // it multiplies by an all-zero factor
  std::string zero_factor;  // what is zero (zeroing ops only)
};

class DiscardFlow {
 public:
  // Ops in the order they ended: every producer before its consumers.
  void add(FlowOp op);
  // An op whose result the model returns.
  void output(Id producer);
  // Closes the request: the zeroing ops and the ops whose results reach the model's outputs only through
  // discarded inputs. An op with no consumer at all counts as used (its result may leave through a path the
  // observer does not see); so does every op of a request that has no zeroing op.
  std::vector<DiscardedOpRecord> finish_request();

 private:
  std::vector<FlowOp> ops_;
  std::vector<Id> outputs_;
};

}  // namespace flopscope
