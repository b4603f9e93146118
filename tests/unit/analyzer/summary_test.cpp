#include "analyzer/summary.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

OpRecord op(Id id, int iter, std::int64_t seq, const char* name, Id module, Id parent, std::int64_t dur,
            double flops, FlopsSource src) {
  OpRecord o;
  o.id = id;
  o.iteration = iter;
  o.sequence = seq;
  o.name = name;
  o.module_id = module;
  o.parent_op_id = parent;
  o.depth = parent == kNoId ? 0 : 1;
  o.duration_ns = dur;
  o.flops = flops;
  o.macs = flops / 2;
  o.bytes_read = 10;
  o.bytes_written = 5;
  o.flops_source = src;
  return o;
}

RunData two_iteration_run() {
  RunData r;
  r.modules = {{0, kNoId, "", "Net"}, {1, 0, "a", "Linear"}, {2, 0, "b", "Block"}, {3, 2, "b.c", "Linear"}};
  Id id = 0;
  for (int it = 0; it < 2; ++it) {
    std::int64_t seq = it * 100;
    // a: linear (counted) with a nested mm (nested, must not double count)
    Id lin = id++;
    r.ops.push_back(op(lin, it, seq++, "aten::linear", 1, kNoId, 100 + it * 10, 1000, FlopsSource::kFormula));
    r.ops.push_back(op(id++, it, seq++, "aten::mm", 1, lin, 80, 999, FlopsSource::kNested));
    // b.c: linear; b itself: an op without a formula
    r.ops.push_back(op(id++, it, seq++, "aten::linear", 3, kNoId, 200, 3000, FlopsSource::kFormula));
    r.ops.push_back(op(id++, it, seq++, "aten::softmax", 2, kNoId, 50, 0, FlopsSource::kNone));
  }
  return r;
}

TEST(Summary, RollsUpSelfAndInclusivePerIteration) {
  RunSummary s = summarize(two_iteration_run());
  ASSERT_EQ(s.modules.size(), 4u);
  EXPECT_EQ(s.iterations, 2);
  EXPECT_EQ(s.modules[0].path, "");
  EXPECT_EQ(s.modules[1].path, "a");
  EXPECT_EQ(s.modules[2].path, "b");
  EXPECT_EQ(s.modules[3].path, "b.c");    // pre-order
  EXPECT_DOUBLE_EQ(s.total.flops, 4000);  // per iteration, nested mm excluded
  int b = s.find("b");
  EXPECT_DOUBLE_EQ(s.modules[b].self.flops, 0);
  EXPECT_DOUBLE_EQ(s.modules[b].inclusive.flops, 3000);
  EXPECT_DOUBLE_EQ(s.modules[b].inclusive_time.p50, 250);
  EXPECT_DOUBLE_EQ(s.modules[s.find("a")].inclusive_time.min, 100);
  EXPECT_DOUBLE_EQ(s.modules[s.find("a")].inclusive_time.max, 110);
  EXPECT_DOUBLE_EQ(s.iteration_time.p50, 355);
  EXPECT_DOUBLE_EQ(s.modules[b].share_flops, 0.75);
  EXPECT_DOUBLE_EQ(s.modules[b].calls, 1);
  EXPECT_DOUBLE_EQ(s.modules[0].calls, 1);
}

TEST(Summary, CoverageListsOpsWithoutFormula) {
  RunSummary s = summarize(two_iteration_run());
  ASSERT_EQ(s.coverage_gaps.size(), 1u);
  EXPECT_EQ(s.coverage_gaps[0].name, "aten::softmax");
  EXPECT_EQ(s.coverage_gaps[0].count, 2);
  EXPECT_EQ(s.ops_total, 8);
  EXPECT_EQ(s.ops_with_formula, 6);
  ASSERT_FALSE(s.quality.empty());
  EXPECT_EQ(s.quality.back().count, 2);
}

TEST(Summary, KernelAttribution) {
  RunData r = two_iteration_run();
  KernelRecord k;
  k.duration_ns = 40;
  k.module_id = 3;
  k.op_id = 2;
  r.kernels.push_back(k);
  KernelRecord orphan;
  orphan.duration_ns = 10;
  r.kernels.push_back(orphan);
  RunSummary s = summarize(r);
  EXPECT_TRUE(s.has_kernels);
  EXPECT_EQ(s.attribution.kernels, 2);
  EXPECT_EQ(s.attribution.kernels_with_module, 1);
  EXPECT_DOUBLE_EQ(s.attribution.kernel_time_attributed_ns, 40);
  EXPECT_DOUBLE_EQ(s.modules[s.find("b")].gpu_time.max, 40);
}

}  // namespace
}  // namespace flopscope
