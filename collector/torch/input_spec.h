// Input specs for `flopscope profile --input`: DTYPE[D0,D1,...] with an optional value range for integer
// inputs, e.g. float32[1,3,224,224], int64[1,4096], int64[1,4096]@0:32000.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "db/model/status.h"

namespace flopscope {

struct InputSpec {
  std::string dtype;  // normalised name, e.g. float32
  std::vector<std::int64_t> shape;
  // Integer inputs are drawn uniformly from [low, high); floating inputs from N(0, 1).
  std::int64_t low = 0;
  std::int64_t high = 100;
  std::string text;  // as the user wrote it

  std::string to_string() const;
};

// Errors name the spec and say what a valid one looks like.
StatusOr<InputSpec> parse_input_spec(const std::string& text);
StatusOr<std::vector<InputSpec>> parse_input_specs(const std::vector<std::string>& texts);

// Bytes the random inputs of these specs occupy, or an error naming the spec whose size overflows. Checked
// against the memory available before anything is allocated (`float32[2,2147483648]` is 16 GiB).
StatusOr<std::uint64_t> input_bytes(const std::vector<InputSpec>& specs);

// Refuses inputs larger than the memory the system has available now (MemAvailable), in one line.
Status check_inputs_fit_memory(const std::vector<InputSpec>& specs);

}  // namespace flopscope
