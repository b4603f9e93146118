// Diff state of a node of the GUI's op graph (the module view uses the diff engine's Verdict instead).
#pragma once

namespace flopscope::gui {

enum class DiffStatus { kSame, kChanged, kVanished, kNew };
const char* to_string(DiffStatus s);

}  // namespace flopscope::gui
