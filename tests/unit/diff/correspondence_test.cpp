// Module identity across versions: the evidence-scored matching (correspondence.h) and the verdicts built on
// it, on small runs made in memory: a class rename, prune-then-fine-tune, twins that cannot be told apart, a
// wrapper level removed through --map, a tensor that moved, and the assignment solver under them.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "analyzer/diff/align.h"
#include "analyzer/diff/assignment.h"
#include "analyzer/diff/diff.h"
#include "analyzer/diff/gates.h"
#include "analyzer/weights/tensor_similarity.h"
#include "db/model/sha256.h"

namespace flopscope {
namespace {

TEST(Assignment, TakesTheBestTotalNotTheGreedyPair) {
  // Greedy takes (0,0)=10 and then (1,1)=1; the optimum is (0,1)+(1,0) = 9+9.
  const std::vector<std::vector<double>> s = {{10, 9}, {9, 1}};
  Assignment a = solve_assignment(s, 2);
  EXPECT_EQ(a.b_of_a, (std::vector<int>{1, 0}));
  EXPECT_DOUBLE_EQ(a.total, 18);
}

TEST(Assignment, LeavesItemsUnmatchedAndHonoursForcing) {
  const std::vector<std::vector<double>> s = {{5, kForbidden}, {4, kForbidden}, {kForbidden, kForbidden}};
  Assignment a = solve_assignment(s, 2);
  EXPECT_EQ(a.b_of_a, (std::vector<int>{0, -1, -1}));
  EXPECT_EQ(a.a_of_b, (std::vector<int>{0, -1}));
  Assignment forced = solve_assignment(s, 2, {-1, 0, 0});
  EXPECT_EQ(forced.b_of_a, (std::vector<int>{-1, 0, -1}));
  EXPECT_DOUBLE_EQ(forced.total, 4);
  Assignment impossible = solve_assignment(s, 2, {0, 0, +1});
  EXPECT_TRUE(std::isinf(impossible.total) && impossible.total < 0);
}

// A run built from a list of modules (path, type) with one linear op each per iteration and weights whose
// values are given by a seed; `noise` perturbs every value relatively (fine-tuning).
struct Spec {
  std::string path, type;
  int seed = -1;  // -1: no parameters
  double flops = 1e6;
};

ParamRecord tensor(const std::string& name, int seed, double noise, int noise_seed, std::int64_t n = 256) {
  std::mt19937 gen(static_cast<unsigned>(seed));
  std::mt19937 jitter(static_cast<unsigned>(noise_seed));
  std::normal_distribution<double> normal(0, 0.1), unit(0, 1);
  ParamRecord p;
  p.name = name;
  p.dtype = "float32";
  p.shape = {16, n / 16};
  p.numel = n;
  p.bytes = n * 4;
  SketchBuilder sk;
  std::string bytes;
  double l2 = 0, max_abs = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    double x = normal(gen);
    x *= 1 + noise * unit(jitter);
    const auto f = static_cast<float>(x);
    bytes.append(reinterpret_cast<const char*>(&f), sizeof f);
    sk.add(f);
    l2 += x * x;
    max_abs = std::max(max_abs, std::fabs(x));
  }
  p.l2 = std::sqrt(l2);
  p.max_abs = max_abs;
  p.nonzero_fraction = 1;
  p.sha256 = sha256_hex(bytes);
  p.sketch = sk.buckets;
  p.sum = sk.sum;
  return p;
}

RunData run_of(const std::vector<Spec>& specs, double noise = 0, int noise_seed = 1) {
  RunData run;
  run.info.iterations = 4;
  std::map<std::string, Id> ids;
  auto add = [&](const std::string& path, const std::string& type) {
    ModuleRecord m;
    m.id = static_cast<Id>(run.modules.size());
    auto dot = path.rfind('.');
    m.parent_id = path.empty() ? kNoId : ids.at(dot == std::string::npos ? "" : path.substr(0, dot));
    m.path = path;
    m.type = type;
    ids[path] = m.id;
    run.modules.push_back(m);
    return m.id;
  };
  add("", "Net");
  Id next_op = 0;
  int k = 0;
  for (const auto& s : specs) {
    const Id id = add(s.path, s.type);
    if (s.seed >= 0) {
      ParamRecord p = tensor(s.path + ".weight", s.seed, noise, noise_seed + 100 * k++);
      p.id = static_cast<Id>(run.params.size());
      p.module_id = id;
      run.params.push_back(std::move(p));
    }
  }
  for (int it = 0; it < 4; ++it) {
    for (std::size_t i = 0; i < specs.size(); ++i) {
      if (specs[i].seed < 0) continue;  // containers and wrappers: no op of their own
      OpRecord r;
      r.id = next_op++;
      r.iteration = it;
      r.sequence = r.id;
      r.name = "aten::linear";
      r.module_id = ids.at(specs[i].path);
      r.duration_ns = 1000;
      r.start_ns = r.id * 10000;
      r.flops = specs[i].flops;
      r.flops_source = FlopsSource::kFormula;
      run.ops.push_back(r);
    }
  }
  return run;
}

std::map<std::string, std::string> verdicts(const RunDiff& d) {
  std::map<std::string, std::string> out;
  for (const auto& m : d.modules) out[m.path] = to_string(m.verdict);
  return out;
}

std::vector<Spec> experts(const std::vector<int>& seeds, const std::string& type = "Expert",
                          const std::string& container = "experts") {
  std::vector<Spec> s = {{container, "ModuleList"}};
  for (std::size_t i = 0; i < seeds.size(); ++i)
    s.push_back({container + "." + std::to_string(i), type, seeds[i]});
  return s;
}

// B's alignment renames: the longest key that is a whole-component prefix wins, the first of equal keys.
TEST(SidePaths, RenamesTheLongestWholeComponentPrefix) {
  SidePaths p;
  p.set_renames({{"layers", "blocks"},
                 {"layers.1", "blocks.0"},
                 {"layers.1.attn", "blocks.0.mix"},
                 {"layers.1", "ignored"},
                 {"head", "lm_head"}});
  EXPECT_EQ(p("layers.1.attn.q"), "blocks.0.mix.q");
  EXPECT_EQ(p("layers.1.mlp"), "blocks.0.mlp");
  EXPECT_EQ(p("layers.1"), "blocks.0");
  EXPECT_EQ(p("layers.10"), "blocks.10");  // "layers.1" is no prefix of "layers.10"
  EXPECT_EQ(p("layers"), "blocks");
  EXPECT_EQ(p("headless"), "headless");
  EXPECT_EQ(p(""), "");
  EXPECT_EQ(p.renames().size(), 5u);
}

TEST(Correspondence, ClassRenameAloneIsChangedNeverVanished) {
  RunData a = run_of(experts({1, 2, 3}, "BlockA"));
  RunData b = run_of(experts({1, 2, 3}, "BlockB"));
  RunDiff d = diff_runs(a, b);
  for (const char* p : {"experts.0", "experts.1", "experts.2"}) {
    EXPECT_EQ(verdicts(d)[p], "CHANGED") << p;
  }
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kVanished)], 0);
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kNew)], 0);
  GateOptions g;
  g.expect_vanished = {"experts.1"};
  EXPECT_FALSE(evaluate_gates(d, g)[0].passed);
}

