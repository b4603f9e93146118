// Each bad input fails with one line that names the file, never a crash or a partial run.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>

#include "analyzer/importers/importer.h"
#include "db/model/run_sink.h"
#include "import_test_util.h"

namespace flopscope {
namespace {

Status import_bad(const std::string& path, MemoryRunSink& sink) {
  ImportOptions options;
  options.progress = false;
  return import_trace(path, sink, options);
}

void expect_error(const std::string& path, const std::string& fragment) {
  MemoryRunSink sink;
  Status s = import_bad(path, sink);
  ASSERT_FALSE(s.ok()) << path;
  EXPECT_NE(s.message().find(path), std::string::npos) << s.message();
  EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
  EXPECT_FALSE(sink.finished());
}

class BadInput : public ::testing::Test {
 protected:
  std::string dir = testing::temp_dir();
};

TEST_F(BadInput, TruncatedGzip) {
  std::ifstream in(testing::fixture("kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"),
                   std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  testing::write_text(dir + "/t.json.gz", bytes.substr(0, bytes.size() / 2));
  expect_error(dir + "/t.json.gz", "truncated");
}

TEST_F(BadInput, TruncatedJson) {
  auto text = testing::gunzip(
      testing::fixture("kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"));
  testing::write_text(dir + "/t.json", text.substr(0, text.size() / 2));
  expect_error(dir + "/t.json", "truncated JSON");
}

TEST_F(BadInput, JsonThatIsNotATrace) {
  testing::write_text(dir + "/config.json", R"({"model": "bert", "layers": [1, 2, 3]})");
  expect_error(dir + "/config.json", "not a trace");
  testing::write_text(dir + "/numbers.json", "[1, 2, 3]");
  expect_error(dir + "/numbers.json", "not a trace");
}

TEST_F(BadInput, SqliteThatIsNotAnNsysExport) {
  // An SQLite database with one unrelated table, made with the sqlite3 shell.
  if (std::system("command -v sqlite3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "sqlite3 shell not installed";
  std::string path = dir + "/other.sqlite";
  ASSERT_EQ(std::system(("sqlite3 " + path + " 'CREATE TABLE t(x); INSERT INTO t VALUES (1);'").c_str()), 0);
  expect_error(path, "not an Nsight Systems export");
}

TEST_F(BadInput, CsvWithUnknownColumns) {
  testing::write_text(dir + "/table.csv", "name,value\nfoo,1\n");
  expect_error(dir + "/table.csv", "unknown columns");
}

TEST_F(BadInput, UnknownBinaryAndEmptyAndMissing) {
  testing::write_text(dir + "/blob.bin", std::string("\x01\x02\x03\x00\xff", 5));
  expect_error(dir + "/blob.bin", "unknown format");
  testing::write_text(dir + "/empty.json", "");
  expect_error(dir + "/empty.json", "empty");
  expect_error(dir + "/missing.json", "no such file");
}

TEST_F(BadInput, MalformedEventsAreCountedNotFatal) {
  testing::write_text(dir + "/m.json",
                      R"({"traceEvents": [
      {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 10, "dur": 5,
       "args": {"External id": 1, "Input Dims": [[2, 3], [3, 4]], "Input type": ["float", "float"]}},
      {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": "bad", "dur": 1},
      {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 11, "dur": 1,
       "args": {"External id": 1, "correlation": 5}},
      {"ph": "X", "cat": "kernel", "name": "gemm", "pid": 0, "tid": 7, "ts": 20, "dur": 3,
       "args": {"External id": 1, "correlation": 5, "device": 0, "stream": 7, "grid": [1, 2, 3], "block": [4, 1, 1]}},
      {"ph": "X", "cat": "kernel", "name": "orphan", "pid": 0, "tid": 7, "ts": 30, "dur": 2,
       "args": {"correlation": 99, "device": 0, "stream": 7}}
    ]})");
  auto run = testing::import_file(dir + "/m.json");
  ASSERT_TRUE(run.ok()) << run.status().message();
  EXPECT_EQ(testing::issue_count(*run, QualityCode::malformed_trace_events), 1);
  ASSERT_EQ(run->kernels.size(), 2U);
  EXPECT_EQ(run->kernels[0].op_id, 0);
  EXPECT_EQ(run->kernels[0].grid, (std::array<int, 3>{1, 2, 3}));
  EXPECT_EQ(run->kernels[1].op_id, kNoId);  // orphan, still in totals
  EXPECT_EQ(testing::issue_count(*run, QualityCode::orphan_kernels), 1);
  ASSERT_EQ(run->ops.size(), 1U);
  EXPECT_EQ(run->ops[0].flops_source, FlopsSource::kFormula);
  EXPECT_DOUBLE_EQ(run->ops[0].flops, 2.0 * 2 * 3 * 4);
  EXPECT_EQ(run->ops[0].start_ns, 0);  // times are relative to the earliest event
  EXPECT_EQ(run->kernels[0].start_ns, 10000);
}

}  // namespace
}  // namespace flopscope
