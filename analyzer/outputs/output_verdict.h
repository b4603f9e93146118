// The few words on outputs that close a diff's summary sentence (analyzer/diff/summary_sentence.cpp),
// worded beside output_line so that the two never disagree.
#pragma once

#include <string>

#include "analyzer/outputs/output_compare.h"

namespace flopscope {

// The short verdict the diff's summary sentence closes with ("" when neither side has outputs): "outputs
// equal to the last bit", "outputs equal in value", "outputs equivalent within 1e-6", "outputs CHANGED
// (relative change 3.0e-2)", "outputs differ (a side was summarized)", or "outputs: REASON" when they could
// not be compared.
std::string output_verdict(const OutputComparison& c);

}  // namespace flopscope
