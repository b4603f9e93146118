// How every front end words an amount of work that may be incomplete: FLOPs that are a lower bound (some op
// below has no formula) carry the mark ">= 264 TFLOPs" in the CLI's reports and the GUI alike.
#pragma once

#include <cstddef>
#include <string>

namespace flopscope {

std::string lower_bound_flops_text(double flops, bool complete);

// "ops" is one word for one thing: calls of ops that ran ("64 op calls"; per iteration in a diff), in the
// CLI's tables and verdicts and the GUI. A drawn graph counts its nodes instead: one node per op of the
// model's graph, whatever it ran ("26 op nodes").
inline constexpr const char* kOpCallsWord = "op calls";
std::string op_calls_text(double calls);       // "64 op calls", "1 op call"
std::string op_nodes_text(std::size_t nodes);  // "26 op nodes", "1 op node"

}  // namespace flopscope
