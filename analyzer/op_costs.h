// Assigns FLOPs, MACs and bytes to recorded ops from the FLOPs registry, counting each piece of work once:
// an op counts (FlopsSource::kFormula) when the registry knows it and no op above it counts; ops below a
// counted op become kNested (their values are kept for inspection but excluded from totals); ops the
// registry does not know stay kNone. Measured ops (kMeasured) are left as they are.
//
// This file owns that rule. assign_op_costs applies it to records (the collector); the trace importers'
// TraceBuilder applies the same two functions below to its interned ops, with an evaluation cache.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/flops/registry.h"
#include "db/model/records.h"

namespace flopscope {

// The note of an op whose formula needs arguments the trace did not record.
inline constexpr std::string_view kArgumentsNotRecorded = "arguments not recorded (record_shapes off)";

// `ops` may be in any order; parent links are by id.
void assign_op_costs(std::vector<OpRecord>& ops, const FlopsRegistry& registry = FlopsRegistry::builtin());

// The nesting rule for one op: kNested under an op that counts, else kFormula when the registry knows
// it, else kNone. The op covers its descendants unless the result is kNone.
FlopsSource nested_flops_source(bool counted_above, bool has_formula);

// Copies a known registry result into the op (values and note); the note says "(estimate)" once when the
// formula had to assume something. An unknown result leaves the values at 0 and notes why when a formula
// exists: the refused shapes, or kArgumentsNotRecorded.
void set_op_flops(OpRecord& op, const FlopsResult& result,
                  const FlopsRegistry& registry = FlopsRegistry::builtin());

}  // namespace flopscope
