// The tracer driven by synthetic CUPTI callbacks: kernel -> module attribution through NVTX ranges and
// in-process scopes, CUDA graph node mapping, and start failures.
#include "collector/cupti/tracer.h"

#include <gtest/gtest.h>

#include <map>

#include "activity_buffer.h"
#include "callbacks.h"
#include "fake_cupti.h"

namespace flopscope::gpu {
namespace {

using testing::ActivityBuffer;
using testing::Driver;
using testing::FakeCupti;
using testing::kernel_record;

std::map<std::string, std::string> kernel_modules(const RunData& run) {
  std::map<Id, std::string> paths;
  for (const auto& m : run.modules) paths[m.id] = m.path;
  std::map<std::string, std::string> out;
  for (const auto& k : run.kernels) out[k.name] = paths.at(k.module_id);
  return out;
}

const QualityIssue* find_issue(const RunData& run, QualityCode code) {
  for (const auto& q : run.quality) {
    if (q.code == code) return &q;
  }
  return nullptr;
}

TEST(Tracer, EnablesConcurrentKernelNotSerialisingKernelKind) {
  FakeCupti fake;
  Tracer tracer(fake, {});
  ASSERT_TRUE(tracer.start().ok());
  auto has = [&](CUpti_ActivityKind k) {
    return std::find(fake.enabled_kinds.begin(), fake.enabled_kinds.end(), k) != fake.enabled_kinds.end();
  };
  EXPECT_TRUE(has(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));
  EXPECT_TRUE(has(CUPTI_ACTIVITY_KIND_MEMCPY));
  EXPECT_TRUE(has(CUPTI_ACTIVITY_KIND_MEMSET));
  EXPECT_FALSE(has(CUPTI_ACTIVITY_KIND_KERNEL));
}

TEST(Tracer, KernelsGetTheModulePathOfTheirLaunch) {
  FakeCupti fake;
  Tracer tracer(fake, {});
  ASSERT_TRUE(tracer.start().ok());
  Driver d(tracer);
  d.push("encoder");
  d.push("layers.0");
  d.launch(10, "k_inner");
  d.push("aten::linear");  // an op range: not a module, scope unchanged
  d.launch(15, "k_op");
  d.pop();
  d.pop();
  d.launch(11, "k_encoder");
  d.pop();
  d.launch(12, "k_root");
  tracer.push_scope("decoder.attn");
  d.launch(13, "k_decoder", true, false);
  d.launch(14, "k_decoder_drv", false);  // the driver call nested inside the runtime launch
  d.exit(13);
  tracer.pop_scope();
  d.push_ex("decoder.attn.q_proj");  // a full path spelled by the range itself
  d.launch(16, "k_full");
  d.pop();

  ActivityBuffer buf;
  buf.add(kernel_record("k_inner", 10, 100, 200));
  buf.add(kernel_record("k_op", 15, 210, 220));
  buf.add(kernel_record("k_encoder", 11, 300, 400));
  buf.add(kernel_record("k_root", 12, 500, 600));
  buf.add(kernel_record("k_decoder_drv", 14, 700, 800));
  buf.add(kernel_record("k_full", 16, 850, 860));
  buf.add(kernel_record("k_orphan", 99, 900, 1000));
  tracer.handle_buffer(buf.data(), buf.size());
  tracer.stop();
  RunData run = tracer.take_run({});

  auto mods = kernel_modules(run);
  EXPECT_EQ(mods["k_inner"], "encoder.layers.0");
  EXPECT_EQ(mods["k_op"], "encoder.layers.0");
  EXPECT_EQ(mods["k_encoder"], "encoder");
  EXPECT_EQ(mods["k_root"], "");
  EXPECT_EQ(mods["k_decoder_drv"], "decoder.attn");
  EXPECT_EQ(mods["k_full"], "decoder.attn.q_proj");
  EXPECT_EQ(mods["k_orphan"], "");
  // The module tree holds every ancestor, parents before children.
  std::map<std::string, Id> ids;
  for (const auto& m : run.modules) ids[m.path] = m.id;
  ASSERT_TRUE(ids.count("decoder"));
  for (const auto& m : run.modules) {
    if (m.path == "decoder.attn") {
      EXPECT_EQ(m.parent_id, ids["decoder"]);
    }
    if (m.path.empty()) {
      EXPECT_EQ(m.parent_id, kNoId);
    }
  }
  const QualityIssue* orphan = find_issue(run, QualityCode::kernel_without_launch_scope);
  ASSERT_NE(orphan, nullptr);
  EXPECT_EQ(orphan->count, 1);
  EXPECT_EQ(fake.external_pushed.size(), 1u);
}

TEST(Tracer, CopiesAreAttributedThroughTheirRuntimeCall) {
  FakeCupti fake;
  Tracer tracer(fake, {});
  ASSERT_TRUE(tracer.start().ok());
  Driver d(tracer);
  d.push("io");
  d.runtime_call(201, "cudaMemcpyAsync", CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020);
  d.pop();
  ActivityBuffer buf;
  CUpti_ActivityMemcpy6 copy{};
  copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
  copy.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_DTOH;
  copy.bytes = 512;
  copy.start = 10;
  copy.end = 20;
  copy.correlationId = 200;         // the driver call inside cudaMemcpyAsync
  copy.runtimeCorrelationId = 201;  // cudaMemcpyAsync itself
  buf.add(copy);
  tracer.handle_buffer(buf.data(), buf.size());
  tracer.stop();
  RunData run = tracer.take_run({});
  ASSERT_EQ(run.kernels.size(), 1u);
  EXPECT_EQ(kernel_modules(run)["[memcpy DtoH]"], "io");
  EXPECT_DOUBLE_EQ(run.kernels[0].bytes, 512);
  EXPECT_EQ(find_issue(run, QualityCode::kernel_without_launch_scope), nullptr);
}

TEST(Tracer, UnbalancedPopIsCountedNotFatal) {
  FakeCupti fake;
  Tracer tracer(fake, {});
  ASSERT_TRUE(tracer.start().ok());
  Driver d(tracer);
  d.pop();
  tracer.stop();
  RunData run = tracer.take_run({});
  ASSERT_NE(find_issue(run, QualityCode::unbalanced_scope_pop), nullptr);
}

TEST(Tracer, GraphKernelsTakeTheScopeOfTheirNodeAtCapture) {
  FakeCupti fake;
  auto node = [](std::uintptr_t v) { return reinterpret_cast<CUgraphNode>(v); };
  fake.node_ids = {{node(0xA), 101}, {node(0xB), 102}, {node(0xA2), 201}, {node(0xB2), 202}};
  Tracer tracer(fake, {});
  ASSERT_TRUE(tracer.start().ok());
  Driver d(tracer);
  // Capture: nodes created inside their module's range.
  d.push("blocks.0");
  d.graph_node(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, node(0xA));
  d.pop();
  d.push("blocks.1");
  d.graph_node(CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED, node(0xB));
  d.pop();
  // Instantiation clones the nodes; the executed kernels carry the clones' ids.
  d.graph_node(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, node(0xA2), node(0xA));
  d.graph_node(CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED, node(0xB2), node(0xB));
  d.push("step");
  d.graph_launch(50);
  d.pop();

  ActivityBuffer buf;
  buf.add(kernel_record("g_a", 50, 100, 200, 1, 201));
  buf.add(kernel_record("g_b", 50, 200, 300, 1, 202));
  buf.add(kernel_record("g_unknown", 50, 300, 400, 1, 999));
  tracer.handle_buffer(buf.data(), buf.size());
  tracer.stop();
  RunData run = tracer.take_run({});
  auto mods = kernel_modules(run);
  EXPECT_EQ(mods["g_a"], "blocks.0");
  EXPECT_EQ(mods["g_b"], "blocks.1");
  EXPECT_EQ(mods["g_unknown"], "step");  // falls back to the graph launch's scope
  const QualityIssue* q = find_issue(run, QualityCode::graph_kernel_without_node_scope);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(q->count, 1);
  for (const auto& k : run.kernels) {
    if (k.name == "g_a") {
      EXPECT_EQ(k.graph_node_id, 201);
    }
  }
}

TEST(Tracer, AnotherSubscriberIsAClearError) {
  FakeCupti fake;
  fake.subscribe_result = CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED;
  fake.other_subscriber = "nsys";
  Tracer tracer(fake, {});
  Status s = tracer.start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("another CUDA profiler"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("nsys"), std::string::npos) << s.message();
  EXPECT_FALSE(tracer.started());
  // The failed tracer released the process-wide slot: another may start.
  FakeCupti ok;
  Tracer second(ok, {});
  EXPECT_TRUE(second.start().ok());
}

TEST(Tracer, NoDriverIsCuptisOwnMessage) {
  FakeCupti fake;
  fake.subscribe_result = CUPTI_ERROR_UNKNOWN;
  Tracer tracer(fake, {});
  Status s = tracer.start();
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("CUPTI_ERROR_UNKNOWN"), std::string::npos) << s.message();
}

TEST(Tracer, OnlyOneTracerPerProcess) {
  FakeCupti a, b;
  Tracer first(a, {});
  ASSERT_TRUE(first.start().ok());
  Tracer second(b, {});
  EXPECT_FALSE(second.start().ok());
}

}  // namespace
}  // namespace flopscope::gpu
