// Hand-built CUDA 13 activity buffers read through the real cuptiActivityGetNextRecord.
#include "collector/cupti/activity_reader.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "activity_buffer.h"
#include "collector/cupti/tracer.h"
#include "db/run_database.h"
#include "fake_cupti.h"

namespace flopscope::gpu {
namespace {

using testing::ActivityBuffer;
using testing::kernel_record;

TEST(ActivityReader, ReadsKernelMemcpyMemsetAndExternalRecords) {
  ActivityBuffer buf;
  buf.add(kernel_record("_Z9fma_chainPfi", 11, 1000, 3500));
  CUpti_ActivityMemcpy6 copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  copy.bytes = 1 << 20;
  copy.start = 4000;
  copy.end = 5000;
  copy.correlationId = 12;
  buf.add(copy);
  CUpti_ActivityAPI api_record{};
  api_record.kind = CUPTI_ACTIVITY_KIND_RUNTIME;
  api_record.correlationId = 11;
  buf.add(api_record);
  CUpti_ActivityMemset4 set{};
  set.kind = CUPTI_ACTIVITY_KIND_MEMSET;
  set.bytes = 4096;
  set.start = 6000;
  set.end = 6100;
  set.correlationId = 13;
  buf.add(set);
  CUpti_ActivityExternalCorrelation ext{};
  ext.kind = CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION;
  ext.externalKind = CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM2;
  ext.externalId = 42;
  ext.correlationId = 11;
  buf.add(ext);

  ActivityBatch batch;
  ASSERT_TRUE(read_activity_buffer(real_cupti(), buf.data(), buf.size(), batch).ok());
  ASSERT_EQ(batch.device.size(), 3u);
  EXPECT_EQ(batch.device[0].name, "_Z9fma_chainPfi");
  EXPECT_EQ(batch.device[0].correlation, 11u);
  EXPECT_EQ(batch.device[0].end - batch.device[0].start, 2500u);
  EXPECT_EQ(batch.device[0].grid, (std::array<int, 3>{128, 2, 1}));
  EXPECT_EQ(batch.device[0].block, (std::array<int, 3>{256, 1, 1}));
  EXPECT_EQ(batch.device[0].stream, 7u);
  EXPECT_EQ(batch.device[1].kind, KernelKind::kMemcpy);
  EXPECT_EQ(batch.device[1].name, "[memcpy HtoD]");
  EXPECT_EQ(batch.device[1].bytes, 1u << 20);
  EXPECT_EQ(batch.device[2].kind, KernelKind::kMemset);
  EXPECT_EQ(batch.device[2].bytes, 4096u);
  ASSERT_EQ(batch.external.size(), 1u);
  EXPECT_EQ(batch.external[0].external_id, 42u);
  EXPECT_EQ(batch.other_records, 1);
}

TEST(ActivityReader, UnknownKindStopsWithAnError) {
  ActivityBuffer buf;
  buf.add(kernel_record("k", 1, 10, 20));
  CUpti_ActivityKernel10 bogus = kernel_record("k", 2, 10, 20);
  bogus.kind = static_cast<CUpti_ActivityKind>(0x7ffffff0);
  buf.add(bogus);
  ActivityBatch batch;
  Status s = read_activity_buffer(real_cupti(), buf.data(), buf.size(), batch);
  EXPECT_FALSE(s.ok());
  EXPECT_NE(s.message().find("activity buffer"), std::string::npos);
  EXPECT_EQ(batch.device.size(), 1u);
}

TEST(ActivityReader, EmptyBufferIsNoRecords) {
  ActivityBatch batch;
  EXPECT_TRUE(read_activity_buffer(real_cupti(), nullptr, 0, batch).ok());
  EXPECT_TRUE(batch.device.empty());
}

// Buffers -> tracer -> run database -> read back: the record survives every layer.
TEST(ActivityReader, BufferReachesTheRunDatabase) {
  testing::FakeCupti fake;
  Tracer tracer(fake, {});
  ASSERT_TRUE(tracer.start().ok());
  ActivityBuffer first, second;
  first.add(kernel_record("_Z4gemmv", 5, 2000, 9000));
  second.add(kernel_record("_Z4copyv", 6, 9500, 9900));
  CUpti_ActivityKernel10 no_time = kernel_record("_Z4lostv", 7, 0, 0);
  second.add(no_time);
  tracer.handle_buffer(first.data(), first.size());
  tracer.handle_buffer(second.data(), second.size());
  tracer.stop();
  RunInfo info;
  info.device = "test";
  RunData run = tracer.take_run(info);
  ASSERT_EQ(run.kernels.size(), 3u);

  auto path = std::filesystem::temp_directory_path() / ("cupti_reader_" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  auto sink = create_run_database(path.string(), false);
  ASSERT_TRUE(sink.ok()) << sink.status().message();
  Status written = write_run(**sink, run);  // ends with finish()
  ASSERT_TRUE(written.ok()) << written.message();
  auto back = read_run_database(path.string());
  ASSERT_TRUE(back.ok()) << back.status().message();
  std::filesystem::remove(path);
  ASSERT_EQ(back->kernels.size(), 3u);
  EXPECT_EQ(back->info.source_kind, SourceKind::kCupti);
  bool found = false;
  for (const auto& k : back->kernels) {
    if (k.name == "gemm()") {  // stored demangled
      found = true;
      EXPECT_EQ(k.duration_ns, 7000);
      EXPECT_EQ(k.grid, (std::array<int, 3>{128, 2, 1}));
      EXPECT_EQ(k.correlation, 5);
    }
  }
  EXPECT_TRUE(found);
  bool no_timestamp_row = false;
  for (const auto& q : back->quality)
    no_timestamp_row |= q.code == QualityCode::kernel_without_timestamp && q.count == 1;
  EXPECT_TRUE(no_timestamp_row);
}

}  // namespace
}  // namespace flopscope::gpu
