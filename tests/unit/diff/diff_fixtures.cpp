#include "diff_fixtures.h"

#include "db/model/sha256.h"

namespace flopscope::testing {
namespace {

struct Builder {
  RunData run;
  const FixtureOptions& o;
  Id next_op = 0;

  explicit Builder(const FixtureOptions& opts) : o(opts) {}

  int process_of(int iter) const { return iter * o.processes / o.iterations; }

  std::string full(const std::string& path) const { return path.empty() ? path : o.prefix + path; }

  Id module(const std::string& path, const std::string& type, Id parent) {
    ModuleRecord m;
    m.id = static_cast<Id>(run.modules.size());
    m.parent_id = parent;
    m.path = full(path);
    m.type = type;
    run.modules.push_back(m);
    return m.id;
  }

  void op(Id module, const std::string& name, std::vector<std::int64_t> shape, int iter, double us,
          double flops) {
    OpRecord r;
    r.id = next_op++;
    r.iteration = iter;
    r.sequence = r.id;
    r.name = name;
    r.module_id = module;
    OpArg a;
    a.is_tensor = true;
    a.dtype = "float32";
    a.shape = std::move(shape);
    r.args.push_back(a);
    // Deterministic jitter of +-2% so latency statistics have spread.
    double jitter = 1.0 + 0.01 * static_cast<double>((iter * 7) % 5 - 2);
    const int process = process_of(iter);
    const double level =
        static_cast<std::size_t>(process) < o.process_levels.size() ? o.process_levels[process] : 1.0;
    r.duration_ns = static_cast<std::int64_t>(us * 1000 * jitter * level * o.time_scale);
    r.start_ns = r.id * 1000000;
    r.flops = flops * o.flops_scale;
    r.bytes_read = flops / 10;
    r.flops_source = flops > 0 ? FlopsSource::kFormula : FlopsSource::kNone;
    run.ops.push_back(std::move(r));
  }

  void param(const std::string& name, Id module, std::int64_t numel, double max_abs, double nonzero,
             const std::string& seed) {
    ParamRecord p;
    p.id = static_cast<Id>(run.params.size());
    p.name = full(name);
    p.module_id = module;
    p.dtype = "float32";
    p.shape = {numel};
    p.numel = numel;
    p.bytes = numel * 4;
    p.max_abs = max_abs;
    p.l2 = max_abs;
    p.nonzero_fraction = nonzero;
    p.sha256 = sha256_hex(seed);
    run.params.push_back(std::move(p));
  }
};

}  // namespace

RunData make_run(Variant v, const FixtureOptions& o) {
  Builder b(o);
  b.run.info.source_path = v == Variant::kV1 ? "v1.pt" : v == Variant::kV2 ? "v2.pt" : "v2z.pt";
  b.run.info.device = "cpu";
  b.run.info.iterations = o.iterations;
  Id root = b.module("", "Sonnet", kNoId);
  Id layers = b.module("layers", "ModuleList", root);
  struct Layer {
    Id attn, q, bias, mlp;
  };
  std::vector<Layer> ls;
  for (int l = 0; l < o.layers; ++l) {
    std::string p = "layers." + std::to_string(l);
    Id block = b.module(p, "Block", layers);
    Layer x{};
    x.attn = b.module(p + ".attn", "Attention", block);
    x.q = b.module(p + ".attn.q_proj", "Linear", x.attn);
    x.bias = v == Variant::kV2 ? kNoId
                               : b.module(p + ".attn.position_adaptive_bias", "PositionAdaptiveBias", x.attn);
    x.mlp = b.module(p + ".mlp", "Linear", block);
    ls.push_back(x);
    b.param(p + ".attn.q_proj.weight", x.q, 64, 0.5, 1.0, p + "q");
    b.param(p + ".mlp.weight", x.mlp, 256, 0.7, 1.0, p + "mlp");
    if (v == Variant::kV1)
      b.param(p + ".attn.position_adaptive_bias.weight", x.bias, 16, 1e-7, 1.0, p + "bias");
    if (v == Variant::kV2z) b.param(p + ".attn.position_adaptive_bias.weight", x.bias, 16, 0, 0, p + "zero");
    if (v == Variant::kV2 && o.bias_params_without_module) {
      b.param(p + ".attn.position_adaptive_bias.weight", kNoId, 16, 1e-7, 1.0, p + "bias");
    }
  }
  for (int it = 0; it < o.iterations; ++it) {
    for (const auto& x : ls) {
      b.op(x.q, "aten::linear", {1, 16, 64}, it, 100, 1e6);
      if (x.bias != kNoId) {
        b.op(x.bias, "aten::linear", {1, 16, 64}, it, 40, 2e4);
        b.op(x.bias, "aten::log1p", {16, 16}, it, 10, 0);
      }
      b.op(x.attn, "aten::softmax", {1, 4, 16, 16}, it, 30, 0);
      b.op(x.mlp, "aten::linear", {1, 16, 256}, it, 200, 4e6);
    }
  }
  if (o.processes > 1) {
    for (int it = 0; it < o.iterations; ++it) b.run.iteration_processes.push_back({it, b.process_of(it)});
  }
  return b.run;
}

}  // namespace flopscope::testing
