#include "analyzer/importers/companion_choice.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

CompanionInfo process(std::int64_t pid, const std::string& trace) {
  CompanionInfo i;
  i.pid = pid;
  i.trace = trace;
  i.torch_version = "2.1";
  i.torch_imported = true;
  i.backend = "kineto";
  i.complete = true;
  return i;
}

bool has(const std::vector<QualityIssue>& q, QualityCode code) {
  for (const auto& i : q) {
    if (i.code == code) return true;
  }
  return false;
}

TEST(CompanionChoice, TheCommandsOwnProcessFirstWhenSeveralRecorded) {
  std::vector<CompanionInfo> infos = {process(10, "trace.10.json"), process(11, "trace.11.json"),
                                      process(12, "")};
  CompanionRunContext c{"python3 a.py", "exited", 0, 11, false};
  auto choice = choose_companion_run(infos, c);
  ASSERT_TRUE(choice.ok()) << choice.status().message();
  EXPECT_EQ(choice->chosen->pid, 11);
  EXPECT_EQ(choice->with_trace, 2);
  EXPECT_TRUE(has(choice->quality, QualityCode::several_processes));
  EXPECT_TRUE(has(choice->quality, QualityCode::recorded_by_trace));
  EXPECT_FALSE(has(choice->quality, QualityCode::program_failed));
}

TEST(CompanionChoice, SaysWhyNothingWasRecorded) {
  CompanionInfo warm = process(10, "");
  warm.iterations_begun = 3;
  warm.warmup = 5;
  CompanionRunContext c{"python3 a.py", "exited with 1", 1, 10, false};
  auto none = choose_companion_run({warm}, c);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().message(),
            "python3 a.py: the program ran 3 iteration(s), all within --warmup 5: nothing recorded");
  CompanionInfo idle = process(10, "");
  auto no_module = choose_companion_run({idle}, c);
  ASSERT_FALSE(no_module.ok());
  EXPECT_NE(no_module.status().message().find("called no torch.nn.Module before it exited with 1"),
            std::string::npos);
}

TEST(CompanionChoice, MetaRefusedIsTheUsersRequest) {
  CompanionInfo refused = process(10, "trace.json");
  refused.meta_refused = "this torch has no meta tensors";
  CompanionRunContext c{"python3 a.py", "exited", 0, 10, false};
  EXPECT_FALSE(check_companion_request({refused}, c).ok());
  EXPECT_FALSE(choose_companion_run({refused}, c).ok());
}

}  // namespace
}  // namespace flopscope
