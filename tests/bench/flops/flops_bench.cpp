// Evaluates a realistic mix of op calls (one transformer block and one residual conv block as LibTorch
// records them, views and bookkeeping ops included) through FlopsRegistry::builtin(). The items/s counter
// is evaluations per second; the target is >= 5 million.
#include <benchmark/benchmark.h>

#include <string>
#include <utility>
#include <vector>

#include "analyzer/flops/registry.h"

namespace flopscope {
namespace {

OpArg T(std::vector<std::int64_t> shape, std::string dtype = "float32") {
  OpArg a;
  a.is_tensor = true;
  a.dtype = std::move(dtype);
  a.shape = std::move(shape);
  return a;
}

OpArg S(std::string value) {
  OpArg a;
  a.value = std::move(value);
  return a;
}

struct Call {
  std::string name;
  std::vector<OpArg> args;
};

std::vector<Call> mix() {
  auto x = T({1, 197, 768});
  return {
      {"aten::layer_norm", {x, S("[768]"), T({768}), T({768}), S("1e-06"), S("True")}},
      {"aten::native_layer_norm", {x, S("[768]"), T({768}), T({768}), S("1e-06")}},
      {"aten::linear", {x, T({2304, 768}), T({2304})}},
      {"aten::t", {T({2304, 768})}},
      {"aten::addmm", {T({2304}), T({197, 768}), T({768, 2304}), S("1"), S("1")}},
      {"aten::view", {T({1, 197, 2304}), S("[1, 197, 3, 12, 64]")}},
      {"aten::permute", {T({1, 197, 3, 12, 64}), S("[2, 0, 3, 1, 4]")}},
      {"aten::select", {T({3, 1, 12, 197, 64}), S("0"), S("0")}},
      {"aten::transpose", {T({1, 12, 197, 64}), S("-2"), S("-1")}},
      {"aten::matmul", {T({1, 12, 197, 64}), T({1, 12, 64, 197})}},
      {"aten::bmm", {T({12, 197, 64}), T({12, 64, 197})}},
      {"aten::mul", {T({1, 12, 197, 197}), S("0.125")}},
      {"aten::softmax", {T({1, 12, 197, 197}), S("-1"), S("")}},
      {"aten::_softmax", {T({1, 12, 197, 197}), S("-1"), S("False")}},
      {"aten::scaled_dot_product_attention",
       {T({1, 12, 197, 64}), T({1, 12, 197, 64}), T({1, 12, 197, 64}), S(""), S("0."), S("False"), S("")}},
      {"aten::reshape", {T({1, 197, 12, 64}), S("[1, 197, 768]")}},
      {"aten::add", {x, x, S("1")}},
      {"aten::gelu", {T({1, 197, 3072}), S("none")}},
      {"aten::dropout", {x, S("0.0"), S("False")}},
      {"aten::conv2d",
       {T({1, 64, 56, 56}), T({64, 64, 3, 3}), S(""), S("[1, 1]"), S("[1, 1]"), S("[1, 1]"), S("1")}},
      {"aten::_convolution",
       {T({1, 64, 56, 56}), T({64, 64, 3, 3}), S(""), S("[1, 1]"), S("[1, 1]"), S("[1, 1]"), S("False"),
        S("[0, 0]"), S("1"), S("False"), S("False"), S("True"), S("True")}},
      {"aten::batch_norm",
       {T({1, 64, 56, 56}), T({64}), T({64}), T({64}), T({64}), S("False"), S("0.1"), S("1e-05"), S("True")}},
      {"aten::relu_", {T({1, 64, 56, 56})}},
      {"aten::add_", {T({1, 64, 56, 56}), T({1, 64, 56, 56}), S("1")}},
      {"aten::max_pool2d",
       {T({1, 64, 112, 112}), S("[3, 3]"), S("[2, 2]"), S("[1, 1]"), S("[1, 1]"), S("False")}},
      {"aten::mean", {T({1, 2048, 7, 7}), S("[-1, -2]"), S("True"), S("")}},
      {"aten::embedding", {T({50257, 768}), T({1, 197}, "int64"), S("-1"), S("False"), S("False")}},
      {"aten::empty", {S("[0]"), S("6"), S(""), S("cpu"), S(""), S("")}},
      {"aten::copy_", {x, x, S("False")}},
      {"aten::cat", {T({1, 1, 768}), T({1, 196, 768}), S("1")}},
      {"myext::unknown_op", {x}},
  };
}

void BM_RegistryEvaluateMix(benchmark::State& state) {
  const auto& registry = FlopsRegistry::builtin();
  const auto calls = mix();
  double sink = 0;
  for (auto _ : state) {
    for (const auto& c : calls) {
      FlopsResult r = registry.evaluate(c.name, c.args);
      sink += r.flops;
    }
    benchmark::DoNotOptimize(sink);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(calls.size()));
}
BENCHMARK(BM_RegistryEvaluateMix);

// The lookup alone (name hashing), for comparison.
void BM_RegistryLookup(benchmark::State& state) {
  const auto& registry = FlopsRegistry::builtin();
  const auto calls = mix();
  std::int64_t found = 0;
  for (auto _ : state) {
    for (const auto& c : calls) found += registry.has(c.name) ? 1 : 0;
    benchmark::DoNotOptimize(found);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(calls.size()));
}
BENCHMARK(BM_RegistryLookup);

}  // namespace
}  // namespace flopscope

BENCHMARK_MAIN();
