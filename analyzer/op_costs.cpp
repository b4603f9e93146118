#include "analyzer/op_costs.h"

#include <algorithm>
#include <numeric>
#include <unordered_map>

namespace flopscope {

FlopsSource nested_flops_source(bool counted_above, bool has_formula) {
  if (counted_above) return FlopsSource::kNested;
  return has_formula ? FlopsSource::kFormula : FlopsSource::kNone;
}

void set_op_flops(OpRecord& op, const FlopsResult& r, const FlopsRegistry& registry) {
  if (!r.known) {
    if (r.invalid_args) {
      op.flops_note = std::string(r.note);  // why the shapes were refused
    } else if (op.args.empty() && registry.has(op.name)) {
      // A formula exists but the trace has no arguments for it (recorded without record_shapes): say so,
      // so that the coverage list does not read as a missing formula.
      op.flops_note = std::string(kArgumentsNotRecorded);
    }
    return;
  }
  op.flops = r.flops;
  op.macs = r.macs;
  op.bytes_read = r.bytes_read;
  op.bytes_written = r.bytes_written;
  op.flops_note = std::string(r.note);
  constexpr std::string_view kEstimate = "(estimate)";
  if (r.estimate && !op.flops_note.ends_with(kEstimate))
    op.flops_note += op.flops_note.empty() ? std::string(kEstimate) : " " + std::string(kEstimate);
}

void assign_op_costs(std::vector<OpRecord>& ops, const FlopsRegistry& registry) {
  // Parents before children: order by depth, then start.
  std::vector<std::size_t> order(ops.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    if (ops[a].depth != ops[b].depth) return ops[a].depth < ops[b].depth;
    return ops[a].sequence < ops[b].sequence;
  });
  std::unordered_map<Id, std::size_t> at;
  at.reserve(ops.size());
  for (std::size_t i = 0; i < ops.size(); ++i) at[ops[i].id] = i;
  std::vector<char> covered(ops.size(), 0);  // this op or an ancestor counts

  for (std::size_t i : order) {
    OpRecord& op = ops[i];
    bool parent_covered = false;
    if (op.parent_op_id != kNoId) {
      auto it = at.find(op.parent_op_id);
      parent_covered = it != at.end() && covered[it->second];
    }
    if (op.flops_source == FlopsSource::kMeasured) {
      covered[i] = 1;
      continue;
    }
    FlopsResult r = registry.evaluate(op.name, op.args);
    set_op_flops(op, r, registry);
    op.flops_source = nested_flops_source(parent_covered, r.known);
    covered[i] = op.flops_source != FlopsSource::kNone;
  }
}

}  // namespace flopscope
