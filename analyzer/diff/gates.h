// CI gates over a diff. Each gate is one pass/fail check with a one-line message; the CLI exits 1 when
// any fails. --expect-vanished GLOB: every module of A matching GLOB runs no op in B (and at least one
// matches). --forbid-active GLOB: nothing matching GLOB is alive in B: no module running ops, no parameter
// with a non-zero value. --max-regression time=5%,flops=0.5%,bytes=1%: end-to-end growth limits (time
// only when the increase is statistically significant). --max-output-change X: no output's max relative
// change exceeds X; --min-top1-agreement P: argmax of the last dimension agrees at a fraction P of positions
// (analyzer/outputs). Both fail on NaN/Inf in an output and cannot be evaluated (exit 2) when the outputs
// were not compared.
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
  std::optional<double> max_output_change;   // relative, e.g. 1e-5
  std::optional<double> min_top1_agreement;  // fraction, e.g. 0.999
};

// "1e-5", "0.1%", "99.9%": a non-negative fraction (a trailing % divides by 100); `option` names the flag
// in the error.
StatusOr<double> parse_fraction(const std::string& text, const std::string& option);

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
