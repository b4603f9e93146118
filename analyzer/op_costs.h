// Assigns FLOPs, MACs and bytes to recorded ops from the FLOPs registry, counting each piece of work once:
// an op counts (FlopsSource::kFormula) when the registry knows it and no op above it counts; ops below a
// counted op become kNested (their values are kept for inspection but excluded from totals); ops the
// registry does not know stay kNone. Measured ops (kMeasured) are left as they are.
#pragma once

#include <vector>

#include "analyzer/flops/registry.h"
#include "db/model/records.h"

namespace flopscope {

// `ops` may be in any order; parent links are by id.
void assign_op_costs(std::vector<OpRecord>& ops, const FlopsRegistry& registry = FlopsRegistry::builtin());

}  // namespace flopscope
