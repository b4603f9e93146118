#include "analyzer/activations/candidates.h"

#include <gtest/gtest.h>

#include "analyzer/activations/candidate_text.h"
#include "tests/unit/flops/flops_test_util.h"

namespace flopscope {
namespace {

ActivationRecord act(Id module, int iter, double l2, std::int64_t numel, std::string tag = "",
                     double rel = -1) {
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

void add_op(RunData& r, Id module, int iteration, double flops, std::int64_t ns) {
  OpRecord op;
  op.id = static_cast<Id>(r.ops.size());
  op.sequence = op.id;
  op.iteration = iteration;
  op.module_id = module;
  op.start_ns = 1000 * op.id;
  op.duration_ns = ns;
  op.flops = flops;
  op.flops_source = FlopsSource::kFormula;
  r.ops.push_back(op);
}

ParamRecord param(Id module, double max_abs, std::int64_t numel) {
  ParamRecord p;
  p.module_id = module;
  p.max_abs = max_abs;
  p.numel = numel;
  p.bytes = 4 * numel;
  return p;
}

// blk.bias (a tiny parameter) and blk.lin run in each of `iterations` iterations.
RunData run_with(std::vector<ActivationRecord> acts, int iterations = 4) {
  RunData r;
  r.modules = {
      {0, kNoId, "", "Net"}, {1, 0, "blk", "Block"}, {2, 1, "blk.bias", "Bias"}, {3, 1, "blk.lin", "Linear"}};
  r.params = {param(2, 1e-7, 8), param(3, 0.5, 64)};
  for (int it = 0; it < iterations; ++it) {
    add_op(r, 2, it, 10, 100);
    add_op(r, 3, it, 90, 300);
  }
  r.activations = std::move(acts);
  return r;
}

const Candidate* find(const CandidateReport& rep, const std::string& path) {
  for (const auto& c : rep.candidates)
    if (c.path == path) return &c;
  return nullptr;
}

TEST(Candidates, FlagsZeroLikeByRmsWithShareOfCalls) {
  // blk.bias: 4 calls, RMS 1e-6 in 3 of them (75%); blk.lin: large. One input set.
  RunData r = run_with({act(2, 0, 1e-6 * 10, 100), act(2, 1, 1e-6 * 10, 100), act(2, 2, 1e-6 * 10, 100),
                        act(2, 3, 1.0, 100), act(3, 0, 5.0, 100), act(3, 1, 5.0, 100)});
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
  EXPECT_EQ(c.params, 1);
  EXPECT_DOUBLE_EQ(c.param_bytes, 32);
  EXPECT_DOUBLE_EQ(c.flops, 10);
  EXPECT_DOUBLE_EQ(c.share_flops, 0.1);
  EXPECT_FALSE(c.conditional());
  o.min_share_of_calls = 0.9;
  EXPECT_TRUE(find_candidates(r, s, o).candidates.empty());
}

TEST(Candidates, IdentityNeedsMatchingShapesAndOutermostWins) {
  RunData r =
      run_with({act(1, 0, 3.0, 100, "", 1e-5), act(3, 0, 3.0, 100, "", 1e-6), act(2, 0, 3.0, 100)}, 1);
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
  EXPECT_TRUE(rep.candidates.empty());  // every module with parameters runs
}

TEST(Candidates, ZeroLikeOnOneInputSetIsNeededOnTheOther) {
  // Iterations 0-1 are set "a" (blk.bias outputs zeros), 2-3 set "b" (it does not): the overall share (50%)
  // is under the threshold, yet on "a" the module is free to remove, and only there.
  RunData r = run_with({act(2, 0, 0, 100, "a"), act(2, 1, 0, 100, "a"), act(2, 2, 9, 100, "b"),
                        act(2, 3, 9, 100, "b"), act(3, 0, 5, 100, "a"), act(3, 1, 5, 100, "a"),
                        act(3, 2, 5, 100, "b"), act(3, 3, 5, 100, "b")});
  add_op(r, 2, 2, 30, 100);  // set "b" runs blk.bias on more work: its saving there differs
  RunSummary s = summarize(r);
  CandidateReport rep = find_candidates(r, s);
  EXPECT_EQ(rep.input_sets, (std::vector<std::string>{"a", "b"}));
  ASSERT_EQ(rep.candidates.size(), 1u);
  const Candidate& c = rep.candidates[0];
  EXPECT_EQ(c.path, "blk.bias");
  EXPECT_EQ(c.kind, CandidateKind::kZeroLike);
  EXPECT_TRUE(c.conditional());
  ASSERT_EQ(c.by_input_set.size(), 2u);
  EXPECT_EQ(c.by_input_set[0].tag, "a");
  EXPECT_FALSE(c.by_input_set[0].needed);
  EXPECT_DOUBLE_EQ(c.by_input_set[0].flops, 10);
  EXPECT_EQ(c.by_input_set[1].tag, "b");
  EXPECT_TRUE(c.by_input_set[1].needed);
  EXPECT_EQ(c.by_input_set[1].held, 0);
  EXPECT_DOUBLE_EQ(c.by_input_set[1].flops, 25);  // (10 + 30 + 10) / 2 iterations
  const std::string saving = saving_text(c);
  EXPECT_NE(saving.find("would save 10 FLOPs"), std::string::npos) << saving;
  EXPECT_NE(saving.find("on input set a; needed on input set b (zero-like in 0 of 2 calls)"),
            std::string::npos)
      << saving;
  EXPECT_EQ(saving.find("25"), std::string::npos) << saving;  // nothing saved on "b"
}

// The MoE layout: a router and experts in a ModuleList, experts.N.fc holding the weights.
RunData moe_run() {
  RunData r;
  r.modules = {{0, kNoId, "", "Moe"},
               {1, 0, "router", "Linear"},
               {2, 0, "experts", "ModuleList"},
               {3, 2, "experts.0", "Expert"},
               {4, 3, "experts.0.fc", "Linear"},
               {5, 2, "experts.1", "Expert"},
               {6, 5, "experts.1.fc", "Linear"},
               {7, 2, "experts.2", "Expert"},
               {8, 7, "experts.2.fc", "Linear"},
               {9, 0, "spare_act", "ReLU"}};
  r.params = {param(1, 0.5, 32), param(4, 0.5, 64), param(4, 0.5, 8), param(6, 0.5, 64),
              param(6, 0.5, 8),  param(8, 0.5, 64), param(8, 0.5, 8)};
  return r;
}

TEST(Candidates, ModuleWithParametersThatNeverRunsIsACandidateWithoutActivations) {
  RunData r = moe_run();
  for (int it = 0; it < 3; ++it) {
    add_op(r, 1, it, 16, 50);
    add_op(r, 4, it, 64, 100);
    add_op(r, 8, it, 64, 100);
  }
  RunSummary s = summarize(r);
  ASSERT_EQ(s.modules[static_cast<std::size_t>(s.find("experts.1"))].calls, 0);
  CandidateReport rep = find_candidates(r, s);
  EXPECT_FALSE(rep.has_activations);
  ASSERT_EQ(rep.candidates.size(), 1u);  // experts.1.fc is inside experts.1; spare_act has no parameters
  const Candidate& c = rep.candidates[0];
  EXPECT_EQ(c.path, "experts.1");
  EXPECT_EQ(c.kind, CandidateKind::kNeverRun);
  EXPECT_EQ(c.params, 2);
  EXPECT_EQ(c.param_values, 72);
  EXPECT_DOUBLE_EQ(c.param_bytes, 288);
  EXPECT_EQ(c.calls, 0);
  EXPECT_DOUBLE_EQ(c.flops, 0);
  EXPECT_FALSE(c.conditional());
  EXPECT_TRUE(c.by_input_set.empty());  // the sets are unknown without activation statistics
  EXPECT_EQ(never_runs_text(c), "never runs on these inputs");
  EXPECT_EQ(candidate_weights_text(c), "2 params, 288 B");
  EXPECT_EQ(behaviour_text(c), "never runs on these inputs (2 params, 288 B)");
}

TEST(Candidates, NeverRunIsJudgedPerInputSet) {
  // Set "small" (iterations 0, 1) routes to experts.0 only; set "big" (2, 3) to experts.2 as well. experts.1
  // never runs anywhere; experts.2 never runs on "small" and is needed on "big".
  RunData r = moe_run();
  for (int it = 0; it < 4; ++it) {
    const std::string tag = it < 2 ? "small" : "big";
    add_op(r, 1, it, 16, 50);
    add_op(r, 4, it, 64, 100);
    r.activations.push_back(act(0, it, 5, 10, tag));
    r.activations.push_back(act(4, it, 5, 10, tag));
    if (it >= 2) {
      add_op(r, 8, it, 64, 100);
      r.activations.push_back(act(8, it, 5, 10, tag));
    }
  }
  RunSummary s = summarize(r);
  CandidateReport rep = find_candidates(r, s);
  ASSERT_EQ(rep.candidates.size(), 2u);
  const Candidate* e1 = find(rep, "experts.1");
  const Candidate* e2 = find(rep, "experts.2");
  ASSERT_TRUE(e1 && e2);
  EXPECT_EQ(e1->kind, CandidateKind::kNeverRun);
  EXPECT_FALSE(e1->conditional());
  ASSERT_EQ(e1->by_input_set.size(), 2u);
  EXPECT_FALSE(e1->by_input_set[0].runs);
  EXPECT_FALSE(e1->by_input_set[1].runs);
  EXPECT_EQ(e2->kind, CandidateKind::kNeverRun);
  EXPECT_TRUE(e2->conditional());
  ASSERT_EQ(e2->by_input_set.size(), 2u);
  EXPECT_EQ(e2->by_input_set[0].tag, "big");
  EXPECT_TRUE(e2->by_input_set[0].runs);
  EXPECT_TRUE(e2->by_input_set[0].needed);
  EXPECT_EQ(e2->by_input_set[0].calls, 2);  // the module tree's calls on "big"
  EXPECT_DOUBLE_EQ(e2->by_input_set[0].flops, 64);
  EXPECT_FALSE(e2->by_input_set[1].runs);
  EXPECT_FALSE(e2->by_input_set[1].needed);
  EXPECT_EQ(never_runs_text(*e2), "never runs on input set small; runs on input set big");
  const std::string saving = saving_text(*e2);
  EXPECT_EQ(
      saving.rfind("removing it would save 288 B of weights on input set small (never runs there); needed on "
                   "input set big (runs there: 64 FLOPs",
                   0),
      0u)
      << saving;
}

TEST(Candidates, AContainerIsNeverTheCandidateForWhatItsChildComputes) {
  // TorchScript attributes lora_B.default's ops to the chain lora_B -> lora_B.default, so the ModuleDict gets
  // activation statistics too (an eager trace never calls it): the module that computes is the candidate.
  RunData r;
  r.modules = {{0, kNoId, "", "Net"},
               {1, 0, "q_proj", "LoraLinear"},
               {2, 1, "q_proj.base_layer", "Linear"},
               {3, 1, "q_proj.lora_B", "ModuleDict"},
               {4, 3, "q_proj.lora_B.default", "Linear"},
               {5, 0, "head", "Sequential"},
               {6, 5, "head.0", "Linear"}};
  r.params = {param(2, 0.5, 64), param(4, 0, 64), param(6, 0.5, 64)};
  for (int it = 0; it < 3; ++it) {
    add_op(r, 2, it, 100, 100);
    add_op(r, 4, it, 100, 100);
    add_op(r, 6, it, 100, 100);
    for (Id m : {3, 4}) r.activations.push_back(act(m, it, 0, 64));
    for (Id m : {5, 6}) r.activations.push_back(act(m, it, 0, 64));
    r.activations.push_back(act(1, it, 9, 64));
  }
  RunSummary s = summarize(r);
  CandidateReport rep = find_candidates(r, s);
  std::vector<std::string> paths;
  for (const auto& c : rep.candidates) paths.push_back(c.path);
  std::sort(paths.begin(), paths.end());
  EXPECT_EQ(paths, (std::vector<std::string>{"head.0", "q_proj.lora_B.default"}));
  EXPECT_EQ(find(rep, "q_proj.lora_B.default")->weight_status, "ZEROED");
}

TEST(Candidates, CallsAreTheModuleTreesCalls) {
  // An nn.Identity traced eagerly: its hooks fire (3 activation records) but it runs no op, so the module
  // tree gives it 0 calls, and the candidates do not count 3 calls it never made. blk.bias's calls are the
  // tree's calls over the iterations.
  RunData r = run_with({act(2, 0, 0, 100), act(2, 1, 0, 100), act(2, 2, 0, 100)}, 3);
  r.modules.push_back({4, 1, "blk.skip", "Identity"});
  for (int it = 0; it < 3; ++it) r.activations.push_back(act(4, it, 3.0, 100, "", 0));
  RunSummary s = summarize(r);
  const ModuleSummary& skip = s.modules[static_cast<std::size_t>(s.find("blk.skip"))];
  const ModuleSummary& bias = s.modules[static_cast<std::size_t>(s.find("blk.bias"))];
  EXPECT_EQ(skip.calls, 0);
  CandidateReport rep = find_candidates(r, s);
  ASSERT_EQ(rep.candidates.size(), 1u);
  EXPECT_EQ(rep.candidates[0].path, "blk.bias");
  EXPECT_EQ(rep.candidates[0].calls, static_cast<int>(bias.calls * s.iterations));
}

TEST(Candidates, UnconditionalSavingNamesNoSet) {
  RunData r = run_with({act(2, 0, 0, 100, "a"), act(2, 1, 0, 100, "b")}, 2);
  CandidateReport rep = find_candidates(r, summarize(r));
  ASSERT_EQ(rep.candidates.size(), 1u);
  EXPECT_FALSE(rep.candidates[0].conditional());
  EXPECT_EQ(
      saving_text(rep.candidates[0]),
      "removing it would save 10 FLOPs, 0 B and about 100 ns per iteration; by input set: a 1/1, b 1/1");
  EXPECT_EQ(behaviour_text(rep.candidates[0]), "zero-like (2 of 2 calls)");
}

TEST(Candidates, WeightsAnotherModuleMayReadAreNoNeverRunCandidate) {
  // x + self.pos.weight[:n]: pos's forward never runs, but the model slices its weight. A running expert
  // taking its own weight (transposed), of the shape of its idle twin's, is no such evidence.
  RunData r;
  r.modules = {{0, kNoId, "", "Net"},
               {1, 0, "pos", "Embedding"},
               {2, 0, "experts", "ModuleList"},
               {3, 2, "experts.0", "Linear"},
               {4, 2, "experts.1", "Linear"}};
  auto weight = [&](Id module, std::string name, std::vector<std::int64_t> shape) {
    ParamRecord p = param(module, 0.5, shape[0] * shape[1]);
    p.name = std::move(name);
    p.dtype = "float32";
    p.shape = std::move(shape);
    r.params.push_back(p);
  };
  weight(1, "pos.weight", {8, 16});
  weight(3, "experts.0.weight", {16, 8});
  weight(4, "experts.1.weight", {16, 8});
  for (int it = 0; it < 2; ++it) {
    add_op(r, 0, it, 0, 10);
    r.ops.back().name = "aten::slice";
    r.ops.back().args = {testing::F({8, 16})};
    add_op(r, 3, it, 100, 10);
    r.ops.back().name = "aten::linear";
    r.ops.back().args = {testing::F({4, 8}),
                         testing::F({8, 16})};  // the weight transposed, as addmm takes it
  }
  CandidateReport rep = find_candidates(r, summarize(r));
  ASSERT_EQ(rep.candidates.size(), 1u);
  EXPECT_EQ(rep.candidates[0].path, "experts.1");
  EXPECT_EQ(rep.candidates[0].kind, CandidateKind::kNeverRun);
  ASSERT_EQ(rep.held_back.size(), 1u);
  EXPECT_EQ(rep.held_back[0].path, "pos");
  EXPECT_EQ(rep.held_back[0].read.param, "pos.weight");
  EXPECT_EQ(rep.held_back[0].read.op, "aten::slice");
  EXPECT_EQ(rep.held_back[0].read.module, "");
  EXPECT_EQ(rep.held_back[0].read.tensor, "float32[8,16]");
}

}  // namespace
}  // namespace flopscope
