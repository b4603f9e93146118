// Parameters and buffers per module, as torchinfo and fvcore count them: the elements and bytes (by dtype)
// a module holds itself, and with its children. One owner for the report formats and the GUI's module tree.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/summary.h"
#include "db/model/records.h"

namespace flopscope {

struct ParamCount {
  std::int64_t tensors = 0;
  std::int64_t elements = 0;
  std::int64_t bytes = 0;  // as stored; elements x the dtype's size when the record has no byte count
};

struct ModuleParams {
  ParamCount own;    // tensors named directly under the module ("attn.q_proj.weight" -> "attn.q_proj")
  ParamCount total;  // own and every descendant's
};

// One entry per module of `s`, indexed like s.modules. A tensor belongs to the module its name's parent
// path names, or to the nearest module of the summary above it when that one has no row (the root when
// none). A tied tensor is counted under each of its names, as the run records it. Empty when the run
// recorded no parameter at all (a trace without weights): the counts are unknown, not zero.
std::vector<ModuleParams> module_params(const RunSummary& s, const std::vector<ParamRecord>& params);

// The three cells every format prints: elements with children, own elements, bytes with children ("-"
// each when the run recorded no parameter).
struct ParamCells {
  std::string total, own, bytes;
};
ParamCells param_cells(const std::vector<ModuleParams>& params, std::size_t module);

// "1.06 M" elements: the count for people, three significant digits.
std::string param_count_text(std::int64_t elements);

}  // namespace flopscope
