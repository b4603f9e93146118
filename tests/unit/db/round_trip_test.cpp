// Writing a run and reading it back gives the same records, field by field.
#include <gtest/gtest.h>

#include <cmath>
#include <iterator>
#include <limits>
#include <tuple>

#include "db/run_database.h"
#include "db/trace_extras_table.h"
#include "db_test_util.h"

namespace flopscope {
namespace {

using testing::TempDir;

TEST(RunDatabaseRoundTrip, EveryFieldOfEveryRecord) {
  TempDir dir;
  const std::string path = dir.file("run.db");
  RunData run = testing::sample_run();
  ASSERT_TRUE(testing::write_run_file(path, run));

  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  testing::expect_equal(run, *back);
  EXPECT_EQ(dir.listing(), std::vector<std::string>{"run.db"});  // no temporary file left
}

TEST(RunDatabaseRoundTrip, TraceExtrasKeepEveryField) {
  TempDir dir;
  const std::string path = dir.file("extras.db");
  TraceExtras extras;
  extras.host_events.push_back({"python_function", "model.py(12): forward \"q\"", -1500, 2500, 7, -1, 3, 1});
  extras.host_events.push_back({"python_function", "<string>(1): <module>", -2000, 9000, 0, -1, 1, -1});
  extras.host_events.push_back({"cuda_runtime", "cudaStreamSynchronize", 40000, 12250, 7, 8198, -1, -1});
  extras.device_properties = R"([{"id":0,"name":"NVIDIA H100 80GB HBM3","numSms":132,"warpSize":32}])";
  {
    auto sink = create_run_database(path, false);
    ASSERT_TRUE(sink.ok()) << sink.status().message();
    ASSERT_TRUE((*sink)->begin(testing::sample_run().info).ok());
    ASSERT_TRUE((*sink)->add_trace_extras(extras).ok());
    ASSERT_TRUE((*sink)->finish().ok());
  }
  auto back = read_trace_extras(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->host_events.size(), extras.host_events.size());
  for (std::size_t i = 0; i < extras.host_events.size(); ++i) {
    const HostEventRecord &a = extras.host_events[i], &b = back->host_events[i];
    EXPECT_EQ(std::tie(a.category, a.name, a.start_ns, a.duration_ns, a.thread, a.correlation, a.python_id,
                       a.python_parent_id),
              std::tie(b.category, b.name, b.start_ns, b.duration_ns, b.thread, b.correlation, b.python_id,
                       b.python_parent_id))
        << i;
  }
  EXPECT_EQ(back->device_properties, extras.device_properties);

  // A run without them (every capture, every file before schema 16) reads back none.
  const std::string plain = dir.file("plain.db");
  ASSERT_TRUE(testing::write_run_file(plain, testing::sample_run()));
  auto none = read_trace_extras(plain);
  ASSERT_TRUE(none.ok()) << none.status().message();
  EXPECT_TRUE(none->host_events.empty());
  EXPECT_TRUE(none->device_properties.empty());
}

TEST(RunDatabaseRoundTrip, RowsInsertedInGroupsKeepEveryField) {
  // Op and kernel rows are inserted sixteen to a statement, the rest one by one: counts that are not
  // multiples of sixteen, over several add_* calls, each row different from its neighbours in every field.
  TempDir dir;
  const std::string path = dir.file("groups.db");
  const RunData sample = testing::sample_run();
  RunData run = sample;
  run.ops.clear();
  run.kernels.clear();
  run.activations.clear();
  run.discarded.clear();
  run.iteration_processes.clear();  // written by write_rows only, which this test does not use
  run.outputs.clear();
  run.memory_events.clear();
  for (int i = 0; i < 53; ++i) {
    OpRecord o = sample.ops[static_cast<std::size_t>(i) % sample.ops.size()];
    o.id = 1000 + i;
    o.sequence = i;
    o.start_ns += i;
    o.parent_op_id = i % 4 == 0 ? kNoId : 1000 + i - 1;
    o.flops += i;
    o.flops_note = i % 5 == 0 ? "" : "note " + std::to_string(i);
    if (!o.args.empty()) o.args[0].shape = {i, i + 1};
    run.ops.push_back(o);
  }
  for (int i = 0; i < 37; ++i) {
    KernelRecord k = sample.kernels[static_cast<std::size_t>(i) % sample.kernels.size()];
    k.id = 5000 + i;
    k.name = "kernel_" + std::to_string(i);
    k.correlation = i;
    k.op_id = i % 3 == 0 ? kNoId : 1000 + i;
    k.has_counters = i % 2 == 0;
    k.flops_fp32 = k.has_counters ? 1.5 * i : 0;
    run.kernels.push_back(k);
  }
  auto sink = create_run_database(path, false);
  ASSERT_TRUE(sink.ok()) << sink.status().message();
  ASSERT_TRUE((*sink)->begin(run.info).ok());
  ASSERT_TRUE((*sink)->add_modules(run.modules).ok());
  const std::span<const OpRecord> ops(run.ops);
  const std::span<const KernelRecord> kernels(run.kernels);
  ASSERT_TRUE((*sink)->add_ops(ops.subspan(0, 17)).ok());  // one group and one single row
  ASSERT_TRUE((*sink)->add_ops(ops.subspan(17)).ok());     // two groups and four single rows
  ASSERT_TRUE((*sink)->add_kernels(kernels.subspan(0, 5)).ok());
  ASSERT_TRUE((*sink)->add_kernels(kernels.subspan(5)).ok());
  ASSERT_TRUE((*sink)->add_params(run.params).ok());
  ASSERT_TRUE((*sink)->add_graph(run.graph_nodes, run.graph_edges).ok());
  ASSERT_TRUE((*sink)->add_quality(run.quality).ok());
  ASSERT_TRUE((*sink)->finish().ok());
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  testing::expect_equal(run, *back);
}

TEST(RunDatabaseRoundTrip, EmptyRunKeepsItsInfo) {
  TempDir dir;
  const std::string path = dir.file("empty.db");
  RunData run;
  run.info.tool_version = "x";
  ASSERT_TRUE(testing::write_run_file(path, run));
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  testing::expect_equal(run, *back);
}

TEST(RunDatabaseRoundTrip, NonFiniteAndExtremeNumbers) {
  // Weights can hold NaN and infinities; SQLite stores NaN as NULL, which must read back as NaN.
  TempDir dir;
  const std::string path = dir.file("nan.db");
  const double values[] = {std::numeric_limits<double>::quiet_NaN(),
                           std::numeric_limits<double>::infinity(),
                           -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::max(),
                           std::numeric_limits<double>::denorm_min(),
                           0.1,
                           1e300,
                           9007199254740993.0};
  RunData run;
  Id id = 0;
  for (double v : values) {
    ParamRecord p;
    p.id = id++;
    p.l2 = p.max_abs = p.nonzero_fraction = v;
    run.params.push_back(p);
    KernelRecord k;
    k.id = p.id;
    k.flops_fp32 = k.bytes = v;
    run.kernels.push_back(k);
  }
  ASSERT_TRUE(testing::write_run_file(path, run));
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->params.size(), std::size(values));
  for (std::size_t i = 0; i < std::size(values); ++i) {
    const double v = values[i];
    for (double got : {back->params[i].l2, back->params[i].max_abs, back->params[i].nonzero_fraction,
                       back->kernels[i].flops_fp32, back->kernels[i].bytes}) {
      if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(got)) << i;
      } else {
        EXPECT_EQ(got, v) << i;
      }
    }
  }
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
  ASSERT_TRUE(testing::write_run_file(path, run));
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