TEST(Correspondence, PruneThenFineTuneBlamesTheExpertThatWasRemoved) {
  RunData a = run_of(experts({1, 2, 3, 4}));
  RunData b = run_of(experts({1, 3, 4}), 1e-3);  // expert 1 pruned, the rest fine-tuned
  RunDiff d = diff_runs(a, b);
  auto v = verdicts(d);
  EXPECT_EQ(v["experts.1"], "VANISHED");
  for (const char* p : {"experts.0", "experts.2", "experts.3"}) EXPECT_EQ(v[p], "CHANGED") << p;
  for (const auto& m : d.modules) {
    if (m.path == "experts.3") {
      EXPECT_EQ(m.path_b, "experts.2");
    }
    if (m.path == "experts.2") {
      ASSERT_TRUE(m.match.has_value());
      EXPECT_GT(m.match->evidence.weights, 5.9);
      EXPECT_GE(m.match->margin, kAmbiguityMargin);
    }
  }
  GateOptions g;
  g.expect_vanished = {"experts.1*", "experts.3*"};
  auto gates = evaluate_gates(d, g);
  EXPECT_TRUE(gates[0].passed) << gates[0].message;
  EXPECT_FALSE(gates[1].passed) << gates[1].message;
  EXPECT_FALSE(gates[1].error);
}

TEST(Correspondence, ALongListPrunedThenFineTunedIsStillPairedByItsWeights) {
  // 150 experts, the 40th pruned, the rest fine-tuned: above the siblings whose runner-ups are sought, the
  // assignment still weighs every pair (no pair shares name and content once the indices shift).
  std::vector<int> seeds_a, seeds_b;
  for (int i = 0; i < 150; ++i) {
    seeds_a.push_back(1000 + i);
    if (i != 40) seeds_b.push_back(1000 + i);
  }
  RunDiff d = diff_runs(run_of(experts(seeds_a)), run_of(experts(seeds_b), 1e-3));
  auto v = verdicts(d);
  EXPECT_EQ(v["experts.40"], "VANISHED");
  EXPECT_EQ(v["experts.149"], "CHANGED");
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kVanished)], 1);
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kNew)], 0);
}

