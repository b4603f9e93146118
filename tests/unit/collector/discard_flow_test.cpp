// Dead compute within one request: which ops only feed a multiplication by zero.
#include "collector/torch/discard_flow.h"

#include <gtest/gtest.h>

namespace flopscope {
namespace {

FlowOp op(Id id, std::vector<Id> producers, std::vector<bool> discarded = {}) {
  FlowOp o;
  o.op = id;
  o.producers = std::move(producers);
  o.discarded = discarded.empty() ? std::vector<bool>(o.producers.size(), false) : std::move(discarded);
  return o;
}

FlowOp zeroing(Id id, std::vector<Id> producers, std::vector<bool> discarded, std::string factor) {
  FlowOp o = op(id, std::move(producers), std::move(discarded));
  o.zeroing = true;
  o.zero_factor = std::move(factor);
  return o;
}

// x + alpha * f(norm(x)) with x from op 0: 1 = norm, 2 = up, 3 = relu, 4 = down, 5 = mul (alpha = 0), 6 =
// add.
void rezero(DiscardFlow& flow) {
  flow.add(op(0, {}));
  flow.add(op(1, {0}));
  flow.add(op(2, {1}));
  flow.add(op(3, {2}));
  flow.add(op(4, {3}));
  flow.add(zeroing(5, {4}, {true}, "block.alpha"));
  flow.add(op(6, {0, 5}));
  flow.output(6);
}

TEST(DiscardFlow, WorkFeedingOnlyAZeroMultiplicationIsDiscarded) {
  DiscardFlow flow;
  rezero(flow);
  std::vector<DiscardedOpRecord> want = {{1, 5, "block.alpha"},
                                         {2, 5, "block.alpha"},
                                         {3, 5, "block.alpha"},
                                         {4, 5, "block.alpha"},
                                         {5, 5, "block.alpha"}};
  EXPECT_EQ(flow.finish_request(), want);  // op 0 also feeds the residual add: kept
  // The next request starts empty.
  flow.add(op(7, {}));
  EXPECT_TRUE(flow.finish_request().empty());
}

TEST(DiscardFlow, AResultAlsoUsedElsewhereOrReturnedIsKept) {
  DiscardFlow flow;
  rezero(flow);
  flow.add(op(7, {3}));  // relu's result also feeds a live op with no consumer (it may leave unseen)
  auto got = flow.finish_request();
  std::vector<DiscardedOpRecord> want = {{4, 5, "block.alpha"}, {5, 5, "block.alpha"}};
  EXPECT_EQ(got, want);

  rezero(flow);
  flow.output(4);  // the model returns down's result too
  want = {{5, 5, "block.alpha"}};
  EXPECT_EQ(flow.finish_request(), want);
}

TEST(DiscardFlow, NoZeroMultiplicationNothingDiscarded) {
  DiscardFlow flow;
  flow.add(op(0, {}));
  flow.add(op(1, {0}));
  flow.add(op(2, {1}));
  flow.output(2);
  EXPECT_TRUE(flow.finish_request().empty());
}

TEST(DiscardFlow, ChainedZeroMultiplicationsBlameTheLastOne) {
  // 0 -> 1 (zeroing, discards 0) -> 2 (zeroing, discards 1) -> 3 (live).
  DiscardFlow flow;
  flow.add(op(0, {}));
  flow.add(zeroing(1, {0}, {true}, "a"));
  flow.add(zeroing(2, {1}, {true}, "b"));
  flow.add(op(3, {2}));
  flow.output(3);
  std::vector<DiscardedOpRecord> want = {{0, 1, "a"}, {1, 2, "b"}, {2, 2, "b"}};
  EXPECT_EQ(flow.finish_request(), want);
}

TEST(DiscardFlow, AProducerListedAfterItsConsumerIsIgnored) {
  DiscardFlow flow;
  flow.add(zeroing(1, {0}, {true}, "a"));  // "produced" by 0, which ends later: not a flow edge
  flow.add(op(0, {}));
  flow.add(op(2, {1}));
  flow.output(2);
  std::vector<DiscardedOpRecord> want = {{1, 1, "a"}};
  EXPECT_EQ(flow.finish_request(), want);
}

}  // namespace
}  // namespace flopscope
