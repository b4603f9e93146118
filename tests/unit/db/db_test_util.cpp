#include "db_test_util.h"

#include <cmath>
#include <limits>
#include <tuple>

#include "db/run_database.h"

namespace flopscope::testing {

::testing::AssertionResult write_run_file(const std::string& path, const RunData& run) {
  auto sink = create_run_database(path, true);
  if (!sink.ok()) return ::testing::AssertionFailure() << sink.status().message();
  if (Status s = write_run(**sink, run); !s.ok()) return ::testing::AssertionFailure() << s.message();
  return ::testing::AssertionSuccess();
}

RunData sample_run() {
  RunData r;
  r.info = {"0.1.0-test",
            SourceKind::kCupti,
            "/models/sonnet-mini v1.pt",
            std::string(64, 'a'),
            "NVIDIA H100 80GB HBM3",
            "gpu-host-7",
            "int64[1,4096]; float32[1,4096]",
            5,
            2,
            8,
            1'767'225'600'123'456'789,
            "flopscope profile 'it''s.pt' --iters 5",
            "--iteration-marker 'it''s'"};
  r.modules = {{0, kNoId, "", "SonnetMini"},
               {1, 0, "layers", "ModuleList"},
               {2, 1, "layers.0", "Block"},
               {3, 2, "layers.0.attn.q_proj", "Linear"}};
  OpRecord linear;
  linear.id = 10;
  linear.iteration = 3;
  linear.sequence = 12345678901;
  linear.name = "aten::linear";
  linear.thread = 140234567890123;
  linear.start_ns = 987654321012;
  linear.duration_ns = 4567;
  linear.module_id = 3;
  linear.parent_op_id = kNoId;
  linear.depth = 0;
  linear.args = {{true, "float32", {1, 4096, 64}, ""},
                 {true, "bfloat16", {}, ""},  // a 0-dim tensor: distinct from a scalar
                 {false, "int64", {}, "[1, 1]"},
                 {false, "", {}, "False"},
                 {false, "", {}, "quote \" back\\slash \u00e9 tab\t"}};
  linear.flops = 2.0 * 4096 * 64 * 64 + 0.5;
  linear.macs = 4096.0 * 64 * 64;
  linear.bytes_read = 1.25e9;
  linear.bytes_written = 3.5e-3;
  linear.flops_source = FlopsSource::kFormula;
  linear.flops_note = "2*M*N*K + M*N (bias)";
  OpRecord addmm = linear;
  addmm.id = 11;
  addmm.sequence = 12345678902;
  addmm.name = "aten::addmm";
  addmm.parent_op_id = 10;
  addmm.depth = 1;
  addmm.args = {};
  addmm.flops_source = FlopsSource::kNested;
  addmm.flops_note = "";
  OpRecord gelu = linear;
  gelu.id = 12;
  gelu.module_id = kNoId;
  gelu.flops_source = FlopsSource::kNone;
  gelu.flops = -1.0;
  r.ops = {linear, addmm, gelu};

  KernelRecord k;
  k.id = 100;
  k.kind = KernelKind::kKernel;
  k.name = "ampere_sgemm_128x64_tn";
  k.device = 3;
  k.stream = 7;
  k.start_ns = 123456789012345;
  k.duration_ns = 8901;
  k.grid = {128, 2, 3};
  k.block = {256, 4, 1};
  k.correlation = 424242;
  k.iteration = 4;
  k.op_id = 11;
  k.module_id = 3;
  k.graph_id = 9;
  k.graph_node_id = 99;
  k.has_counters = true;
  k.flops_fp64 = 1.5;
  k.flops_fp32 = 2.5e12;
  k.flops_fp16 = 3.25;
  k.tensor_ops = 4.125e9;
  k.tensor_pipe_inst = 8.5e6;
  k.dram_bytes = 1.1e7;
  k.dram_bytes_read = 5e6;
  k.dram_bytes_written = 6e6;
  k.l2_bytes = 7.75e7;
  k.bytes = 0.125;
  k.launch = {"cuLaunchKernelEx", 123456788000000, 12250, 31337};
  KernelRecord copy;
  copy.id = 101;
  copy.kind = KernelKind::kMemcpy;
  copy.name = "Memcpy HtoD";
  copy.bytes = 16384;
  KernelRecord set;
  set.id = 102;
  set.kind = KernelKind::kMemset;
  set.name = "Memset";
  r.kernels = {k, copy, set};

  r.params = {{20,
               "layers.0.attn.q_proj.weight",
               3,
               "float32",
               {64, 64},
               4096,
               16384,
               1.234567890123,
               0.5,
               0.999,
               std::string(64, 'f'),
               {},
               -0.125},
              {21, "scale", kNoId, "float16", {}, 1, 2, 0.0, 0.0, 0.0, "", {}, 0.0}};
  // A content sketch with values whose every bit must come back (negative zero, a subnormal, an integer past
  // 2^53's neighbours).
  r.params[0].sketch.assign(static_cast<std::size_t>(kSketchBuckets), 0.0);
  for (int b = 0; b < kSketchBuckets; ++b) {
    r.params[0].sketch[static_cast<std::size_t>(b)] = 1.0 / (b + 3) - 0.1 * b;
  }
  r.params[0].sketch[1] = -0.0;
  r.params[0].sketch[2] = std::numeric_limits<double>::denorm_min();
  r.params[0].sketch[3] = 9007199254740993.0;
  r.graph_nodes = {{30, "input", "x", kNoId, "", "int64[1,4096]"},
                   {31, "aten::linear", "q_proj", 3, "layers.0.attn.q_proj", "float32[1,4096,64]"}};
  r.graph_edges = {{30, 31, "int64[1,4096]"}, {31, 30, ""}};
  r.quality = {{QualityCode::ops_without_flops_formula, 17, "aten::gelu: 3.2% of op time"},
               {QualityCode::correlation_launched_twice, 2, ""},
               {QualityCode::host_op_partial_overlap, 1, "aten::add"}};
  ActivationRecord act;
  act.module_id = 3;
  act.iteration = 2;
  act.call = 5;
  act.input_tag = "long-prompts";
  act.numel = 262144;
  act.out_l2 = 12.375;
  act.out_max_abs = 0.75;
  act.out_zero_fraction = 0.125;
  act.has_rel_change = true;
  act.rel_change = 1.5e-7;
  ActivationRecord no_change = act;
  no_change.module_id = 2;
  no_change.input_tag = "";
  no_change.has_rel_change = false;
  no_change.rel_change = 0;
  no_change.out_l2 = std::numeric_limits<double>::quiet_NaN();  // NaN outputs are recorded, not refused
  r.activations = {act, no_change};
  r.discarded = {{10, 12, "layers.0.alpha"}, {12, 12, "layers.0.alpha"}, {11, 11, "scalar 0"}};
  r.iteration_processes = {{3, 0}, {4, 1}};  // trace --repeat: which process ran each iteration
  // profile --save-outputs: a tuple (logits float32 [2, 3], ids int64 [2]) and, on a second input, a
  // summarized tensor with NaN.
  OutputTensor logits;
  logits.name = "0";
  logits.dtype = "float32";
  logits.shape = {2, 3};
  logits.values = {0.5, -1.25, 2.0, 3.0, 0.0, -0.5};
  logits.sha256 = "ab12";
  fill_output_statistics(logits);
  OutputTensor ids;
  ids.name = "1.ids";
  ids.dtype = "int64";
  ids.shape = {2};
  ids.values = {9007199254740991.0, -7};
  ids.sha256 = "cd34";
  fill_output_statistics(ids);
  OutputTensor big = logits;
  big.values.push_back(std::numeric_limits<double>::quiet_NaN());
  big.shape = {7};
  fill_output_statistics(big);
  big.values.clear();
  big.summarized = true;
  r.outputs = {{0, "hash-a", "long-prompts", {logits, ids}}, {1, "hash-b", "", {big}}};
  // profile_memory: an allocation on cuda:0 with the allocator's totals, a free on the CPU without them.
  MemoryEvent alloc;
  alloc.ts_ns = 120;
  alloc.thread = 7;
  alloc.bytes = 4096;
  alloc.total_allocated = 8192;
  alloc.total_reserved = 2097152;
  alloc.addr = 140000000000;
  alloc.device_type = 1;
  alloc.device_id = 0;
  MemoryEvent free_cpu;
  free_cpu.ts_ns = 130;
  free_cpu.thread = 8;
  free_cpu.bytes = -64;
  r.memory_events = {alloc, free_cpu};
  return r;
}

void expect_equal(const RunInfo& a, const RunInfo& b) {
  const auto& [tool, kind, path, sha, device, host, input, iters, warmup, threads, created, cmd, from] = a;
  EXPECT_EQ(tool, b.tool_version);
  EXPECT_EQ(kind, b.source_kind);
  EXPECT_EQ(path, b.source_path);
  EXPECT_EQ(sha, b.source_sha256);
  EXPECT_EQ(device, b.device);
  EXPECT_EQ(host, b.host);
  EXPECT_EQ(input, b.input_spec);
  EXPECT_EQ(iters, b.iterations);
  EXPECT_EQ(warmup, b.warmup);
  EXPECT_EQ(threads, b.threads);
  EXPECT_EQ(created, b.created_unix_ns);
  EXPECT_EQ(cmd, b.command_line);
  EXPECT_EQ(from, b.iterations_from);
}

void expect_equal(const ModuleRecord& a, const ModuleRecord& b) {
  const auto& [id, parent, path, type] = a;
  EXPECT_EQ(id, b.id);
  EXPECT_EQ(parent, b.parent_id);
  EXPECT_EQ(path, b.path);
  EXPECT_EQ(type, b.type);
}

void expect_equal(const OpRecord& a, const OpRecord& b) {
  const auto& [id, iteration, sequence, name, thread, start, duration, module, parent, depth, args, flops,
               macs, read, written, source, note] = a;
  SCOPED_TRACE("op " + std::to_string(id));
  EXPECT_EQ(id, b.id);
  EXPECT_EQ(iteration, b.iteration);
  EXPECT_EQ(sequence, b.sequence);
  EXPECT_EQ(name, b.name);
  EXPECT_EQ(thread, b.thread);
  EXPECT_EQ(start, b.start_ns);
  EXPECT_EQ(duration, b.duration_ns);
  EXPECT_EQ(module, b.module_id);
  EXPECT_EQ(parent, b.parent_op_id);
  EXPECT_EQ(depth, b.depth);
  ASSERT_EQ(args.size(), b.args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const auto& [is_tensor, dtype, shape, value] = args[i];
    EXPECT_EQ(is_tensor, b.args[i].is_tensor) << "arg " << i;
    EXPECT_EQ(dtype, b.args[i].dtype) << "arg " << i;
    EXPECT_EQ(shape, b.args[i].shape) << "arg " << i;
    EXPECT_EQ(value, b.args[i].value) << "arg " << i;
  }
  EXPECT_EQ(flops, b.flops);
  EXPECT_EQ(macs, b.macs);
  EXPECT_EQ(read, b.bytes_read);
  EXPECT_EQ(written, b.bytes_written);
  EXPECT_EQ(source, b.flops_source);
  EXPECT_EQ(note, b.flops_note);
}

void expect_equal(const KernelRecord& a, const KernelRecord& b) {
  const auto& [id, kind, name, device, stream, start, duration, grid, block, correlation, iteration, op,
               module, graph, graph_node, has_counters, fp64, fp32, fp16, tensor, tensor_inst, dram,
               dram_read, dram_written, l2, bytes, launch] = a;
  SCOPED_TRACE("kernel " + std::to_string(id));
  EXPECT_EQ(id, b.id);
  EXPECT_EQ(kind, b.kind);
  EXPECT_EQ(name, b.name);
  EXPECT_EQ(device, b.device);
  EXPECT_EQ(stream, b.stream);
  EXPECT_EQ(start, b.start_ns);
  EXPECT_EQ(duration, b.duration_ns);
  EXPECT_EQ(grid, b.grid);
  EXPECT_EQ(block, b.block);
  EXPECT_EQ(correlation, b.correlation);
  EXPECT_EQ(iteration, b.iteration);
  EXPECT_EQ(op, b.op_id);
  EXPECT_EQ(module, b.module_id);
  EXPECT_EQ(graph, b.graph_id);
  EXPECT_EQ(graph_node, b.graph_node_id);
  EXPECT_EQ(has_counters, b.has_counters);
  EXPECT_EQ(fp64, b.flops_fp64);
  EXPECT_EQ(fp32, b.flops_fp32);
  EXPECT_EQ(fp16, b.flops_fp16);
  EXPECT_EQ(tensor, b.tensor_ops);
  EXPECT_EQ(tensor_inst, b.tensor_pipe_inst);
  EXPECT_EQ(dram, b.dram_bytes);
  EXPECT_EQ(dram_read, b.dram_bytes_read);
  EXPECT_EQ(dram_written, b.dram_bytes_written);
  EXPECT_EQ(l2, b.l2_bytes);
  EXPECT_EQ(bytes, b.bytes);
  EXPECT_EQ(launch.name, b.launch.name);
  EXPECT_EQ(launch.start_ns, b.launch.start_ns);
  EXPECT_EQ(launch.duration_ns, b.launch.duration_ns);
  EXPECT_EQ(launch.thread, b.launch.thread);
}

void expect_equal(const ParamRecord& a, const ParamRecord& b) {
  const auto& [id, name, module, dtype, shape, numel, bytes, l2, max_abs, nonzero, sha, sketch, sum] = a;
  SCOPED_TRACE("param " + std::to_string(id));
  EXPECT_EQ(id, b.id);
  EXPECT_EQ(name, b.name);
  EXPECT_EQ(module, b.module_id);
  EXPECT_EQ(dtype, b.dtype);
  EXPECT_EQ(shape, b.shape);
  EXPECT_EQ(numel, b.numel);
  EXPECT_EQ(bytes, b.bytes);
  EXPECT_EQ(l2, b.l2);
  EXPECT_EQ(max_abs, b.max_abs);
  EXPECT_EQ(nonzero, b.nonzero_fraction);
  EXPECT_EQ(sha, b.sha256);
  EXPECT_EQ(sketch, b.sketch);
  EXPECT_EQ(sum, b.sum);
}

void expect_equal(const GraphNode& a, const GraphNode& b) {
  const auto& [id, kind, label, module, module_path, shapes] = a;
  EXPECT_EQ(id, b.id);
  EXPECT_EQ(kind, b.kind);
  EXPECT_EQ(label, b.label);
  EXPECT_EQ(module, b.module_id);
  EXPECT_EQ(module_path, b.module_path);
  EXPECT_EQ(shapes, b.output_shapes);
}

void expect_equal(const GraphEdge& a, const GraphEdge& b) {
  const auto& [src, dst, label] = a;
  EXPECT_EQ(src, b.src);
  EXPECT_EQ(dst, b.dst);
  EXPECT_EQ(label, b.label);
}

void expect_equal(const QualityIssue& a, const QualityIssue& b) {
  const auto& [code, count, severity, detail] = a;
  EXPECT_EQ(code, b.code);
  EXPECT_EQ(count, b.count);
  EXPECT_EQ(severity, b.severity);
  EXPECT_EQ(detail, b.detail);
}

void expect_equal(const ActivationRecord& a, const ActivationRecord& b) {
  const auto& [module, iteration, call, tag, numel, l2, max_abs, zero_fraction, has_change, change] = a;
  SCOPED_TRACE("activation of module " + std::to_string(module));
  EXPECT_EQ(module, b.module_id);
  EXPECT_EQ(iteration, b.iteration);
  EXPECT_EQ(call, b.call);
  EXPECT_EQ(tag, b.input_tag);
  EXPECT_EQ(numel, b.numel);
  if (std::isnan(l2)) {
    EXPECT_TRUE(std::isnan(b.out_l2));
  } else {
    EXPECT_EQ(l2, b.out_l2);
  }
  EXPECT_EQ(max_abs, b.out_max_abs);
  EXPECT_EQ(zero_fraction, b.out_zero_fraction);
  EXPECT_EQ(has_change, b.has_rel_change);
  EXPECT_EQ(change, b.rel_change);
}

namespace {
template <typename T>
void expect_all_equal(const std::vector<T>& a, const std::vector<T>& b, const char* what) {
  ASSERT_EQ(a.size(), b.size()) << what;
  for (std::size_t i = 0; i < a.size(); ++i) expect_equal(a[i], b[i]);
}
}  // namespace

void expect_equal(const RunData& a, const RunData& b) {
  // aggregates, raw_rows and summary_facts are derived from the rows, not stored fields:
  // tests/unit/diff/aggregates_test.cpp and summary_facts_test.cpp.
  const auto& [info, modules, ops, kernels, params, nodes, edges, activations, discarded, quality, outputs,
               iteration_processes, memory_events, aggregates, raw_rows, summary_facts] = a;
  (void)aggregates;
  (void)raw_rows;
  (void)summary_facts;
  expect_equal(info, b.info);
  expect_all_equal(modules, b.modules, "modules");
  expect_all_equal(ops, b.ops, "ops");
  expect_all_equal(kernels, b.kernels, "kernels");
  expect_all_equal(params, b.params, "params");
  expect_all_equal(nodes, b.graph_nodes, "graph nodes");
  expect_all_equal(edges, b.graph_edges, "graph edges");
  expect_all_equal(quality, b.quality, "quality");
  expect_all_equal(activations, b.activations, "activations");
  EXPECT_EQ(discarded, b.discarded);
  EXPECT_EQ(iteration_processes, b.iteration_processes);
  EXPECT_EQ(outputs, b.outputs);
  ASSERT_EQ(memory_events.size(), b.memory_events.size());
  for (std::size_t i = 0; i < memory_events.size(); ++i) {
    const MemoryEvent &x = memory_events[i], &y = b.memory_events[i];
    EXPECT_EQ(std::tie(x.ts_ns, x.thread, x.bytes, x.total_allocated, x.total_reserved, x.addr, x.device_type,
                       x.device_id),
              std::tie(y.ts_ns, y.thread, y.bytes, y.total_allocated, y.total_reserved, y.addr, y.device_type,
                       y.device_id))
        << "memory event " << i;
  }
}

}  // namespace flopscope::testing
