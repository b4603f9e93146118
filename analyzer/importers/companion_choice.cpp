#include "analyzer/importers/companion_choice.h"

#include <fmt/format.h>

#include <algorithm>

namespace flopscope {
namespace {

// Why no process recorded a trace.
Status nothing_recorded(const std::vector<CompanionInfo>& infos, const CompanionRunContext& c) {
  const bool any_torch =
      std::any_of(infos.begin(), infos.end(), [](const auto& i) { return i.torch_imported; });
  const bool importable =
      std::all_of(infos.begin(), infos.end(), [](const auto& i) { return i.torch_importable; });
  if (!any_torch && !importable) {
    return NotFound(
        c.command +
        ": torch is not importable by this Python (install PyTorch for it, or run the Python that has it)");
  }
  int calls = 0, begun = 0;
  for (const auto& i : infos) {
    calls += i.root_calls;
    begun += i.iterations_begun;
  }
  if (calls == 0 && begun == 0) {
    return InvalidArgument(c.command + ": the program called no torch.nn.Module" +
                           (c.exit_code != 0 ? " before it " + c.how : std::string()) + ": nothing to trace");
  }
  const int warmup = infos.front().warmup;
  if (begun <= warmup) {
    return InvalidArgument(
        fmt::format("{}: the program ran {} iteration(s), all within --warmup {}: nothing recorded",
                    c.command, begun, warmup));
  }
  // Iterations past the warm-up ran, yet no trace came: say what the companion noted, never blame --warmup.
  std::string why;
  for (const auto& i : infos)
    if (why.empty() && !i.notes.empty()) why = i.notes.front();
  return Unavailable(
      fmt::format("{}: the program ran {} iteration(s) after --warmup {}, but the companion wrote "
                  "no trace{}{}",
                  c.command, begun, warmup, why.empty() ? "" : ": ", why));
}

std::vector<QualityIssue> recording_quality(const CompanionChoice& choice, const CompanionRunContext& c) {
  const CompanionInfo& info = *choice.chosen;
  std::vector<QualityIssue> q;
  q.emplace_back(QualityCode::recorded_by_trace, 1,
                 "torch " + info.torch_version + ", " +
                     (info.backend == "kineto" ? "torch.profiler (Kineto)"
                                               : "the profiler's event tree (this torch has no Kineto)") +
                     "; " + c.command);
  if (info.meta) {
    q.emplace_back(QualityCode::meta_device, 1);
    std::int64_t calls = 0;
    std::string listed;
    for (const auto& v : info.value_dependent) {
      calls += v.calls;
      if (listed.size() < 2000) {
        listed += fmt::format("{}{} in '{}' ({}x)", listed.empty() ? "" : ", ", v.op, v.path, v.calls);
      }
    }
    if (calls > 0) q.emplace_back(QualityCode::value_dependent_ops, calls, listed);
  }
  if (c.exit_code != 0)
    q.emplace_back(QualityCode::program_failed, 1, "the program " + c.how + "; " + c.command);
  if (!info.complete) {
    q.emplace_back(QualityCode::iterations_incomplete, 1,
                   fmt::format("recorded {} of the {} requested iterations", info.iterations,
                               info.iterations_requested));
  }
  if (choice.with_trace > 1) {
    q.emplace_back(QualityCode::several_processes, choice.with_trace - 1,
                   fmt::format("{} Python processes recorded traces; this run holds process {}'s",
                               choice.with_trace, info.pid));
  }
  if (c.activations && info.has_activations) {
    q.emplace_back(QualityCode::activation_statistics, static_cast<std::int64_t>(info.activations.size()),
                   fmt::format("{:.1f} ms computing statistics (left out of the trace's ops)",
                               info.activation_cost_ns / 1e6));
  }
  return q;
}

}  // namespace

Status check_companion_request(const std::vector<CompanionInfo>& infos, const CompanionRunContext& context) {
  for (const auto& info : infos) {
    if (!info.meta_refused.empty())
      return InvalidArgument(context.command + ": --meta: " + info.meta_refused);
  }
  return {};
}

StatusOr<CompanionChoice> choose_companion_run(const std::vector<CompanionInfo>& infos,
                                               const CompanionRunContext& context) {
  if (infos.empty()) return Internal(context.command + ": no companion information to import");
  FS_RETURN_IF_ERROR(check_companion_request(infos, context));
  CompanionChoice choice;
  for (const auto& info : infos) {
    if (info.trace.empty()) continue;
    ++choice.with_trace;
    if (choice.chosen == nullptr || info.pid == context.child_pid) choice.chosen = &info;
  }
  if (choice.chosen == nullptr) return nothing_recorded(infos, context);
  choice.quality = recording_quality(choice, context);
  return choice;
}

}  // namespace flopscope
