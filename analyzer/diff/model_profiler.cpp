#include "analyzer/diff/model_profiler.h"

namespace flopscope {
namespace {
ModelProfiler& slot() {
  static ModelProfiler profiler;
  return profiler;
}
}  // namespace

void set_model_profiler(ModelProfiler profiler) { slot() = std::move(profiler); }
const ModelProfiler& model_profiler() { return slot(); }

}  // namespace flopscope
