// The text form of an op's argument list: half of an op's stable identity (module path + name + this), by
// which reports group ops and diff matches them across runs. Stored in the op aggregates (schema 007).
#pragma once

#include <string>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

// Tensors as dtype[shape], scalars as their value, unknowns as "_", e.g. "float32[1,64,128], 1, _".
std::string signature_of(const std::vector<OpArg>& args);

}  // namespace flopscope
