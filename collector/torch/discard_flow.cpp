#include "collector/torch/discard_flow.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace flopscope {

void DiscardFlow::add(FlowOp op) {
  ops_.push_back(std::move(op));
}

void DiscardFlow::output(Id producer) {
  outputs_.push_back(producer);
}

std::vector<DiscardedOpRecord> DiscardFlow::finish_request() {
  std::vector<FlowOp> ops = std::move(ops_);
  std::unordered_set<Id> outputs(outputs_.begin(), outputs_.end());
  ops_.clear();
  outputs_.clear();
  std::vector<DiscardedOpRecord> out;
  if (std::none_of(ops.begin(), ops.end(), [](const FlowOp& o) { return o.zeroing; })) return out;

  std::unordered_map<Id, std::size_t> position;
  for (std::size_t i = 0; i < ops.size(); ++i) position.emplace(ops[i].op, i);
  struct Edge {
    std::size_t consumer;
    bool discarded;
  };
  std::vector<std::vector<Edge>> consumers(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) {
    for (std::size_t k = 0; k < ops[i].producers.size(); ++k) {
      auto it = position.find(ops[i].producers[k]);
      // A producer that ended after its consumer started is not a producer of this flow: never trust it.
      if (it == position.end() || it->second >= i) continue;
      consumers[it->second].push_back({i, k < ops[i].discarded.size() && ops[i].discarded[k]});
    }
  }
  // Backwards over the end order: every consumer is decided before its producers. `cause` is the zeroing
  // op a dead op's result ends in (through its first consumer).
  std::vector<bool> dead(ops.size(), false);
  std::vector<std::size_t> cause(ops.size(), 0);
  for (std::size_t p = ops.size(); p-- > 0;) {
    const auto& edges = consumers[p];
    if (edges.empty() || outputs.count(ops[p].op) != 0) continue;
    bool all_discarded = std::all_of(edges.begin(), edges.end(),
                                     [&](const Edge& e) { return e.discarded || dead[e.consumer]; });
    if (!all_discarded) continue;
    dead[p] = true;
    const Edge& first = edges.front();
    cause[p] = first.discarded ? first.consumer : cause[first.consumer];
  }
  for (std::size_t i = 0; i < ops.size(); ++i) {
    if (dead[i]) {
      const FlowOp& z = ops[cause[i]];
      out.push_back({ops[i].op, z.op, z.zero_factor});
    } else if (ops[i].zeroing) {
      out.push_back({ops[i].op, ops[i].op, ops[i].zero_factor});
    }
  }
  return out;
}

}  // namespace flopscope
