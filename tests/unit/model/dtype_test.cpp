#include "db/model/dtype.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

TEST(Dtype, NormalisesNamesFromEverySource) {
  EXPECT_EQ(normalize_dtype("float"), "float32");
  EXPECT_EQ(normalize_dtype("c10::BFloat16"), "bfloat16");
  EXPECT_EQ(normalize_dtype("torch.float16"), "float16");
  EXPECT_EQ(normalize_dtype("F32"), "float32");
  EXPECT_EQ(normalize_dtype("Float"), "float32");  // c10::toString(ScalarType)
  EXPECT_EQ(normalize_dtype("Long"), "int64");
  EXPECT_EQ(normalize_dtype("long int"), "int64");
  EXPECT_EQ(normalize_dtype("Scalar"), "Scalar");  // not a dtype: unchanged
  EXPECT_EQ(dtype_size("bfloat16"), 2);
  EXPECT_EQ(dtype_size("int64"), 8);
  EXPECT_EQ(dtype_size("Scalar"), 0);
  EXPECT_TRUE(is_floating_dtype("float16"));
  EXPECT_FALSE(is_floating_dtype("int8"));
}

}  // namespace
}  // namespace flopscope
