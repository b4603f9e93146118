#include "tests/unit/gui/fixture_runs.h"

#include <cmath>
#include <filesystem>
#include <random>
#include <stdexcept>

#include "db/run_database.h"

namespace flopscope::gui::testing {

namespace {

struct Builder {
  RunData run;
  std::mt19937 rng;
  std::int64_t clock = 0;
  std::int64_t sequence = 0;
  Id next_op = 1, next_kernel = 1, next_node = 1;
  int iteration = 0;
  bool kernels = true;
  bool record_graph = false;

  Id module(const std::string& path, const std::string& type, Id parent) {
    Id id = static_cast<Id>(run.modules.size()) + 1;
    run.modules.push_back({id, parent, path, type});
    return id;
  }

  Id find(const std::string& path) const {
    for (const auto& m : run.modules)
      if (m.path == path) return m.id;
    return kNoId;
  }

  // One op of `module`; returns its graph node id (when recording the graph) so edges can be added.
  Id op(const std::string& module_path, const std::string& name, double flops, double bytes,
        std::vector<Id> inputs = {}, double slow = 1.0) {
    std::normal_distribution<double> jitter(1.0, 0.06);
    double base = 1500 + flops / 40 + bytes / 20;
    // Every 7th iteration is slower (a noisy neighbour): the heatmap should show the stripe.
    if (iteration % 7 == 6) base *= 1.8;
    auto dur = static_cast<std::int64_t>(base * slow * std::max(0.7, jitter(rng)));
    OpRecord o;
    o.id = next_op++;
    o.iteration = iteration;
    o.sequence = sequence++;
    o.name = name;
    o.thread = 1;
    o.start_ns = clock;
    o.duration_ns = dur;
    o.module_id = find(module_path);
    o.flops = flops;
    o.macs = flops / 2;
    o.bytes_read = bytes * 0.7;
    o.bytes_written = bytes * 0.3;
    o.flops_source = flops > 0 ? FlopsSource::kFormula : FlopsSource::kNone;
    run.ops.push_back(o);
    if (kernels) {
      KernelRecord k;
      k.id = next_kernel++;
      k.name = name == "aten::linear" ? "sm90_xmma_gemm_f32f32_tf32f32_f32_tn_n"
                                      : "elementwise_kernel<" + name.substr(6) + ">";
      k.stream = 7;
      k.start_ns = clock + 400;
      k.duration_ns = std::max<std::int64_t>(200, dur / 2);
      k.iteration = iteration;
      k.op_id = o.id;
      k.module_id = o.module_id;
      k.has_counters = name == "aten::linear";
      k.flops_fp32 = k.has_counters ? flops : 0;
      run.kernels.push_back(k);
    }
    clock += dur + 300;
    if (!record_graph) return kNoId;
    GraphNode n;
    n.id = next_node++;
    n.kind = name;
    n.label = name.substr(6);
    n.module_id = o.module_id;
    n.module_path = module_path;
    run.graph_nodes.push_back(n);
    for (Id in : inputs)
      if (in != kNoId) run.graph_edges.push_back({in, n.id, ""});
    return n.id;
  }

