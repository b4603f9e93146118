#include "analyzer/diff/between_runs.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "analyzer/iterations.h"

namespace flopscope {
namespace {

// Continued fraction of the regularised incomplete beta function (modified Lentz evaluation), the part of
// I_x(a, b) after x^a (1-x)^b / (a B(a, b)); converges quickly for x < (a + 1) / (a + b + 2).
double beta_fraction(double a, double b, double x) {
  constexpr double kTiny = 1e-300;
  auto guard = [](double v) { return std::fabs(v) < kTiny ? kTiny : v; };
  double c = 1, d = 1 / guard(1 - (a + b) * x / (a + 1));
  double f = d;
  for (int m = 1; m <= 500; ++m) {
    const double even = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
    d = 1 / guard(1 + even * d);
    c = guard(1 + even / c);
    f *= d * c;
    const double odd = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
    d = 1 / guard(1 + odd * d);
    c = guard(1 + odd / c);
    f *= d * c;
    if (std::fabs(d * c - 1) < 1e-15) break;
  }
  return f;
}

double regularized_beta(double x, double a, double b) {
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const double log_front =
      std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) + a * std::log(x) + b * std::log1p(-x);
  if (x < (a + 1) / (a + b + 2)) return std::exp(log_front) * beta_fraction(a, b, x) / a;
  return 1 - std::exp(log_front) * beta_fraction(b, a, 1 - x) / b;
}

// P(|T| > t) for Student's t with df degrees of freedom.
double t_two_sided_tail(double t, double df) {
  return regularized_beta(df / (df + t * t), df / 2, 0.5);
}

double mean_of(std::span<const double> v) {
  double s = 0;
  for (double x : v) s += x;
  return s / static_cast<double>(v.size());
}

double variance_of(std::span<const double> v, double mean) {
  double s = 0;
  for (double x : v) s += (x - mean) * (x - mean);
  return s / static_cast<double>(v.size() - 1);
}

}  // namespace

double student_t_quantile_two_sided(double level, double df) {
  const double tail = 1 - level;
  double lo = 0, hi = 1;
  while (t_two_sided_tail(hi, df) > tail && hi < 1e12) hi *= 2;
  for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; ++i) {
    const double mid = (lo + hi) / 2;
    (t_two_sided_tail(mid, df) > tail ? lo : hi) = mid;
  }
  return (lo + hi) / 2;
}

RunProcesses run_processes(const RunData& run) {
  RunProcesses p;
  if (run.iteration_processes.empty()) return p;
  const IterationIndex index(run);
  p.of_iteration.assign(static_cast<std::size_t>(index.count()), 0);
  // Process numbers as stored may have gaps (a process that recorded nothing): numbered densely here.
  std::map<int, int> dense;
  for (const IterationProcess& ip : run.iteration_processes) dense.emplace(ip.process, 0);
  int n = 0;
  for (auto& [process, id] : dense) id = n++;
  for (const IterationProcess& ip : run.iteration_processes) {
    const std::size_t i = index(ip.iteration);
    if (i < p.of_iteration.size()) p.of_iteration[i] = dense[ip.process];
  }
  p.count = n;
  return p;
}

ProcessSplit process_split(const RunData& a, const RunData& b) {
  return {run_processes(a), run_processes(b)};
}

std::string not_assessable_warning(const ProcessSplit& p) {
  auto processes = [](int n) { return std::to_string(n) + (n == 1 ? " process" : " processes"); };
  return "time changes are not assessable across processes: A's iterations come from " +
         processes(p.a.count) + ", B's from " + processes(p.b.count) + ", and a test needs at least " +
         std::to_string(kMinProcessesForStats) +
         " per side (profile models with `diff A.pt B.pt --rounds N`, or record programs with "
         "`flopscope trace --repeat N`)";
}

std::vector<double> process_medians(const IterationSeries& values, const RunProcesses& p) {
  const std::vector<double> dense = values.dense();
  std::vector<std::vector<double>> groups(static_cast<std::size_t>(std::max(p.count, 1)));
  for (std::size_t i = 0; i < dense.size(); ++i) {
    const int process = i < p.of_iteration.size() ? p.of_iteration[i] : 0;
    groups[static_cast<std::size_t>(process)].push_back(dense[i]);
  }
  std::vector<double> medians;
  for (auto& g : groups) {
    if (g.empty()) continue;
    std::sort(g.begin(), g.end());
    medians.push_back(percentile_sorted(g, 50));
  }
  return medians;
}

MedianDifference welch_interval(std::span<const double> a, std::span<const double> b, double level) {
  MedianDifference d;
  d.level = level;
  d.ci_low = d.ci_high = std::numeric_limits<double>::quiet_NaN();
  if (a.empty() || b.empty()) return d;
  d.median_a = mean_of(a);
  d.median_b = mean_of(b);
  d.diff = d.median_b - d.median_a;
  if (a.size() < 2 || b.size() < 2) return d;
  const double wa = variance_of(a, d.median_a) / static_cast<double>(a.size());
  const double wb = variance_of(b, d.median_b) / static_cast<double>(b.size());
  const double se = std::sqrt(wa + wb);
  double half = 0;
  if (se > 0) {
    const double df =
        (wa + wb) * (wa + wb) /
        (wa * wa / static_cast<double>(a.size() - 1) + wb * wb / static_cast<double>(b.size() - 1));
    half = student_t_quantile_two_sided(level, df) * se;
  }
  d.ci_low = d.diff - half;
  d.ci_high = d.diff + half;
  d.significant = d.ci_low > 0 || d.ci_high < 0;
  return d;
}

}  // namespace flopscope
