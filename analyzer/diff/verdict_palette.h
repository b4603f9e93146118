// The one palette of diff verdicts: every front end that colours a verdict (the GUI's tree and diff table,
// the diff graph, the HTML report) takes its colour from here, so VANISHED reads the same everywhere: red,
// as removed lines in a code diff, NEW green, CHANGED orange. A graph node's or op signature's DiffStatus
// takes the colour of the verdict of the same word. Header-only (it needs only the enums of
// diff_status.h), so the graph library uses it without linking the diff engine.
#pragma once

#include "analyzer/diff/diff_status.h"

namespace flopscope {

struct VerdictColor {
  const char* text;  // "#rrggbb": text, borders and edges
  const char* fill;  // "#rrggbb": a light background for boxes of that verdict
};

inline VerdictColor verdict_color(Verdict v) {
  switch (v) {
    case Verdict::kVanished:
      return {"#d62728", "#fde0dd"};
    case Verdict::kNew:
      return {"#2ca02c", "#e5f5e0"};
    case Verdict::kChanged:
      return {"#ff7f0e", "#fee6ce"};
    case Verdict::kDormant:
      return {"#8d4e00", "#f3e5d0"};  // weights zeroed, compute still paid for
    case Verdict::kAmbiguous:
      return {"#6a1b9a", "#ede0f5"};  // never proof: its own colour
    case Verdict::kNotRun:
      return {"#ad1457", "#f8e0ea"};
    case Verdict::kMoved:
    case Verdict::kUnwrapped:
    case Verdict::kWrapped:
      return {"#616161", "#eeeeee"};  // a path or a level changed, nothing else
    case Verdict::kUnchanged:
      break;
  }
  return {"#777777", "#ffffff"};
}

// The verdict a structural status is drawn as: VANISHED as VANISHED, and so on.
inline Verdict verdict_of_status(DiffStatus s) {
  switch (s) {
    case DiffStatus::kVanished:
      return Verdict::kVanished;
    case DiffStatus::kNew:
      return Verdict::kNew;
    case DiffStatus::kChanged:
      return Verdict::kChanged;
    case DiffStatus::kUnchanged:
      break;
  }
  return Verdict::kUnchanged;
}

inline VerdictColor diff_status_color(DiffStatus s) {
  return verdict_color(verdict_of_status(s));
}

}  // namespace flopscope