TEST(RunDatabaseRoundTrip, LargeTablesReadInParallelKeepIdOrder) {
  // Enough rows for the reader to split the table into id ranges; ids sparse, negative and near the int64
  // limits so that range splitting must not overflow.
  TempDir dir;
  const std::string path = dir.file("wide.db");
  RunData run;
  constexpr std::int64_t kRows = 250'000;
  constexpr std::int64_t kStep = 36'000'000'000'000;
  for (std::int64_t i = 0; i < kRows; ++i) {
    KernelRecord k;
    k.id = (i - kRows / 2) * kStep;
    k.correlation = i;
    run.kernels.push_back(k);
  }
  run.kernels.back().id = std::numeric_limits<std::int64_t>::max();
  run.kernels.front().id = std::numeric_limits<std::int64_t>::min() + 1;  // min() itself is kNoId's neighbour
  ASSERT_TRUE(testing::write_run_file(path, run));
  auto back = read_run_database(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->kernels.size(), run.kernels.size());
  for (std::size_t i = 0; i < run.kernels.size(); ++i) {
    ASSERT_EQ(back->kernels[i].id, run.kernels[i].id) << i;
    ASSERT_EQ(back->kernels[i].correlation, static_cast<std::int64_t>(i)) << i;
  }
}

}  // namespace
}  // namespace flopscope
