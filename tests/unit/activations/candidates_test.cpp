#include "analyzer/activations/candidates.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

ActivationRecord act(Id module, int iter, double l2, std::int64_t numel, std::string tag = "", double rel = -1) {
  ActivationRecord a;
  a.module_id = module;
  a.iteration = iter;
  a.out_l2 = l2;
  a.numel = numel;
  a.input_tag = std::move(tag);
  a.has_rel_change = rel >= 0;
  a.rel_change = rel < 0 ? 0 : rel;
  return a;
}

RunData run_with(std::vector<ActivationRecord> acts) {
  RunData r;
  r.modules = {{0, kNoId, "", "Net"}, {1, 0, "blk", "Block"}, {2, 1, "blk.bias", "Bias"}, {3, 1, "blk.lin", "Linear"}};
  ParamRecord p;
  p.module_id = 2;
  p.max_abs = 1e-7;
  r.params.push_back(p);
  ParamRecord q;
  q.module_id = 3;
  q.max_abs = 0.5;
  r.params.push_back(q);
  OpRecord op;
  op.id = 0;
  op.module_id = 2;
  op.duration_ns = 100;
  op.flops = 10;
  op.flops_source = FlopsSource::kFormula;
  r.ops.push_back(op);
  op.id = 1;
  op.module_id = 3;
  op.duration_ns = 300;
  op.flops = 90;
  r.ops.push_back(op);
  r.activations = std::move(acts);
  return r;
}

TEST(Candidates, FlagsZeroLikeByRmsWithShareOfCalls) {
  // blk.bias: 4 calls, RMS 1e-6 in 3 of them (75%); blk.lin: large.
  RunData r = run_with({act(2, 0, 1e-6 * 10, 100, "a"), act(2, 1, 1e-6 * 10, 100, "a"), act(2, 2, 1e-6 * 10, 100, "b"),
                        act(2, 3, 1.0, 100, "b"), act(3, 0, 5.0, 100), act(3, 1, 5.0, 100)});
  RunSummary s = summarize(r);
  CandidateOptions o;
  o.min_share_of_calls = 0.7;
  CandidateReport rep = find_candidates(r, s, o);
  ASSERT_EQ(rep.candidates.size(), 1u);
  const Candidate& c = rep.candidates[0];
  EXPECT_EQ(c.path, "blk.bias");
  EXPECT_EQ(c.kind, CandidateKind::kZeroLike);
  EXPECT_EQ(c.calls, 4);
  EXPECT_EQ(c.held, 3);
  EXPECT_EQ(c.weight_status, "tiny");
  EXPECT_DOUBLE_EQ(c.flops, 10);
  EXPECT_DOUBLE_EQ(c.share_flops, 0.1);
  ASSERT_EQ(c.by_input_set.size(), 2u);
  EXPECT_EQ(c.by_input_set[0].held, 2);  // "a": 2 of 2
  EXPECT_EQ(c.by_input_set[1].held, 1);  // "b": 1 of 2
  o.min_share_of_calls = 0.9;
  EXPECT_TRUE(find_candidates(r, s, o).candidates.empty());
}

TEST(Candidates, IdentityNeedsMatchingShapesAndOutermostWins) {
  RunData r = run_with({act(1, 0, 3.0, 100, "", 1e-5), act(3, 0, 3.0, 100, "", 1e-6), act(2, 0, 3.0, 100)});
  RunSummary s = summarize(r);
  CandidateReport rep = find_candidates(r, s);
  ASSERT_EQ(rep.candidates.size(), 1u);  // blk.lin is inside blk, which is listed for the same reason
  EXPECT_EQ(rep.candidates[0].path, "blk");
  EXPECT_EQ(rep.candidates[0].kind, CandidateKind::kIdentityLike);
  EXPECT_EQ(rep.candidates[0].weight_status, "ACTIVE");
}

TEST(Candidates, NoActivationsIsReported) {
  RunData r = run_with({});
  CandidateReport rep = find_candidates(r, summarize(r));
  EXPECT_FALSE(rep.has_activations);
  EXPECT_TRUE(rep.candidates.empty());
}

}  // namespace
}  // namespace flopscope
