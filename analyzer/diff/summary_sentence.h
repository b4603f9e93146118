// The one sentence every diff view opens with (the GUI headline, the first line of the terminal and
// Markdown reports, the top of the HTML page, JSON's summary.sentence, JUnit): what vanished, went dormant
// or appeared, what that saves or costs per iteration, and the measured end-to-end change, e.g.
// "2 x position_adaptive_bias VANISHED (weights ERASED): -1.05 MFLOPs, -4.19 MB, -120 µs host time per
// iteration; end to end: FLOPs -8.3%, bytes -2.1%, host time -130 µs (95% CI [-150 µs, -110 µs]), faster".
// Worded here once; front ends only escape it for their target.
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
