// Writing a run and reading it back gives the same records, field by field.
#include <gtest/gtest.h>

#include "db/run_database.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using testing::TempDir;

TEST(RunDatabaseRoundTrip, EveryFieldOfEveryRecord) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  RunData run = testing::sample_run();
  auto sink = create_run_database(path, false);
  ASSERT_TRUE(sink.ok()) << sink.status().message();
  ASSERT_TRUE(write_run(**sink, run).ok());
  sink->reset();

  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  testing::expect_equal(run, *back);
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"run.db"});  // no temporary file left
}

TEST(RunDatabaseRoundTrip, EmptyRunKeepsItsInfo) {
  TempDir dir;
  const std::string path = dir.file("empty.db");
  RunData run;
  run.info.tool_version = "x";
  auto sink = create_run_database(path, false);
  ASSERT_TRUE(sink.ok()) << sink.status().message();
  ASSERT_TRUE(write_run(**sink, run).ok());
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  testing::expect_equal(run, *back);
}

TEST(RunDatabaseRoundTrip, RecordsComeBackInIdOrder) {
  TempDir dir;
  const std::string path = dir.file("order.db");
  RunData run;
  for (Id id : {5, 1, 3}) {
    KernelRecord k;
    k.id = id;
    k.name = "k" + std::to_string(id);
    run.kernels.push_back(k);
  }
  auto sink = create_run_database(path, false);
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE(write_run(**sink, run).ok());
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->kernels.size(), 3u);
  EXPECT_EQ(back->kernels[0].name, "k1");
  EXPECT_EQ(back->kernels[1].name, "k3");
  EXPECT_EQ(back->kernels[2].name, "k5");
}

TEST(RunDatabaseRoundTrip, BatchesAcrossTransactions) {
  // More rows than one transaction holds, written in several add_* calls as a streaming collector would.
  TempDir dir;
  const std::string path = dir.file("big.db");
  auto sink = create_run_database(path, false);
  ASSERT_TRUE(sink.ok());
  ASSERT_TRUE((*sink)->begin({}).ok());
  constexpr int kRows = 120'000;
  std::vector<OpRecord> batch;
  for (int i = 0; i < kRows; ++i) {
    OpRecord o;
    o.id = i;
    o.sequence = i;
    o.name = "aten::add";
    o.args = {{true, "float32", {i, 2}, ""}};
    batch.push_back(o);
    if (batch.size() == 7'000 || i + 1 == kRows) {
      ASSERT_TRUE((*sink)->add_ops(batch).ok());
      batch.clear();
    }
  }
  ASSERT_TRUE((*sink)->finish().ok());
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->ops.size(), static_cast<std::size_t>(kRows));
  EXPECT_EQ(back->ops[kRows - 1].args[0].shape, (std::vector<std::int64_t>{kRows - 1, 2}));
}

}  // namespace
}  // namespace flopscope
