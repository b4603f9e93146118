#include "analyzer/activations/candidate_verify.h"

#include <gtest/gtest.h>

#include <string_view>

#include "db/model/sha256.h"

namespace flopscope {
namespace {

// One call returning one float tensor of `values` (statistics filled, hashed over the doubles).
std::vector<OutputRecord> outputs(std::vector<double> values) {
  OutputTensor t;
  t.name = "0";
  t.dtype = "float32";
  t.shape = {static_cast<std::int64_t>(values.size())};
  t.values = std::move(values);
  t.sha256 = sha256_hex(
      std::string_view(reinterpret_cast<const char*>(t.values.data()), t.values.size() * sizeof(double)));
  fill_output_statistics(t);
  OutputRecord r;
  r.input_hash = "in";
  r.tensors = {t};
  return {r};
}

Candidate candidate(std::string path, CandidateKind kind) {
  Candidate c;
  c.path = std::move(path);
  c.kind = kind;
  return c;
}

CandidateAblation ablation(std::vector<double> after, int call_sites = 1) {
  CandidateAblation a;
  a.call_sites = call_sites;
  a.original = outputs({1, 2, 3, 4});
  a.ablated = outputs(std::move(after));
  return a;
}

TEST(CandidateVerify, JudgesEachCandidateByItsOutputChange) {
  const double tolerance = 1e-5;
  const auto verified =
      judge_candidate(candidate("a", CandidateKind::kZeroLike), ablation({1, 2, 3, 4}), tolerance);
  EXPECT_EQ(verified.status, VerifyStatus::kVerified) << verified.text;
  EXPECT_EQ(verified.text.rfind("verified: outputs change <= 1e-05", 0), 0u) << verified.text;
  EXPECT_EQ(verified.call_sites, 1);

  const auto refuted =
      judge_candidate(candidate("b", CandidateKind::kZeroLike), ablation({1, 2, 3, 8}), tolerance);
  EXPECT_EQ(refuted.status, VerifyStatus::kRefuted) << refuted.text;
  ASSERT_TRUE(refuted.max_rel_change);
  EXPECT_GT(*refuted.max_rel_change, tolerance);

  const auto nan = judge_candidate(candidate("c", CandidateKind::kZeroLike),
                                   ablation({1, 2, 3, std::numeric_limits<double>::quiet_NaN()}), tolerance);
  EXPECT_EQ(nan.status, VerifyStatus::kRefuted);
  EXPECT_EQ(nan.text, "refuted: outputs hold NaN or Inf with it ablated");
}

TEST(CandidateVerify, UnprovenClaimsAreNotVerified) {
  // A module that runs but whose call was not found: an unchanged output proves nothing.
  const auto unseen =
      judge_candidate(candidate("a", CandidateKind::kIdentityLike), ablation({1, 2, 3, 4}, 0), 1e-5);
  EXPECT_EQ(unseen.status, VerifyStatus::kNotVerified);
  EXPECT_EQ(unseen.mode, CandidateReplacement::kInput);
  // A never-run module has no call to find: its unchanged output is the proof.
  const auto never =
      judge_candidate(candidate("b", CandidateKind::kNeverRun), ablation({1, 2, 3, 4}, 0), 1e-5);
  EXPECT_EQ(never.status, VerifyStatus::kVerified) << never.text;
  EXPECT_EQ(never.mode, CandidateReplacement::kZeros);
  // The runner's error names why.
  const auto failed =
      judge_candidate(candidate("c", CandidateKind::kIdentityLike),
                      StatusOr<CandidateAblation>(InvalidArgument("identity needs equal shapes")), 1e-5);
  EXPECT_EQ(failed.status, VerifyStatus::kNotVerified);
  EXPECT_EQ(failed.text, "not verified: identity needs equal shapes");
}

TEST(CandidateVerify, AsksTheInjectedRunnerOncePerCandidateInOrder) {
  CandidateReport report;
  report.candidates = {candidate("zero", CandidateKind::kZeroLike),
                       candidate("same", CandidateKind::kIdentityLike)};
  std::vector<std::pair<std::string, CandidateReplacement>> asked;
  CandidateAblator runner = [&](const std::string& path,
                                CandidateReplacement how) -> StatusOr<CandidateAblation> {
    asked.emplace_back(path, how);
    return ablation(path == "zero" ? std::vector<double>{1, 2, 3, 4} : std::vector<double>{0, 0, 0, 0});
  };
  const CandidateVerifications v = verify_candidates(report, runner, 1e-5, "m.pt", "float32[4]");
  ASSERT_EQ(asked.size(), 2u);
  EXPECT_EQ(asked[0], std::make_pair(std::string("zero"), CandidateReplacement::kZeros));
  EXPECT_EQ(asked[1], std::make_pair(std::string("same"), CandidateReplacement::kInput));
  ASSERT_EQ(v.items.size(), 2u);
  EXPECT_EQ(v.find("zero")->status, VerifyStatus::kVerified);
  EXPECT_EQ(v.find("same")->status, VerifyStatus::kRefuted);
  EXPECT_EQ(v.find("none"), nullptr);
  EXPECT_EQ(v.model_path, "m.pt");
  EXPECT_EQ(v.inputs, "float32[4]");
  EXPECT_STREQ(to_string(CandidateReplacement::kInput), "identity");
}

}  // namespace
}  // namespace flopscope
