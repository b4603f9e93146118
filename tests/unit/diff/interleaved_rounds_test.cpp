// diff --rounds: the rounds of one model joined into one run, iterations in order, ids fresh, modules
// matched by path.
#include "analyzer/diff/interleaved_rounds.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "analyzer/diff/between_runs.h"

namespace flopscope {
namespace {

// A model "" -> "fc" with one op per iteration; module ids start at `first_module_id`.
RunData round(int iterations, Id first_module_id, std::int64_t op_ns) {
  RunData r;
  r.info.iterations = iterations;
  r.modules = {{first_module_id, kNoId, "", "Net"}, {first_module_id + 1, first_module_id, "fc", "Linear"}};
  for (int i = 0; i < iterations; ++i) {
    OpRecord op;
    op.id = i;
    op.iteration = i;
    op.sequence = i;
    op.name = "aten::linear";
    op.start_ns = i * 1000;
    op.duration_ns = op_ns;
    op.module_id = first_module_id + 1;
    r.ops.push_back(op);
    OpRecord child = op;
    child.id = 100 + i;
    child.name = "aten::addmm";
    child.parent_op_id = i;
    child.depth = 1;
    r.ops.push_back(child);
  }
  r.discarded.push_back({1, 1, "constant"});
  r.quality.emplace_back(QualityCode::ops_without_flops_formula, 2, "aten::x");
  return r;
}

TEST(InterleavedRounds, RoundsJoinIntoOneRunWithFreshIdsAndIterations) {
  RunData a = round(2, 0, 500);
  append_round(a, round(3, 7, 900));  // another load of the same model: other module ids
  EXPECT_EQ(a.info.iterations, 5);
  ASSERT_EQ(a.modules.size(), 2u);  // matched by path, none added
  ASSERT_EQ(a.ops.size(), 10u);
  // The second round's ops: iterations 2..4, the module of the first round, fresh ids, parents mapped.
  for (std::size_t k = 4; k < a.ops.size(); ++k) {
    const OpRecord& op = a.ops[k];
    EXPECT_GE(op.iteration, 2);
    EXPECT_LE(op.iteration, 4);
    EXPECT_EQ(op.module_id, 1);
    EXPECT_GE(op.start_ns, 1500);  // after the first round's last op ended
    if (op.depth == 1) {
      auto parent = std::find_if(a.ops.begin(), a.ops.end(),
                                 [&](const OpRecord& o) { return o.id == op.parent_op_id; });
      ASSERT_NE(parent, a.ops.end());
      EXPECT_EQ(parent->iteration, op.iteration);
      EXPECT_EQ(parent->name, "aten::linear");
    }
  }
  std::set<Id> ids;
  for (const auto& op : a.ops) ids.insert(op.id);
  EXPECT_EQ(ids.size(), a.ops.size());
  ASSERT_EQ(a.discarded.size(), 2u);
  EXPECT_NE(a.discarded[1].op_id, a.discarded[0].op_id);
  ASSERT_EQ(a.quality.size(), 1u);
  EXPECT_EQ(a.quality[0].count, 4);
}

// Each round is one sample of the time between runs: its iterations are a process of their own.
TEST(InterleavedRounds, EachRoundIsAProcessOfItsOwn) {
  RunData a = round(2, 0, 500);
  append_round(a, round(3, 7, 900));
  append_round(a, round(1, 7, 700));
  const std::vector<IterationProcess> expected{{0, 0}, {1, 0}, {2, 1}, {3, 1}, {4, 1}, {5, 2}};
  EXPECT_EQ(a.iteration_processes, expected);
  const RunProcesses p = run_processes(a);
  EXPECT_EQ(p.count, 3);
  EXPECT_EQ(p.of_iteration, (std::vector<int>{0, 0, 1, 1, 1, 2}));
}

TEST(InterleavedRounds, AModuleOnlyALaterRoundRanIsAdded) {
  RunData a = round(1, 0, 500);
  RunData b = round(1, 0, 500);
  b.modules.push_back({5, 0, "fc.extra", "Linear"});
  b.ops[0].module_id = 5;
  append_round(a, std::move(b));
  ASSERT_EQ(a.modules.size(), 3u);
  EXPECT_EQ(a.modules[2].path, "fc.extra");
  EXPECT_EQ(a.modules[2].parent_id, 0);
  EXPECT_EQ(a.ops[2].module_id, a.modules[2].id);
}

}  // namespace
}  // namespace flopscope
