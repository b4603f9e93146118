// Dead compute from discarded-op records: candidates under the enclosing module with their cost, and the
// diff's DORMANT for a module that runs only to be multiplied by zero.
#include "analyzer/activations/discarded.h"

#include <gtest/gtest.h>

#include "analyzer/activations/candidates.h"
#include "analyzer/diff/diff.h"

namespace flopscope {
namespace {

// Net: pre (Linear), block (x + alpha * f(x)) with block.f = Mlp(up, down); `alpha` owned by block.
// Per iteration: pre, f.up, f.down (with a nested addmm that carries its FLOPs), block's mul and add.
RunData rezero_run(int iterations, bool zero_alpha) {
  RunData r;
  r.modules = {{0, kNoId, "", "Net"},    {1, 0, "pre", "Linear"},        {2, 0, "block", "ReZero"},
               {3, 2, "block.f", "Mlp"}, {4, 3, "block.f.up", "Linear"}, {5, 3, "block.f.down", "Linear"}};
  Id next = 0;
  auto add = [&](int it, Id module, const char* name, double flops, std::int64_t ns, Id parent = kNoId) {
    OpRecord o;
    o.id = next++;
    o.iteration = it;
    o.sequence = o.id;
    o.name = name;
    o.module_id = module;
    o.parent_op_id = parent;
    o.depth = parent == kNoId ? 0 : 1;
    o.start_ns = o.id * 1000;
    o.duration_ns = ns;
    o.flops = flops;
    o.flops_source = flops > 0 ? FlopsSource::kFormula : FlopsSource::kNone;
    r.ops.push_back(o);
    return o.id;
  };
  for (int it = 0; it < iterations; ++it) {
    add(it, 1, "aten::linear", 100, 10);
    Id up = add(it, 4, "aten::linear", 0, 40);
    r.ops.back().flops_source = FlopsSource::kFormula;  // a formula that counts nothing itself
    add(it, 4, "aten::addmm", 400, 30, up);
    Id down = add(it, 5, "aten::linear", 400, 40);
    Id mul = add(it, 2, "aten::mul", 8, 5);
    add(it, 2, "aten::add", 8, 5);
    if (zero_alpha) {
      r.discarded.push_back({up, mul, "block.alpha"});
      r.discarded.push_back({down, mul, "block.alpha"});
      r.discarded.push_back({mul, mul, "block.alpha"});
    }
  }
  r.activations.push_back({});  // recorded with --activations
  return r;
}

TEST(Discarded, CandidateUnderTheEnclosingModuleWithTheDiscardedCost) {
  RunData r = rezero_run(3, true);
  RunSummary s = summarize(r);
  DiscardReport rep = find_discarded(r, s);
  ASSERT_EQ(rep.candidates.size(), 1u);
  const DiscardCandidate& c = rep.candidates[0];
  EXPECT_EQ(c.path, "block");
  EXPECT_EQ(c.type, "ReZero");
  EXPECT_EQ(c.zero_factor, "block.alpha");
  EXPECT_EQ(c.zeroing_op, "aten::mul");
  EXPECT_EQ(c.zeroing_module, "block");
  EXPECT_EQ(c.iterations, 3);
  EXPECT_DOUBLE_EQ(c.ops, 3);                // up, down, mul per iteration
  EXPECT_DOUBLE_EQ(c.flops, 400 + 400 + 8);  // up's FLOPs are its nested addmm's
  EXPECT_DOUBLE_EQ(c.time_p50_ns, 40 + 40 + 5);
  EXPECT_TRUE(c.flops_complete);
  EXPECT_DOUBLE_EQ(c.share_flops, 808.0 / 916.0);
  EXPECT_EQ(c.discarded_modules, std::vector<std::string>{"block.f"});
  ASSERT_EQ(rep.modules.size(), 3u);  // block.f and its two children, not block (its mul and add are kept)
  EXPECT_EQ(rep.modules[0].path, "block.f");
  EXPECT_EQ(rep.modules[0].zero_factor, "block.alpha");

  CandidateReport all = find_candidates(r, s);
  ASSERT_EQ(all.discarded.size(), 1u);
  EXPECT_EQ(all.discarded[0].path, "block");
}

TEST(Discarded, AContainerIsNotNamedForItsChildrensWork) {
  // block.f a Sequential: the removable modules are the ones that compute, as an eager trace names them.
  RunData r = rezero_run(2, true);
  r.modules[3].type = "Sequential";
  DiscardReport rep = find_discarded(r, summarize(r));
  ASSERT_EQ(rep.candidates.size(), 1u);
  EXPECT_EQ(rep.candidates[0].discarded_modules, (std::vector<std::string>{"block.f.up", "block.f.down"}));
}

TEST(Discarded, NothingWithoutRecords) {
  RunData r = rezero_run(2, false);
  RunSummary s = summarize(r);
  DiscardReport rep = find_discarded(r, s);
  EXPECT_TRUE(rep.candidates.empty());
  EXPECT_TRUE(rep.modules.empty());
}

TEST(Discarded, PartlyDiscardedModuleIsNotRemovable) {
  // Only the second iteration discards f's work: block.f is not dormant, the candidate says 1 of 2.
  RunData r = rezero_run(2, true);
  r.discarded.erase(r.discarded.begin(), r.discarded.begin() + 3);
  RunSummary s = summarize(r);
  DiscardReport rep = find_discarded(r, s);
  ASSERT_EQ(rep.candidates.size(), 1u);
  EXPECT_EQ(rep.candidates[0].iterations, 1);
  EXPECT_DOUBLE_EQ(rep.candidates[0].flops, 808.0 / 2);
  EXPECT_TRUE(rep.candidates[0].discarded_modules.empty());
  EXPECT_TRUE(rep.modules.empty());
}

TEST(Discarded, DiffCallsAModuleThatRunsOnlyToBeZeroedDormant) {
  RunData a = rezero_run(3, false);
  RunData b = rezero_run(3, true);
  RunDiff d = diff_runs(a, b);
  auto verdict = [&](const std::string& path) {
    for (const auto& m : d.modules)
      if (m.path == path) return m;
    ADD_FAILURE() << path;
    return ModuleDiff{};
  };
  ModuleDiff f = verdict("block.f");
  EXPECT_EQ(f.verdict, Verdict::kDormant);
  EXPECT_EQ(f.discarded_by, "block.alpha");
  EXPECT_NE(f.verdict_text.find(
                "DORMANT: its result is multiplied by zero (block.alpha = 0) but compute still runs"),
            std::string::npos)
      << f.verdict_text;
  EXPECT_EQ(verdict("block.f.up").verdict, Verdict::kDormant);
  EXPECT_EQ(verdict("pre").verdict, Verdict::kUnchanged);
  EXPECT_EQ(verdict("block").verdict, Verdict::kUnchanged);  // its mul and add still run and count
  EXPECT_EQ(d.modules_by_verdict[static_cast<int>(Verdict::kDormant)], 3);
  // The other way round nothing is discarded in B.
  RunDiff back = diff_runs(b, a);
  EXPECT_EQ(back.modules_by_verdict[static_cast<int>(Verdict::kDormant)], 0);
}

}  // namespace
}  // namespace flopscope
