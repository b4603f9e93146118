// CI gates over a diff. Each gate is one pass/fail check with a one-line message; the CLI exits 1 when
// any fails. --expect-vanished GLOB: every module of A matching GLOB runs no op in B (and at least one
// matches). --forbid-active GLOB: nothing matching GLOB is alive in B: no module running ops, no parameter
// with a non-zero value. --max-regression time=5%,flops=0.5%,bytes=1%: end-to-end growth limits (time
// only when the increase is statistically significant).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "analyzer/diff/diff.h"

namespace flopscope {

struct RegressionLimits {
  std::optional<double> time, flops, bytes, ops, kernels;  // fractions: 0.05 = 5%
};

// "time=5%,flops=0.5%,bytes=1%" (a bare number is a fraction: 0.05 = 5%).
StatusOr<RegressionLimits> parse_regression_limits(const std::string& spec);

struct GateOptions {
  std::vector<std::string> expect_vanished;
  std::vector<std::string> forbid_active;
  std::optional<RegressionLimits> max_regression;
};

struct GateResult {
  std::string name;  // e.g. "expect-vanished *position_adaptive_bias*"
  bool passed = false;
  std::string message;
  // The gate cannot be evaluated (its glob matches a module whose attribution is ambiguous): the CLI
  // exits 2 with the message instead of passing or failing.
  bool error = false;
};

std::vector<GateResult> evaluate_gates(const RunDiff& diff, const GateOptions& options);

// The readings an AMBIGUOUS group leaves open and the --map-b options that declare each.
std::string ambiguity_text(const AmbiguousGroup& g);

// Glob as in the shell: * and ? match any character including '.'.
bool glob_match(const std::string& pattern, const std::string& text);

}  // namespace flopscope
