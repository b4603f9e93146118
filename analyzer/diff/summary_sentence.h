// The one sentence every diff view opens with (the GUI headline, the first line of the terminal and
// Markdown reports, the top of the HTML page, JSON's summary.sentence, JUnit): what vanished, went dormant
// or appeared and what those modules cost where they run (labelled: the cost in A of removed modules is not
// the saving), the measured end-to-end change with its interval and significance, and the output
// comparison when one ran, e.g. "2 x position_adaptive_bias VANISHED (weights ERASED), cost in A of the
// removed modules: 1.05 MFLOPs, 4.19 MB, 120 µs per iteration (host time); measured end-to-end change:
// FLOPs -8.3%, bytes -2.1%, host time -130 µs [95% CI -150 µs, -110 µs], significant (faster); outputs
// equal to the last bit". Worded here once; front ends only escape it for their target.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace flopscope {

struct RunDiff;

struct SentencePart {
  std::string text;
  bool module = false;  // a module name or path: Markdown and HTML show it as code
};

struct SummarySentence {
  std::vector<SentencePart> parts;
  std::string text() const;  // the parts joined, as the terminal, JSON, JUnit and the GUI show it
};

// At most this many groups (same verdict, module name and weights) are named; the rest are counted.
inline constexpr std::size_t kSentenceGroups = 3;

SummarySentence summary_sentence(const RunDiff& d);

}  // namespace flopscope
