// The timeline index is the analysis facade's (analyzer/analysis/timeline_index.h, RunAnalysis::timeline);
// the GUI's models and views name it here.
#pragma once

#include "analyzer/analysis/timeline_index.h"

namespace flopscope::gui {

using flopscope::TimelineEvent;
using flopscope::TimelineIndex;
using flopscope::TimelineLane;
using flopscope::TimelineSpan;

}  // namespace flopscope::gui
