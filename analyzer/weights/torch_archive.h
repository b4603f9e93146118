// PyTorch zip archives: torch.save (state dicts, pytorch_model.bin) and torch.jit.save (TorchScript .pt).
// Both hold <prefix>/data.pkl and one <prefix>/data/<key> record per storage. Tensors are found by
// walking the unpickled value: dict keys and module attributes give the dotted names.
#pragma once

#include <string>

#include "analyzer/weights/weights.h"

namespace flopscope {

StatusOr<WeightsSource> open_torch_archive(const std::string& path);

// The same from bytes already in memory (tests, fuzzing); the source holds no mapped file, so `bytes`
// must outlive it.
StatusOr<WeightsSource> parse_torch_archive(std::span<const std::uint8_t> bytes, const std::string& name);

}  // namespace flopscope
