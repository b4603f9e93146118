// Fused ops that stand for several submodules: the ops they run inside are given to the submodules they
// belong to, so that each submodule shows its own cost (the summary moves a nested op's FLOPs, bytes and
// time from the fused op's module to its own). Known today: nn.TransformerEncoderLayer's fast path,
// aten::_transformer_encoder_layer_fwd, which runs self_attn, linear1, linear2, norm1 and norm2 in one call.
#pragma once

#include <cstdint>

#include "db/model/run_data.h"

namespace flopscope {

struct FusedSplit {
  std::int64_t fused_ops = 0;    // fused calls whose inner ops were given to submodules
  std::int64_t unsplit_ops = 0;  // fused calls whose inner ops did not follow the known order: left whole
};

// Rewrites the module of the ops nested in each known fused op; a call whose inner ops do not follow the
// expected order (another torch version) is left as it is and counted in `unsplit_ops`.
FusedSplit split_fused_ops(RunData& run);

}  // namespace flopscope
