// The op observer interns op names and argument lists per thread (a key of each op's argument kinds, dtypes,
// shapes and scalar values). Every record must equal the one the exact path builds anew for every op: same
// names, arguments, modules, parents, depths, iterations and order, on models whose requests change shapes
// between iterations.
#include <gtest/gtest.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/script.h>

#include <string>
#include <vector>

#include "collector/torch/op_observer.h"
#include "collector/torch/torch_profiler.h"

namespace flopscope {
namespace {

using Requests = std::vector<std::vector<c10::IValue>>;

std::vector<OpRecord> observe(const std::string& path, const Requests& requests, bool instances, bool exact) {
  auto run = inspect_torchscript(path);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return {};
  ModuleTree tree(run->modules);
  torch::jit::Module m = torch::jit::load(path, torch::kCPU);
  m.eval();
  ModuleInstances by_instance;
  for (const auto& nm : m.named_modules())
    by_instance.emplace(static_cast<const void*>(nm.value._ivalue().get()), tree.find(nm.name));
  const bool saved = torch::jit::getGraphExecutorOptimize();
  torch::jit::setGraphExecutorOptimize(!instances);  // as profile_torchscript runs each attribution
  torch::NoGradGuard no_grad;
  std::vector<OpRecord> ops;
  {
    OpObserver observer(tree, false, instances ? &by_instance : nullptr, exact);
    int iteration = 0;
    for (int pass = 0; pass < 2; ++pass) {
      for (const auto& r : requests) {
        observer.set_iteration(iteration++);
        m.forward(r);
      }
    }
    ops = observer.finish();
  }
  torch::jit::setGraphExecutorOptimize(saved);
  return ops;
}

void expect_same(const std::string& path, const Requests& requests, bool instances) {
  torch::manual_seed(0);
  std::vector<OpRecord> interned = observe(path, requests, instances, false);
  std::vector<OpRecord> exact = observe(path, requests, instances, true);
  ASSERT_EQ(interned.size(), exact.size()) << path;
  ASSERT_GT(exact.size(), 100u) << path;
  std::size_t with_args = 0;
  for (std::size_t i = 0; i < exact.size(); ++i) {
    const OpRecord& a = interned[i];
    const OpRecord& b = exact[i];
    ASSERT_EQ(a.name, b.name) << path << " op " << i;
    EXPECT_EQ(a.id, b.id);
    EXPECT_EQ(a.iteration, b.iteration);
    EXPECT_EQ(a.sequence, b.sequence);
    EXPECT_EQ(a.thread, b.thread);
    EXPECT_EQ(a.module_id, b.module_id) << path << " op " << i << " " << a.name;
    EXPECT_EQ(a.parent_op_id, b.parent_op_id);
    EXPECT_EQ(a.depth, b.depth);
    ASSERT_EQ(a.args, b.args) << path << " op " << i << " " << a.name;
    with_args += !b.args.empty();
  }
  EXPECT_GT(with_args, exact.size() / 2) << path;
}

std::string sample(const std::string& name) { return std::string(COLLECTOR_SAMPLES_DIR) + "/" + name; }

TEST(OpObserverInterning, TransformerWithTwoSequenceLengthsMatchesExactPath) {
  // Alternating lengths: the same ops see other shapes (and other scalar sizes) every other iteration.
  Requests requests = {{torch::randint(0, 512, {1, 48}, torch::kLong)},
                       {torch::randint(0, 512, {1, 17}, torch::kLong)}};
  expect_same(sample("sonnet-mini-v1.pt"), requests, true);
  expect_same(sample("sonnet-mini-v1.pt"), requests, false);  // hierarchy attribution, optimized graph
}

TEST(OpObserverInterning, ConvNetMatchesExactPath) {
  Requests requests = {{torch::randn({1, 3, 64, 64})}, {torch::randn({2, 3, 32, 32})}};
  expect_same(sample("small-cnn.pt"), requests, true);
}

TEST(OpObserverInterning, SmallOpModelMatchesExactPath) {
  Requests requests = {{torch::randn({1, 4, 16})}, {torch::randn({3, 5, 16})}};
  expect_same(sample("small-ops.pt"), requests, true);
}

}  // namespace
}  // namespace flopscope
