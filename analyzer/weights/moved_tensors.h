// Where the tensors that the name join left unpaired went: ERASED means gone, so a tensor of A whose name B
// lacks is looked up by its content among B's tensors before it is called REMOVED, and a tensor only in B is
// NEW only when it is not A's content under a new name.
#pragma once

#include <vector>

#include "analyzer/weights/weights.h"

namespace flopscope {

// Turns the REMOVED and NEW rows of a name join (compare_weights) whose content the other side holds into
// MOVED rows, in this order of evidence:
//  1. a removed tensor and a tensor only in B with equal content hashes, one to one;
//  2. then similar content (sketch cosine, tensor_similarity.h), the most similar pairs first, one to one;
//  3. then any tensor of B that holds a removed tensor's content, also one B keeps under another A name;
//  4. a tensor only in B that holds the content of a tensor A keeps: MOVED with that A tensor as `a`;
//  5. a constant tensor (a zero bias: its values say nothing) follows its module's other tensors when they
//     all moved to one B module that has a tensor of the same leaf name and equal content.
// B-only rows paired with a removed tensor are dropped (the MOVED row is their row).
void find_moved_tensors(const WeightsReport& a, const WeightsReport& b, std::vector<TensorComparison>& rows);

}  // namespace flopscope
