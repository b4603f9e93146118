#include "db/model/status.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

StatusOr<int> parse_positive(int v) {
  if (v <= 0) return InvalidArgument("not positive: " + std::to_string(v));
  return v;
}

Status twice(int v, int* out) {
  FS_ASSIGN_OR_RETURN(int x, parse_positive(v));
  *out = 2 * x;
  return {};
}

TEST(Status, PropagatesErrorsWithContext) {
  int out = 0;
  EXPECT_TRUE(twice(3, &out).ok());
  EXPECT_EQ(out, 6);
  Status s = twice(-1, &out).WithContext("model.pt");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "model.pt: not positive: -1");
}

}  // namespace
}  // namespace flopscope
