// nn.TransformerEncoderLayer's fast path: one aten::_transformer_encoder_layer_fwd call whose inner ops are
// given to self_attn, out_proj, norm1/norm2, linear1 and linear2, and the summary that moves their cost.
#include "analyzer/fused_split.h"

#include <gtest/gtest.h>

#include "analyzer/summary.h"

namespace flopscope {
namespace {

// The children torch 1.13 records under the fused op (norm_first=False), with their FLOPs; the fused op
// counts their sum, the children are nested.
RunData encoder_run(bool norm_first = false) {
  RunData r;
  r.modules = {{0, kNoId, "", "Net"},
               {1, 0, "layer", "TransformerEncoderLayer"},
               {2, 1, "layer.self_attn", "MultiheadAttention"},
               {3, 2, "layer.self_attn.out_proj", "NonDynamicallyQuantizableLinear"},
               {4, 1, "layer.linear1", "Linear"},
               {5, 1, "layer.linear2", "Linear"},
               {6, 1, "layer.norm1", "LayerNorm"},
               {7, 1, "layer.norm2", "LayerNorm"}};
  std::vector<std::pair<const char*, double>> kids = {{"aten::t", 0},
                                                      {"aten::mm", 300},
                                                      {"aten::_transform_bias_rescale_qkv", 20},
                                                      {"aten::bmm", 50},
                                                      {"aten::_softmax", 10},
                                                      {"aten::bmm", 50},
                                                      {"aten::t", 0},
                                                      {"aten::addmm", 100},
                                                      {"aten::add_", 5},
                                                      {"aten::layer_norm", 7},
                                                      {"aten::_addmm_activation", 200},
                                                      {"aten::addmm", 200},
                                                      {"aten::add_", 5},
                                                      {"aten::layer_norm", 7}};
  if (norm_first) {  // norm1 before the attention, norm2 before the FFN
    kids.erase(kids.begin() + 9);
    kids.insert(kids.begin(), {"aten::layer_norm", 7});
    kids.erase(kids.begin() + 13);
    kids.insert(kids.begin() + 10, {"aten::layer_norm", 7});
  }
  double total = 0;
  for (const auto& k : kids) total += k.second;
  OpRecord fused;
  fused.id = 0;
  fused.name = "aten::_transformer_encoder_layer_fwd";
  fused.module_id = 1;
  fused.duration_ns = 1000;
  fused.flops = total;
  fused.bytes_read = 1000;
  fused.flops_source = FlopsSource::kFormula;
  r.ops.push_back(fused);
  for (const auto& [name, flops] : kids) {
    OpRecord o;
    o.id = static_cast<Id>(r.ops.size());
    o.sequence = o.id;
    o.name = name;
    o.module_id = 1;
    o.parent_op_id = 0;
    o.depth = 1;
    o.duration_ns = 10;
    o.flops = flops;
    o.flops_source = FlopsSource::kNested;
    r.ops.push_back(o);
  }
  return r;
}

double flops_of(const RunSummary& s, const std::string& path) {
  return s.modules[static_cast<std::size_t>(s.find(path))].inclusive.flops;
}

TEST(FusedSplit, EncoderLayerCostGoesToItsSubmodules) {
  for (bool norm_first : {false, true}) {
    RunData r = encoder_run(norm_first);
    FusedSplit split = split_fused_ops(r);
    EXPECT_EQ(split.fused_ops, 1);
    EXPECT_EQ(split.unsplit_ops, 0);
    RunSummary s = summarize(r);
    EXPECT_DOUBLE_EQ(flops_of(s, "layer"), 954);  // unchanged: the fused op's count
    EXPECT_DOUBLE_EQ(flops_of(s, "layer.self_attn"), 300 + 20 + 50 + 10 + 50 + 100);
    EXPECT_DOUBLE_EQ(flops_of(s, "layer.self_attn.out_proj"), 100);
    EXPECT_DOUBLE_EQ(flops_of(s, "layer.linear1"), 200);
    EXPECT_DOUBLE_EQ(flops_of(s, "layer.linear2"), 200);
    EXPECT_DOUBLE_EQ(flops_of(s, "layer.norm1"), 7);
    EXPECT_DOUBLE_EQ(flops_of(s, "layer.norm2"), 7);
    const ModuleSummary& layer = s.modules[static_cast<std::size_t>(s.find("layer"))];
    EXPECT_DOUBLE_EQ(layer.self.flops, 10) << "norm_first " << norm_first;  // the residual adds
    EXPECT_DOUBLE_EQ(layer.inclusive.bytes(), 1000);                        // bytes split, not added
    // Time moves with the inner ops: 10 ns each, the layer keeps the rest of its 1000 ns.
    EXPECT_DOUBLE_EQ(s.modules[static_cast<std::size_t>(s.find("layer.linear1"))].inclusive_time.p50, 10);
    EXPECT_DOUBLE_EQ(layer.inclusive_time.p50, 1000);
    // Each submodule runs once per fused call (self_attn once, though its ops are not contiguous).
    for (const char* path : {"layer.self_attn", "layer.self_attn.out_proj", "layer.linear1", "layer.norm2"})
      EXPECT_DOUBLE_EQ(s.modules[static_cast<std::size_t>(s.find(path))].calls, 1) << path;
  }
}

TEST(FusedSplit, UnknownOrderIsLeftWhole) {
  RunData r = encoder_run();
  // No attention scores (another torch version's kernels): the products cannot be told apart.
  std::erase_if(r.ops, [](const OpRecord& op) { return op.name == "aten::bmm"; });
  FusedSplit split = split_fused_ops(r);
  EXPECT_EQ(split.fused_ops, 0);
  EXPECT_EQ(split.unsplit_ops, 1);
  for (const auto& op : r.ops) EXPECT_EQ(op.module_id, 1);
}

}  // namespace
}  // namespace flopscope
