// The FLOPs registry: op name + argument metadata -> FLOPs, MACs and minimum bytes moved. One file per op
// family registers its formulas; every capture path (LibTorch collector, trace importers) calls evaluate().
// Conventions: docs/flops.md.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "db/model/records.h"

namespace flopscope {

struct FlopsResult {
  bool known = false;  // false: no formula for this op (FLOPs unknown, never silently zero)
  double flops = 0;
  double macs = 0;
  double bytes_read = 0;
  double bytes_written = 0;
  bool estimate = false;      // true when the formula had to assume something (see note)
  bool invalid_args = false;  // the recorded shapes are impossible (negative, absurdly large): a data error
  std::string_view note;      // static text: which formula, or what was assumed
};

using FlopsFormula = FlopsResult (*)(std::span<const OpArg> args);

class FlopsRegistry {
 public:
  // The registry with every built-in family registered.
  static const FlopsRegistry& builtin();

  // Registers a formula under a full op name, e.g. "aten::linear".
  void add(std::string_view op_name, FlopsFormula formula);
  bool has(std::string_view op_name) const;
  // Unknown op: known = false, empty note. A registered op whose arguments do not fit its formula (shapes
  // not recorded, inconsistent shapes): known = false with a note saying so. A known op whose tensors lack
  // a dtype is marked an estimate.
  FlopsResult evaluate(std::string_view op_name, std::span<const OpArg> args) const;
  std::size_t size() const { return formulas_.size(); }
  // Every registered op name, sorted (for coverage listings).
  std::vector<std::string> names() const;

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, FlopsFormula, Hash, std::equal_to<>> formulas_;
};

// Each family file defines one of these; builtin() calls them all.
void register_matmul_family(FlopsRegistry& r);
void register_conv_family(FlopsRegistry& r);
void register_attention_family(FlopsRegistry& r);
void register_normalization_family(FlopsRegistry& r);
void register_softmax_family(FlopsRegistry& r);
void register_activation_family(FlopsRegistry& r);
void register_elementwise_family(FlopsRegistry& r);
void register_reduction_family(FlopsRegistry& r);
void register_pooling_family(FlopsRegistry& r);
void register_data_movement_family(FlopsRegistry& r);

}  // namespace flopscope
