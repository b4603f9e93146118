#include "analyzer/diff/assignment.h"

#include <cmath>

namespace flopscope {
namespace {

// Min-cost perfect matching of a square cost matrix (rows to columns), shortest augmenting paths with row and
// column potentials. `cost` is row-major, n x n; large finite costs stand for forbidden cells.
std::vector<int> min_cost_matching(const std::vector<double>& cost, std::size_t n) {
  const double inf = std::numeric_limits<double>::infinity();
  // 1-based: column 0 is the virtual start of each augmenting path.
  std::vector<double> u(n + 1, 0), v(n + 1, 0);
  std::vector<std::size_t> row_of_col(n + 1, 0), way(n + 1, 0);
  for (std::size_t row = 1; row <= n; ++row) {
    row_of_col[0] = row;
    std::size_t col = 0;
    std::vector<double> slack(n + 1, inf);
    std::vector<char> used(n + 1, 0);
    do {
      used[col] = 1;
      const std::size_t r = row_of_col[col];
      double delta = inf;
      std::size_t next = 0;
      for (std::size_t c = 1; c <= n; ++c) {
        if (used[c]) continue;
        const double reduced = cost[(r - 1) * n + (c - 1)] - u[r] - v[c];
        if (reduced < slack[c]) {
          slack[c] = reduced;
          way[c] = col;
        }
        if (slack[c] < delta) {
          delta = slack[c];
          next = c;
        }
      }
      for (std::size_t c = 0; c <= n; ++c) {
        if (used[c]) {
          u[row_of_col[c]] += delta;
          v[c] -= delta;
        } else {
          slack[c] -= delta;
        }
      }
      col = next;
    } while (row_of_col[col] != 0);
    do {
      const std::size_t prev = way[col];
      row_of_col[col] = row_of_col[prev];
      col = prev;
    } while (col != 0);
  }
  std::vector<int> col_of_row(n, -1);
  for (std::size_t c = 1; c <= n; ++c) col_of_row[row_of_col[c] - 1] = static_cast<int>(c - 1);
  return col_of_row;
}

}  // namespace

Assignment solve_assignment(const std::vector<std::vector<double>>& score, std::size_t n_b,
                            const std::vector<int>& force_a, const std::vector<int>& force_b) {
  const std::size_t n_a = score.size();
  Assignment out;
  out.b_of_a.assign(n_a, -1);
  out.a_of_b.assign(n_b, -1);
  if (n_a == 0 && n_b == 0) return out;
  // Rows: A items, then one "B item j stays unmatched" row each. Columns: B items, then one "A item i stays
  // unmatched" column each. A forbidden cell costs more than any assignment can gain.
  double gain = 1;
  for (const auto& row : score) {
    for (double s : row) {
      if (s > 0 && std::isfinite(s)) gain += s;
    }
  }
  const double blocked = 4 * gain;
  const std::size_t n = n_a + n_b;
  std::vector<double> cost(n * n, blocked);
  auto at = [&](std::size_t r, std::size_t c) -> double& { return cost[r * n + c]; };
  auto forced = [](const std::vector<int>& f, std::size_t i) { return i < f.size() ? f[i] : 0; };
  for (std::size_t i = 0; i < n_a; ++i) {
    for (std::size_t j = 0; j < n_b; ++j) {
      const double s = score[i][j];
      if (s == kForbidden || forced(force_a, i) < 0 || forced(force_b, j) < 0) continue;
      at(i, j) = -s;
    }
    if (forced(force_a, i) <= 0) at(i, n_b + i) = 0;
  }
  for (std::size_t j = 0; j < n_b; ++j) {
    if (forced(force_b, j) <= 0) at(n_a + j, j) = 0;
    for (std::size_t i = 0; i < n_a; ++i) at(n_a + j, n_b + i) = 0;  // both dummies: nothing happens
  }
  const std::vector<int> col = min_cost_matching(cost, n);
  bool feasible = true;
  for (std::size_t r = 0; r < n; ++r) {
    const auto c = static_cast<std::size_t>(col[r]);
    if (at(r, c) >= blocked) feasible = false;
    if (r < n_a && c < n_b) {
      out.b_of_a[r] = static_cast<int>(c);
      out.a_of_b[c] = static_cast<int>(r);
      out.total += score[r][c];
    }
  }
  if (!feasible) out.total = -std::numeric_limits<double>::infinity();
  return out;
}

}  // namespace flopscope