  void param(const std::string& name, const std::string& module_path, std::vector<std::int64_t> shape,
             double max_abs) {
    ParamRecord p;
    p.id = static_cast<Id>(run.params.size()) + 1;
    p.name = name;
    p.module_id = find(module_path);
    p.dtype = "float32";
    p.shape = shape;
    p.numel = 1;
    for (auto d : shape) p.numel *= d;
    p.bytes = p.numel * 4;
    p.max_abs = max_abs;
    p.l2 = max_abs * std::sqrt(static_cast<double>(p.numel)) / 3;
    p.nonzero_fraction = max_abs > 0 ? 1.0 : 0.0;
    run.params.push_back(p);
  }
};

}  // namespace

RunData sonnet_run(const FixtureOptions& o) {
  Builder b;
  b.rng.seed(o.seed);
  b.kernels = o.kernels;
  const bool has_bias = o.variant != Variant::kV2;
  const double n = 512, d = 128, vocab = 512;
  auto& run = b.run;
  run.info.tool_version = "fixture";
  run.info.source_kind = SourceKind::kTorchCpu;
  run.info.source_path = o.variant == Variant::kV1   ? "sonnet-mini-v1.pt"
                         : o.variant == Variant::kV2 ? "sonnet-mini-v2.pt"
                                                     : "sonnet-mini-v2z.pt";
  run.info.device = "cpu";
  run.info.input_spec = "int64[1,512]";
  run.info.iterations = o.iterations;
  run.info.threads = 1;

  Id root = b.module("", "SonnetMini", kNoId);
  b.module("embed", "Embedding", root);
  Id layers = b.module("layers", "ModuleList", root);
  for (int l = 0; l < o.layers; ++l) {
    const std::string p = "layers." + std::to_string(l);
    Id block = b.module(p, "Block", layers);
    b.module(p + ".ln1", "LayerNorm", block);
    Id attn = b.module(p + ".attn", has_bias ? "AttentionWithBias" : "AttentionPlain", block);
    for (const char* proj : {"q_proj", "k_proj", "v_proj", "o_proj"})
      b.module(p + ".attn." + proj, "Linear", attn);
    if (has_bias) b.module(p + ".attn.position_adaptive_bias", "PositionAdaptiveBias", attn);
    b.module(p + ".ln2", "LayerNorm", block);
    Id mlp = b.module(p + ".mlp", "MLP", block);
    b.module(p + ".mlp.up", "Linear", mlp);
    b.module(p + ".mlp.act", "GELU", mlp);
    b.module(p + ".mlp.down", "Linear", mlp);
  }
  b.module("ln_f", "LayerNorm", root);
  b.module("lm_head", "Linear", root);

  const double lin = 2 * n * d * d, lin_bytes = 4 * (n * d * 2 + d * d);
  const double ew = n * d, ew_bytes = 4 * n * d * 2;
  for (int it = 0; it < o.iterations; ++it) {
    b.iteration = it;
    b.record_graph = it == 0;
    Id x = b.op("embed", "aten::embedding", 0, 4 * n * d);
    for (int l = 0; l < o.layers; ++l) {
      const std::string p = "layers." + std::to_string(l);
      Id h = b.op(p + ".ln1", "aten::layer_norm", 5 * ew, ew_bytes, {x});
      Id bias = kNoId;
      if (has_bias) {
        const std::string pab = p + ".attn.position_adaptive_bias";
        Id g = b.op(pab, "aten::linear", 2 * n * d * 2, 4 * (n * d + 2 * d), {h}, 4.0);
        Id pos = b.op(pab, "aten::arange", 0, 4 * n);
        Id rel = b.op(pab, "aten::sub", n * n, 4 * n * n * 2, {pos}, 4.0);
        rel = b.op(pab, "aten::abs", n * n, 4 * n * n * 2, {rel}, 4.0);
        rel = b.op(pab, "aten::log1p", n * n, 4 * n * n * 2, {rel}, 4.0);
        Id qg = b.op(pab, "aten::mul", n * n, 4 * n * n * 2, {g, rel}, 4.0);
        bias = b.op(pab, "aten::add", n * n, 4 * n * n * 2, {qg, g}, 4.0);
      }
      Id q = b.op(p + ".attn.q_proj", "aten::linear", lin, lin_bytes, {h});
      Id k = b.op(p + ".attn.k_proj", "aten::linear", lin, lin_bytes, {h});
      Id v = b.op(p + ".attn.v_proj", "aten::linear", lin, lin_bytes, {h});
      Id s = b.op(p + ".attn", "aten::matmul", 2 * n * n * d, 4 * (2 * n * d + 4 * n * n), {q, k});
      s = b.op(p + ".attn", "aten::mul", 4 * n * n, 4 * 4 * n * n * 2, {s});
      s = b.op(p + ".attn", "aten::add", 4 * n * n, 4 * 4 * n * n * 2, {s, bias});
      s = b.op(p + ".attn", "aten::masked_fill", 4 * n * n, 4 * 4 * n * n * 2, {s});
      s = b.op(p + ".attn", "aten::softmax", 5 * 4 * n * n, 4 * 4 * n * n * 2, {s});
      Id a = b.op(p + ".attn", "aten::matmul", 2 * n * n * d, 4 * (2 * n * d + 4 * n * n), {s, v});
      a = b.op(p + ".attn.o_proj", "aten::linear", lin, lin_bytes, {a});
      x = b.op(p, "aten::add", ew, ew_bytes, {x, a});
      Id h2 = b.op(p + ".ln2", "aten::layer_norm", 5 * ew, ew_bytes, {x});
      Id up = b.op(p + ".mlp.up", "aten::linear", 4 * lin, 4 * lin_bytes, {h2});
      up = b.op(p + ".mlp.act", "aten::gelu", 8 * 4 * ew, 4 * ew_bytes, {up});
      Id down = b.op(p + ".mlp.down", "aten::linear", 4 * lin, 4 * lin_bytes, {up});
      x = b.op(p, "aten::add", ew, ew_bytes, {x, down});
    }
    Id f = b.op("ln_f", "aten::layer_norm", 5 * ew, ew_bytes, {x});
    b.op("lm_head", "aten::linear", 2 * n * d * vocab, 4 * (n * d + d * vocab + n * vocab), {f});
    b.clock += 20000;
  }

  b.param("embed.weight", "embed", {512, 128}, 0.08);
  for (int l = 0; l < o.layers; ++l) {
    const std::string p = "layers." + std::to_string(l);
    for (const char* proj : {"q_proj", "k_proj", "v_proj", "o_proj"}) {
      b.param(p + ".attn." + proj + ".weight", p + ".attn." + proj, {128, 128}, 0.09);
      b.param(p + ".attn." + proj + ".bias", p + ".attn." + proj, {128}, 0.03);
    }
    if (has_bias)
      b.param(p + ".attn.position_adaptive_bias.weight", p + ".attn.position_adaptive_bias", {2, 128},
              o.variant == Variant::kV2z ? 0.0 : 3.1e-7);
    b.param(p + ".mlp.up.weight", p + ".mlp.up", {512, 128}, 0.09);
    b.param(p + ".mlp.down.weight", p + ".mlp.down", {128, 512}, 0.09);
  }
  b.param("lm_head.weight", "lm_head", {512, 128}, 0.09);
  run.quality.emplace_back(QualityCode::ops_without_flops_formula, 1, "aten::arange");
  return std::move(b.run);
}

RunData large_run(std::size_t kernels, int iterations) {
  RunData run;
  run.info.tool_version = "fixture";
  run.info.source_kind = SourceKind::kCupti;
  run.info.iterations = iterations;
  const int modules = 200;
  run.modules.push_back({1, kNoId, "", "Model"});
  for (int m = 0; m < modules; ++m) {
    Id block = 2 + m;
    run.modules.push_back({block, 1, "blocks." + std::to_string(m), "Block"});
  }
  const std::size_t per_iter = std::max<std::size_t>(1, kernels / static_cast<std::size_t>(iterations));
  run.ops.reserve(kernels);
  run.kernels.reserve(kernels);
  std::int64_t clock = 0;
  for (std::size_t i = 0; i < kernels; ++i) {
    const int it =
        static_cast<int>(std::min<std::size_t>(i / per_iter, static_cast<std::size_t>(iterations - 1)));
    const Id module = 2 + static_cast<Id>((i % per_iter) * modules / per_iter);
    OpRecord o;
    o.id = static_cast<Id>(i) + 1;
    o.iteration = it;
    o.sequence = static_cast<std::int64_t>(i);
    o.name = (i % 3) ? "aten::linear" : "aten::add";
    o.thread = 1;
    o.start_ns = clock;
    o.duration_ns = 900 + static_cast<std::int64_t>(i % 17) * 20;
    o.module_id = module;
    o.flops = (i % 3) ? 2.0e6 : 1.0e4;
    o.bytes_read = 4.0e4;
    o.flops_source = FlopsSource::kFormula;
    run.ops.push_back(o);
    KernelRecord k;
    k.id = o.id;
    k.name = (i % 3) ? "gemm_kernel" : "add_kernel";
    k.stream = 7;
    k.start_ns = clock + 300;
    k.duration_ns = 500 + static_cast<std::int64_t>(i % 13) * 10;
    k.iteration = it;
    k.op_id = o.id;
    k.module_id = module;
    run.kernels.push_back(k);
    clock += 1100;
  }
  return run;
}

void write_database(const RunData& run, const std::string& path) {
  std::filesystem::remove(path);
  auto sink = create_run_database(path, true);
  if (!sink.ok()) throw std::runtime_error(sink.status().message());
  Status s = write_run(**sink, run);  // ends with finish()
  if (!s.ok()) throw std::runtime_error(s.message());
}

}  // namespace flopscope::gui::testing
