// The statuses of a diff, in a header of their own so that the graph model, the DOT writer and the GUI's
// graph items use the engine's words and colours (verdict_palette.h) without the whole engine (diff.h).
#pragma once

namespace flopscope {

// Which side has a module, op signature or graph node, and whether it changed: ops, kernels, FLOPs, bytes
// and output shapes only, never time. One word each, everywhere: VANISHED (A only), NEW (B only), CHANGED,
// UNCHANGED.
enum class DiffStatus { kVanished, kNew, kChanged, kUnchanged };
inline const char* to_string(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished:
      return "VANISHED";
    case DiffStatus::kNew:
      return "NEW";
    case DiffStatus::kChanged:
      return "CHANGED";
    case DiffStatus::kUnchanged:
      return "UNCHANGED";
  }
  return "?";
}

// The one status of a module in a diff (every report, count and GUI view shows this): structure joined
// with weights. Time is not part of it (see TimeStatus in diff.h).
//   VANISHED / NEW: its work left B / arrived in B (and it is gone from / new in the model);
//   DORMANT: weights zeroed (or its result multiplied by zero) while its compute still runs;
//   AMBIGUOUS: the evidence does not decide which module of B it is (correspondence.h): never proof;
//   NOT_RUN: still in B's model, but it ran no op on B's inputs;
//   UNWRAPPED / WRAPPED: a level that went away / appeared while everything below it (or its weights and
//   work) is matched on the other side: no cost of its own;
//   MOVED: the module's path changed but nothing else did; CHANGED; UNCHANGED.
enum class Verdict {
  kVanished,
  kNew,
  kDormant,
  kAmbiguous,
  kNotRun,
  kUnwrapped,
  kWrapped,
  kMoved,
  kChanged,
  kUnchanged
};
inline constexpr int kVerdictCount = 10;
const char* to_string(Verdict v);  // analyzer/diff/verdict_text.cpp

}  // namespace flopscope
