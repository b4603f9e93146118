// safetensors: u64 little-endian header length N, N bytes of JSON ({name: {dtype, shape, data_offsets}},
// optional "__metadata__"), then the byte buffer the offsets point into. Sharded checkpoints add a
// model.safetensors.index.json whose "weight_map" names the shard of every tensor.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "analyzer/weights/weights.h"

namespace flopscope {

// Validates the whole header against the buffer before anything is read: header length inside the file,
// a JSON object, known dtypes, non-negative shapes, offsets inside the buffer, sorted without overlap or
// gap, and each tensor's byte range equal to numel x element size. Tensors come back in offset order with
// `storage` pointing into `bytes`. Errors are Corrupt, prefixed with `name`.
Status parse_safetensors(std::span<const std::uint8_t> bytes, const std::string& name,
                         std::vector<TensorLocation>* tensors);

StatusOr<WeightsSource> open_safetensors(const std::string& path);

// An index file: every shard it names is mapped and parsed; names listed but absent go to `missing`.
StatusOr<WeightsSource> open_safetensors_index(const std::string& path);

}  // namespace flopscope
