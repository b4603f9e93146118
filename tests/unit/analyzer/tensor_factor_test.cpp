// Which architectures convert tensor-pipe instructions to FLOPs (only Volta: 512 per HMMA.884 step), and
// how device names and compute capabilities are recognised.
#include "analyzer/tensor_factor.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(TensorFactor, OnlyVoltaHasAFixedFactor) {
  auto v = tensor_pipe_factor("Tesla V100-SXM2-16GB");
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->architecture, "Volta");
  EXPECT_DOUBLE_EQ(v->flops_per_instruction, 512);  // 16 x 16 x 16 x 2 FLOPs over 16 HMMA.884 steps
  EXPECT_DOUBLE_EQ(v->flops_per_instruction, 16.0 * 16 * 16 * 2 / 16);
  for (const char* name : {"Tesla T4", "NVIDIA A100-SXM4-80GB", "NVIDIA L40S", "NVIDIA H100 80GB HBM3",
                           "NVIDIA H200", "NVIDIA B200"}) {
    auto f = tensor_pipe_factor(name);
    ASSERT_TRUE(f.has_value()) << name;
    EXPECT_FALSE(f->converts()) << name;
    EXPECT_FALSE(f->basis.empty()) << name;
  }
}

TEST(TensorFactor, CapabilitiesAndUnknownDevices) {
  EXPECT_EQ(tensor_pipe_factor("compute capability 7.0")->architecture, "Volta");
  EXPECT_EQ(tensor_pipe_factor("compute capability 7.5")->architecture, "Turing");
  EXPECT_EQ(tensor_pipe_factor("compute capability 8.6")->architecture, "Ampere");
  EXPECT_EQ(tensor_pipe_factor("compute capability 8.9")->architecture, "Ada");
  EXPECT_EQ(tensor_pipe_factor("compute capability 9.0")->architecture, "Hopper");
  EXPECT_EQ(tensor_pipe_factor("compute capability 10.0")->architecture, "Blackwell");
  EXPECT_EQ(tensor_pipe_factor("sm_70")->architecture, "Volta");
  EXPECT_EQ(tensor_pipe_factor("sm_90")->architecture, "Hopper");
  EXPECT_EQ(tensor_pipe_factor("sm_100")->architecture, "Blackwell");
  // Not NVIDIA, or not named: the count stays instructions.
  EXPECT_FALSE(tensor_pipe_factor("AMD Instinct MI300X").has_value());
  EXPECT_FALSE(tensor_pipe_factor("").has_value());
  EXPECT_FALSE(tensor_pipe_factor("compute capability 6.0").has_value());
}

}  // namespace
}  // namespace flopscope