TEST(Correspondence, TwinsThatCannotBeToldApartAreAmbiguousAndTheGateErrs) {
  RunData a = run_of(experts({1, 2, 2, 4}));     // experts 1 and 2 are exact copies
  RunData b = run_of(experts({1, 2, 4}), 1e-3);  // one of them removed, the rest fine-tuned
  RunDiff d = diff_runs(a, b);
  auto v = verdicts(d);
  EXPECT_EQ(v["experts.1"], "AMBIGUOUS");
  EXPECT_EQ(v["experts.2"], "AMBIGUOUS");
  EXPECT_EQ(v["experts.3"], "CHANGED");
  EXPECT_EQ(v["experts.0"], "CHANGED");
  ASSERT_FALSE(d.ambiguous_groups.empty());
  GateOptions g;
  g.expect_vanished = {"experts.2"};
  auto gates = evaluate_gates(d, g);
  EXPECT_TRUE(gates[0].error);
  EXPECT_NE(gates[0].message.find("--map-b"), std::string::npos) << gates[0].message;
  // The map the message proposes settles it: B's experts.1 declared to be A's experts.2.
  DiffOptions o;
  o.maps_b.push_back(*parse_path_map("^experts\\.2(\\.|$)=experts.3$1"));
  o.maps_b.push_back(*parse_path_map("^experts\\.1(\\.|$)=experts.2$1"));
  RunDiff settled = diff_runs(a, b, o);
  auto s = verdicts(settled);
  EXPECT_EQ(s["experts.1"], "VANISHED");
  EXPECT_EQ(s["experts.2"], "CHANGED");
  EXPECT_TRUE(settled.ambiguous_groups.empty());
  EXPECT_TRUE(evaluate_gates(settled, g)[0].error == false);
}

TEST(Correspondence, SelfDiffWithTwinsIsNotAmbiguous) {
  RunData a = run_of(experts({1, 2, 2, 4}));
  RunDiff d = diff_runs(a, a);
  EXPECT_TRUE(d.ambiguous_groups.empty());
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kUnchanged)], static_cast<int>(d.modules.size()));
}

TEST(Correspondence, WrapperLevelRemovedThroughMapIsUnwrapped) {
  std::vector<Spec> wrapped = {{"encoder", "Encoder"}, {"encoder.layer", "ModuleList"}};
  for (int i = 0; i < 3; ++i) wrapped.push_back({"encoder.layer." + std::to_string(i), "Block", 10 + i});
  RunData a = run_of(wrapped);
  RunData b = run_of(experts({10, 11, 12}, "Block", "blocks"));
  DiffOptions o;
  o.maps.push_back(*parse_path_map("encoder\\.layer\\.(\\d+)=blocks.$1"));
  RunDiff d = diff_runs(a, b, o);
  auto v = verdicts(d);
  EXPECT_EQ(v["encoder"], "UNWRAPPED");
  EXPECT_EQ(v["encoder.layer"], "UNWRAPPED");
  EXPECT_EQ(v["blocks"], "WRAPPED");
  for (const char* p : {"blocks.0", "blocks.1", "blocks.2"}) EXPECT_EQ(v[p], "UNCHANGED") << p;
  GateOptions g;
  g.expect_vanished = {"encoder"};
  EXPECT_FALSE(evaluate_gates(d, g)[0].passed);
  EXPECT_EQ(d.sentence.text().find("VANISHED"), std::string::npos) << d.sentence.text();
}

TEST(Correspondence, TensorUnderAnotherNameMovedNotErased) {
  RunData a = run_of({{"proj", "Linear", 7}, {"head", "Linear", 8}});
  RunData b = run_of({{"projection", "Linear", 7}, {"head", "Linear", 8}});
  DiffOptions no_align;
  no_align.align_containers = false;
  RunDiff d = diff_runs(a, b, no_align);
  const ParamDiff* moved = nullptr;
  for (const auto& p : d.params) {
    if (p.name == "proj.weight") moved = &p;
  }
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->moved_to, "projection.weight");
  EXPECT_EQ(moved->relation, ContentRelation::kExact);
  for (const auto& m : d.modules) {
    if (m.path == "proj") {
      EXPECT_EQ(m.weights_b.state, WeightState::kMoved);
    }
  }
  // With the matching on, the renamed module is paired by its weights and work: MOVED, nothing vanished.
  RunDiff aligned = diff_runs(a, b);
  EXPECT_EQ(verdicts(aligned)["proj"], "MOVED");
}

}  // namespace
}  // namespace flopscope
