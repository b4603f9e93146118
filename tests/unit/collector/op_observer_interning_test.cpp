// The op observer interns op names and argument lists per thread (a key of each op's argument kinds, dtypes,
// shapes and scalar values), and with shape reuse records them only in the first call of each request. Every
// record must equal the one the exact path builds anew for every op: same names, arguments, modules, parents,
// depths, iterations and order, on models whose requests change shapes between iterations.
#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <torch/csrc/jit/python/update_graph_executor_opt.h>
#include <torch/script.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "collector/torch/op_observer.h"
#include "collector/torch/torch_profiler.h"

namespace flopscope {
namespace {

using Requests = std::vector<std::vector<c10::IValue>>;

enum class Path { kExact, kInterned, kReused };

// Three passes over the requests, as profile_torchscript runs them (a call is run again when request_ends
// says so). `reused`: calls whose argument lists were reused.
std::vector<OpRecord> observe(torch::jit::Module m, const ModuleTree& tree, const Requests& requests,
                              bool instances, Path path, std::int64_t* reused = nullptr) {
  m.eval();
  ModuleInstances by_instance;
  for (const auto& nm : m.named_modules())
    by_instance.emplace(static_cast<const void*>(nm.value._ivalue().get()), tree.find(nm.name));
  const bool saved = torch::jit::getGraphExecutorOptimize();
  torch::jit::setGraphExecutorOptimize(!instances);  // as profile_torchscript runs each attribution
  torch::NoGradGuard no_grad;
  std::vector<OpRecord> ops;
  {
    OpObserver observer(tree, false, instances ? &by_instance : nullptr, path == Path::kExact);
    observer.set_shape_reuse(path == Path::kReused);
    int iteration = 0;
    for (int pass = 0; pass < 3; ++pass) {
      for (const auto& r : requests) {
        c10::IValue out;
        do {
          observer.set_iteration(iteration);
          observer.request_begins(r);
          out = m.forward(r);
        } while (!observer.request_ends(out));
        ++iteration;
      }
    }
    ops = observer.finish();
    if (reused != nullptr) *reused = observer.reused_calls();
  }
  torch::jit::setGraphExecutorOptimize(saved);
  return ops;
}

std::vector<OpRecord> observe(const std::string& path, const Requests& requests, bool instances, Path how,
                              std::int64_t* reused = nullptr) {
  auto run = inspect_torchscript(path);
  EXPECT_TRUE(run.ok()) << run.status().message();
  if (!run.ok()) return {};
  ModuleTree tree(run->modules);
  return observe(torch::jit::load(path, torch::kCPU), tree, requests, instances, how, reused);
}

void expect_equal(const std::vector<OpRecord>& interned, const std::vector<OpRecord>& exact,
                  const std::string& path) {
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

void expect_same(const std::string& path, const Requests& requests, bool instances) {
  torch::manual_seed(0);
  std::vector<OpRecord> exact = observe(path, requests, instances, Path::kExact);
  expect_equal(observe(path, requests, instances, Path::kInterned), exact, path);
  // Shape reuse: each request's first call recorded, its two later calls reused.
  std::int64_t reused = 0;
  expect_equal(observe(path, requests, instances, Path::kReused, &reused), exact, path + " (shape reuse)");
  EXPECT_EQ(reused, 2 * static_cast<std::int64_t>(requests.size())) << path;
}

std::string sample(const std::string& name) {
  return std::string(COLLECTOR_SAMPLES_DIR) + "/" + name;
}

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

TEST(OpObserverInterning, TwoIntraOpThreadsMatchExactPath) {
  // Kernels split over the intra-op pool: the records, and shape reuse, must not depend on it.
  const int saved = at::get_num_threads();
  at::set_num_threads(2);
  expect_same(sample("small-cnn.pt"), {{torch::randn({1, 3, 64, 64})}, {torch::randn({2, 3, 32, 32})}}, true);
  expect_same(sample("small-ops.pt"), {{torch::randn({1, 4, 16})}, {torch::randn({3, 5, 16})}}, true);
  at::set_num_threads(saved);
}

// A model defined in TorchScript source (one module, `forward` as given), with an int attribute `n`.
torch::jit::Module scripted(const std::string& forward) {
  torch::jit::Module m("m");
  m.register_attribute("n", c10::IntType::get(), c10::IValue(std::int64_t{1}));
  m.define(forward);
  return m;
}

ModuleTree root_only() {
  ModuleRecord root;
  root.id = 0;
  return ModuleTree({root});
}

// The first argument's shape of every outermost op named `name`, in order.
std::vector<std::vector<std::int64_t>> shapes_of(const std::vector<OpRecord>& ops, const std::string& name) {
  std::vector<std::vector<std::int64_t>> out;
  for (const OpRecord& op : ops) {
    if (op.name == name && op.depth == 0 && !op.args.empty()) out.push_back(op.args[0].shape);
  }
  return out;
}

TEST(OpObserverShapeReuse, SameTensorResizedBetweenCallsIsRecordedAgain) {
  // One request whose input tensor keeps its identity but changes shape in place between calls.
  torch::jit::Module m = scripted("def forward(self, x):\n  return (x * 2.0).sum(1)\n");
  at::Tensor x = torch::randn({2, 5});
  ModuleTree tree = root_only();
  torch::NoGradGuard no_grad;
  OpObserver observer(tree, false, nullptr);
  observer.set_shape_reuse(true);
  const std::vector<std::vector<std::int64_t>> sizes = {{2, 5}, {2, 5}, {3, 7}, {3, 7}, {4, 1}};
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    if (x.sizes().vec() != sizes[i]) x.resize_(sizes[i]);
    std::vector<c10::IValue> inputs = {x};
    observer.set_iteration(static_cast<int>(i));
    observer.request_begins(inputs);
    c10::IValue out = m.forward(inputs);
    ASSERT_TRUE(observer.request_ends(out));
  }
  std::vector<OpRecord> ops = observer.finish();
  // Reused: the second and fourth calls (the shape their record saw). The key holds shapes, not only the
  // tensor's identity and version.
  EXPECT_EQ(observer.reused_calls(), 2);
  EXPECT_EQ(shapes_of(ops, "aten::mul"), sizes);
  EXPECT_EQ(shapes_of(ops, "aten::sum"), sizes);
}

TEST(OpObserverShapeReuse, OtherOpsInAReusedCallRunItAgainRecorded) {
  // The attribute decides the branch, so the second call runs other ops than the first with the same input.
  // The static check refuses reuse for such a model; forced on, the op-sequence check must catch it: the
  // call is dropped and run again recorded, and the request is never reused after.
  torch::jit::Module m = scripted(
      "def forward(self, x):\n"
      "  self.n = self.n + 1\n"
      "  if self.n > 2:\n"
      "    return torch.sin(x).sum(0)\n"
      "  return torch.cos(x).sum(0)\n");
  EXPECT_TRUE(mutates_module_state(m));
  ModuleTree tree = root_only();
  torch::NoGradGuard no_grad;
  std::vector<c10::IValue> inputs = {torch::randn({3, 4})};
  OpObserver observer(tree, false, nullptr);
  observer.set_shape_reuse(true);
  std::vector<int> runs;
  for (int i = 0; i < 4; ++i) {
    int tries = 0;
    c10::IValue out;
    do {
      ++tries;
      observer.set_iteration(i);
      observer.request_begins(inputs);
      out = m.forward(inputs);
    } while (!observer.request_ends(out));
    runs.push_back(tries);
  }
  std::vector<OpRecord> ops = observer.finish();
  EXPECT_EQ(runs, (std::vector<int>{1, 2, 1, 1}));
  EXPECT_EQ(observer.reused_calls(), 0);
  EXPECT_EQ(observer.repeated_calls(), 1);
  std::vector<std::string> names;
  for (const OpRecord& op : ops)
    if (op.depth == 0) names.push_back(std::to_string(op.iteration) + " " + op.name);
  EXPECT_EQ(names, (std::vector<std::string>{"0 aten::cos", "0 aten::sum", "1 aten::sin", "1 aten::sum",
                                             "2 aten::sin", "2 aten::sum", "3 aten::sin", "3 aten::sum"}));
  EXPECT_EQ(shapes_of(ops, "aten::sum"), (std::vector<std::vector<std::int64_t>>(4, {3, 4})));
}

TEST(OpObserverShapeReuse, ProfileRecordsEveryCallOfAModelWithState) {
  // Same op sequence every call, other shapes: only the static check can tell. profile must not reuse.
  torch::jit::Module m = scripted(
      "def forward(self, x):\n"
      "  self.n = self.n + 1\n"
      "  return x.repeat(self.n, 1).sum(0)\n");
  ASSERT_TRUE(mutates_module_state(m));
  const std::string path = ::testing::TempDir() + "/flopscope_stateful_model.pt";
  m.save(path);
  TorchProfileOptions o;
  o.model_path = path;
  auto spec = parse_input_spec("float32[2,3]");
  ASSERT_TRUE(spec.ok());
  o.inputs = {*spec};
  o.iterations = 4;
  o.warmup = 0;
  o.threads = 1;
  auto p = profile_torchscript(o);
  std::filesystem::remove(path);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(shapes_of(p->run.ops, "aten::sum"),
            (std::vector<std::vector<std::int64_t>>{{4, 3}, {6, 3}, {8, 3}, {10, 3}}));
  EXPECT_EQ(p->reused_calls, 0);
}

TEST(OpObserverShapeReuse, ProfileReusesShapesOfAStatelessModel) {
  TorchProfileOptions o;
  o.model_path = sample("small-ops.pt");
  auto spec = parse_input_spec("float32[1,4,16]");
  ASSERT_TRUE(spec.ok());
  o.inputs = {*spec};
  o.iterations = 4;
  o.warmup = 1;
  o.threads = 1;
  auto p = profile_torchscript(o);
  ASSERT_TRUE(p.ok()) << p.status().message();
  EXPECT_EQ(p->reused_calls, 3);  // the first measured call recorded
  EXPECT_EQ(p->run.ops.size() % 4, 0u);
}

TEST(OpObserverShapeReuse, SampleModelsKeepNoStateBetweenCalls) {
  // What lets profile reuse shapes on the benchmark models.
  for (const char* name : {"sonnet-mini-v1.pt", "small-cnn.pt", "small-ops.pt"})
    EXPECT_FALSE(mutates_module_state(torch::jit::load(sample(name), torch::kCPU))) << name;
}

}  // namespace
}  // namespace flopscope
