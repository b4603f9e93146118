#include "db/fleet/pg_store.h"

#include <libpq-fe.h>

#include <cstdio>
#include <optional>

#include "db/fleet/pg_schema.h"
#include "db/model/text_escape.h"

namespace flopscope {
namespace {

std::string first_line(const char* text) {
  std::string s = text ? text : "";
  auto nl = s.find('\n');
  if (nl != std::string::npos) s.resize(nl);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s.empty() ? "unknown error" : s;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 && hex_value(s[i + 2]) >= 0) {
      out.push_back(static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2])));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

// Text parameters for PQexecParams; nullopt is SQL NULL.
class Params {
 public:
  Params& text(std::string v) {
    values_.emplace_back(std::move(v));
    return *this;
  }
  Params& num(double v) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return text(buf);
  }
  Params& integer(std::int64_t v) { return text(std::to_string(v)); }
  Params& boolean(bool v) { return text(v ? "true" : "false"); }
  Params& null() {
    values_.emplace_back(std::nullopt);
    return *this;
  }
  Params& quantiles(const FleetQuantiles& q) {
    if (!q.known) return null().null().null();
    return num(q.p50).num(q.p90).num(q.p99);
  }
  Params& bytes(const std::string& v) {
    binary_.resize(values_.size() + 1, 0);
    binary_.back() = 1;
    return text(v);
  }
  std::vector<const char*> pointers() const {
    std::vector<const char*> p;
    for (const auto& v : values_) p.push_back(v ? v->c_str() : nullptr);
    return p;
  }
  std::vector<int> lengths() const {
    std::vector<int> l;
    for (const auto& v : values_) l.push_back(v ? static_cast<int>(v->size()) : 0);
    return l;
  }
  std::vector<int> formats() const {
    std::vector<int> f(values_.size(), 0);
    for (std::size_t i = 0; i < binary_.size() && i < f.size(); ++i) f[i] = binary_[i];
    return f;
  }
  int size() const { return static_cast<int>(values_.size()); }

 private:
  std::vector<std::optional<std::string>> values_;
  std::vector<int> binary_;
};

struct Result {
  PGresult* r = nullptr;
  explicit Result(PGresult* p) : r(p) {}
  ~Result() { PQclear(r); }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  int rows() const { return PQntuples(r); }
  bool null(int row, int col) const { return PQgetisnull(r, row, col) != 0; }
  std::string text(int row, int col) const { return PQgetvalue(r, row, col); }
  double num(int row, int col) const { return std::strtod(PQgetvalue(r, row, col), nullptr); }
  std::int64_t integer(int row, int col) const { return std::strtoll(PQgetvalue(r, row, col), nullptr, 10); }
  bool boolean(int row, int col) const { return text(row, col) == "t"; }
  FleetQuantiles quantiles(int row, int col) const {
    FleetQuantiles q;
    q.known = !null(row, col);
    if (q.known) {
      q.p50 = num(row, col);
      q.p90 = num(row, col + 1);
      q.p99 = num(row, col + 2);
    }
    return q;
  }
};

}  // namespace

StatusOr<StoreUrl> parse_store_url(const std::string& url) {
  StoreUrl out;
  if (!url.starts_with("postgresql://") && !url.starts_with("postgres://")) {
    return InvalidArgument(redact_passwords(url) +
                           ": not a PostgreSQL URL (postgresql://[user[:password]@]host[:port]/dbname)");
  }
  std::string base = url, query;
  if (auto q = url.find('?'); q != std::string::npos) {
    base = url.substr(0, q);
    query = url.substr(q + 1);
  }
  std::string kept;
  std::size_t start = 0;
  while (start <= query.size() && !query.empty()) {
    std::size_t amp = query.find('&', start);
    std::string item = query.substr(start, amp == std::string::npos ? std::string::npos : amp - start);
    std::size_t eq = item.find('=');
    std::string key = item.substr(0, eq),
                value = eq == std::string::npos ? "" : percent_decode(item.substr(eq + 1));
    if (key == "branch")
      out.branch = value;
    else if (key == "machine")
      out.machine = value;
    else if (key == "model")
      out.model = value;
    else if (!item.empty())
      kept += (kept.empty() ? "" : "&") + item;
    if (amp == std::string::npos) break;
    start = amp + 1;
  }
  out.default_connect_timeout = kept.find("connect_timeout=") == std::string::npos;
  if (out.default_connect_timeout) kept += (kept.empty() ? "" : "&") + std::string("connect_timeout=10");
  out.conninfo = base + "?" + kept;
  out.display = redact_passwords(url);
  return out;
}

struct FleetStore::Impl {
  PGconn* conn = nullptr;
  std::string display, conninfo;
  StoreLimits limits;
  ~Impl() {
    if (conn) PQfinish(conn);
  }

  // libpq's messages may repeat part of the address (a malformed keyword echoes its value).
  std::string safe(const char* message) const { return redact_passwords(first_line(message), conninfo); }

  Status error(const std::string& what) const {
    return Unavailable(display + ": " + what + ": " + safe(PQerrorMessage(conn)));
  }

  // A failed statement; a wait that ran past a limit says which limit, and that nothing was changed.
  Status failed(PGresult* r) const {
    const char* state = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    const std::string code = state ? state : "";
    if (code == "55P03") {
      return Unavailable(display + ": waited " + std::to_string(limits.lock_timeout_s) +
                         " s for a lock another session holds on the store (lock_timeout): try again when "
                         "it is released");
    }
    if (code == "57014") {
      return Unavailable(display + ": a query took longer than " +
                         std::to_string(limits.statement_timeout_s) +
                         " s (statement_timeout) and was cancelled");
    }
    return Unavailable(display + ": " + safe(PQresultErrorMessage(r)));
  }

  // Runs one statement with text parameters (binary where Params says so).
  StatusOr<std::unique_ptr<Result>> exec(const char* sql, const Params& p = Params()) {
    auto values = p.pointers();
    auto lengths = p.lengths();
    auto formats = p.formats();
    auto res = std::make_unique<Result>(
        PQexecParams(conn, sql, p.size(), nullptr, values.data(), lengths.data(), formats.data(), 0));
    ExecStatusType st = PQresultStatus(res->r);
    if (st != PGRES_TUPLES_OK && st != PGRES_COMMAND_OK) return failed(res->r);
    return res;
  }
  Status run(const char* sql, const Params& p = Params()) {
    auto r = exec(sql, p);
    return r.ok() ? Status::Ok() : r.status();
  }
};

FleetStore::FleetStore(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FleetStore::~FleetStore() = default;

StatusOr<std::unique_ptr<FleetStore>> FleetStore::connect(const StoreUrl& url, const StoreLimits& limits) {
  auto impl = std::make_unique<Impl>();
  impl->display = url.display;
  impl->conninfo = url.conninfo;
  impl->limits = limits;
  std::string conninfo = url.conninfo;
  const std::string kDefault = "connect_timeout=10";
  if (url.default_connect_timeout && limits.connect_timeout_s > 0 && conninfo.ends_with(kDefault)) {
    conninfo.replace(conninfo.size() - kDefault.size(), kDefault.size(),
                     "connect_timeout=" + std::to_string(limits.connect_timeout_s));
  }
  impl->conn = PQconnectdb(conninfo.c_str());
  if (!impl->conn) return Unavailable(url.display + ": cannot connect: out of memory");
  if (PQstatus(impl->conn) != CONNECTION_OK) return impl->error("cannot connect");
  // Notices (e.g. "relation already exists") are not the user's business.
  PQsetNoticeProcessor(
      impl->conn, [](void*, const char*) {}, nullptr);
  // Session limits: a statement or a lock wait past them fails (Impl::failed names which) instead of
  // hanging a push, a CI job or a scrape. Integers in milliseconds, no parameters needed.
  const std::string set = "SET statement_timeout = " + std::to_string(limits.statement_timeout_s * 1000) +
                          "; SET lock_timeout = " + std::to_string(limits.lock_timeout_s * 1000);
  Result r(PQexec(impl->conn, set.c_str()));
  if (PQresultStatus(r.r) != PGRES_COMMAND_OK) return impl->failed(r.r);
  return std::unique_ptr<FleetStore>(new FleetStore(std::move(impl)));
}

Status FleetStore::check_schema() {
  FS_ASSIGN_OR_RETURN(auto r, impl_->exec("SELECT to_regclass('flopscope_store') IS NOT NULL"));
  if (r->text(0, 0) != "t") return NotFound(impl_->display + ": no flopscope store here (push a run first)");
  FS_ASSIGN_OR_RETURN(auto v, impl_->exec("SELECT value FROM flopscope_store WHERE key = 'schema_version'"));
  if (v->rows() != 1) return Corrupt(impl_->display + ": flopscope store without a schema version");
  int version = std::atoi(v->text(0, 0).c_str());
  if (version > kFleetStoreSchemaVersion) {
    return Unsupported(impl_->display + ": the store's schema version " + std::to_string(version) +
                       " is newer than this flopscope reads (" + std::to_string(kFleetStoreSchemaVersion) +
                       "): upgrade flopscope");
  }
  if (version < 1) return Corrupt(impl_->display + ": bad store schema version '" + v->text(0, 0) + "'");
  return {};
}

StatusOr<PushResult> FleetStore::push(const FleetRun& run, const PushMeta& meta) {
  Impl& db = *impl_;
  FS_RETURN_IF_ERROR(db.run("BEGIN"));
  auto body = [&]() -> StatusOr<PushResult> {
    // One writer at a time creates the schema; concurrent pushes of the same run meet at the unique key.
    FS_RETURN_IF_ERROR(db.run("SELECT pg_advisory_xact_lock(7237001)"));
    FS_ASSIGN_OR_RETURN(auto exists, db.exec("SELECT to_regclass('flopscope_store') IS NOT NULL"));
    if (exists->text(0, 0) != "t") {
      for (const char* step : fleet_schema_v1()) FS_RETURN_IF_ERROR(db.run(step));
    }
    FS_RETURN_IF_ERROR(check_schema());
    PushResult out;
    Params rp;
    rp.text(run.content_key).text(meta.git_commit).text(meta.git_branch).text(meta.machine);
    rp.text(run.info.source_sha256).text(run.info.source_path).text(to_string(run.info.source_kind));
    rp.text(run.info.device)
        .text(run.info.input_spec)
        .text(run.info.tool_version)
        .integer(run.info.created_unix_ns);
    rp.integer(run.iterations).boolean(run.has_kernels).num(run.flops).num(run.bytes);
    rp.quantiles(run.host).quantiles(run.device);
    if (meta.run_bytes.empty())
      rp.null().null();
    else
      rp.text(meta.run_name).bytes(meta.run_bytes);
    FS_ASSIGN_OR_RETURN(
        auto inserted,
        db.exec(
            "INSERT INTO fleet_runs (content_key, git_commit, git_branch, machine, model_sha256, "
            "source_path, "
            "source_kind, device, input_spec, tool_version, created_unix_ns, iterations, has_kernels, flops, "
            "bytes, host_p50, host_p90, host_p99, device_p50, device_p90, device_p99, run_name, run_file) "
            "VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23) "
            "ON CONFLICT (content_key) DO NOTHING RETURNING id",
            rp));
    if (inserted->rows() == 0) {
      FS_ASSIGN_OR_RETURN(
          auto old,
          db.exec("SELECT id, git_commit, git_branch, machine FROM fleet_runs WHERE content_key = $1",
                  Params().text(run.content_key)));
      out.run_id = old->integer(0, 0);
      out.already_stored = true;
      const std::string commit = old->text(0, 1), branch = old->text(0, 2), machine = old->text(0, 3);
      if (commit != meta.git_commit || branch != meta.git_branch || machine != meta.machine) {
        auto shown = [](const std::string& v) { return v.empty() ? std::string("-") : v; };
        return AlreadyExists(db.display + ": this run is already stored as run " +
                             std::to_string(out.run_id) + " with branch " + shown(branch) + ", commit " +
                             shown(commit) + ", machine " + shown(machine) +
                             "; a run is stored once, so nothing was recorded for branch " +
                             shown(meta.git_branch) + ", commit " + shown(meta.git_commit) + ", machine " +
                             shown(meta.machine) + " (push a new run to record those)");
      }
      return out;
    }
    out.run_id = inserted->integer(0, 0);
    const std::string id = std::to_string(out.run_id);
    for (const auto& m : run.modules) {
      Params p;
      p.text(id).text(m.path).text(m.type).integer(m.depth).num(m.calls).num(m.flops).num(m.bytes);
      p.quantiles(m.host).quantiles(m.device).text(m.weight_state).integer(m.params).integer(m.param_bytes);
      FS_RETURN_IF_ERROR(
          db.run("INSERT INTO fleet_modules VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,"
                 "$15,$16) ON CONFLICT DO NOTHING",
                 p));
    }
    for (const auto& o : run.ops) {
      Params p;
      p.text(id).text(o.module_path).text(o.name).text(o.signature).num(o.calls).num(o.flops).num(o.bytes);
      p.boolean(o.flops_known).quantiles(o.host).quantiles(o.device);
      FS_RETURN_IF_ERROR(
          db.run("INSERT INTO fleet_ops VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14) "
                 "ON CONFLICT DO NOTHING",
                 p));
    }
    for (const auto& q : run.params) {
      Params p;
      p.text(id).text(q.name).text(q.dtype).text(q.shape).text(q.state).text(q.sha256).integer(q.numel);
      p.integer(q.bytes).num(q.max_abs).num(q.nonzero_fraction).num(q.l2);
      FS_RETURN_IF_ERROR(db.run(
          "INSERT INTO fleet_params VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT DO NOTHING", p));
    }
    return out;
  };
  StatusOr<PushResult> result = body();
  if (!result.ok()) {
    (void)db.run("ROLLBACK");
    if (result.status().code() == StatusCode::kAlreadyExists) return result;  // says what it did not store
    return Status(result.status().code(), result.status().message() + "; nothing was stored");
  }
  if (Status st = db.run("COMMIT"); !st.ok()) return st;
  return result;
}

StatusOr<std::vector<StoredRunHeader>> FleetStore::runs(const RunFilter& f) {
  FS_RETURN_IF_ERROR(check_schema());
  Params p;
  p.text(f.branch).text(f.machine).text(f.model).integer(f.last > 0 ? f.last : -1);
  FS_ASSIGN_OR_RETURN(
      auto r,
      impl_->exec("SELECT * FROM (SELECT id, to_char(pushed_at AT TIME ZONE 'UTC', 'YYYY-MM-DD HH24:MI:SS'), "
                  "git_commit, git_branch, machine, model_sha256, tool_version, source_path, iterations, "
                  "has_kernels, host_p50, host_p90, host_p99, device_p50, device_p90, device_p99 "
                  "FROM fleet_runs WHERE ($1 = '' OR git_branch = $1) AND ($2 = '' OR machine = $2) "
                  "AND ($3 = '' OR model_sha256 LIKE $3 || '%') ORDER BY id DESC "
                  "LIMIT CASE WHEN $4::bigint < 0 THEN NULL ELSE $4::bigint END) newest ORDER BY id",
                  p));
  std::vector<StoredRunHeader> out;
  for (int i = 0; i < r->rows(); ++i) {
    StoredRunHeader h;
    h.id = r->integer(i, 0);
    h.pushed_at = r->text(i, 1);
    h.git_commit = r->text(i, 2);
    h.git_branch = r->text(i, 3);
    h.machine = r->text(i, 4);
    h.model_sha256 = r->text(i, 5);
    h.tool_version = r->text(i, 6);
    h.source_path = r->text(i, 7);
    h.iterations = static_cast<int>(r->integer(i, 8));
    h.has_kernels = r->boolean(i, 9);
    h.host = r->quantiles(i, 10);
    h.device = r->quantiles(i, 13);
    out.push_back(std::move(h));
  }
  return out;
}

StatusOr<std::vector<ModulePoint>> FleetStore::modules(const std::vector<std::int64_t>& run_ids,
                                                       const std::function<bool(const std::string&)>& keep) {
  FS_RETURN_IF_ERROR(check_schema());
  std::string ids = "{";
  for (std::size_t i = 0; i < run_ids.size(); ++i) ids += (i ? "," : "") + std::to_string(run_ids[i]);
  ids += "}";
  FS_ASSIGN_OR_RETURN(
      auto r,
      impl_->exec("SELECT run_id, path, type, depth, calls, flops, bytes, host_p50, host_p90, host_p99, "
                  "device_p50, device_p90, device_p99, weight_state, params, param_bytes FROM fleet_modules "
                  "WHERE run_id = ANY($1::bigint[]) ORDER BY run_id, depth, path",
                  Params().text(ids)));
  std::vector<ModulePoint> out;
  for (int i = 0; i < r->rows(); ++i) {
    std::string path = r->text(i, 1);
    if (!keep(path)) continue;
    ModulePoint p;
    p.run_id = r->integer(i, 0);
    p.module.path = std::move(path);
    p.module.type = r->text(i, 2);
    p.module.depth = static_cast<int>(r->integer(i, 3));
    p.module.calls = r->num(i, 4);
    p.module.flops = r->num(i, 5);
    p.module.bytes = r->num(i, 6);
    p.module.host = r->quantiles(i, 7);
    p.module.device = r->quantiles(i, 10);
    p.module.weight_state = r->text(i, 13);
    p.module.params = r->integer(i, 14);
    p.module.param_bytes = r->integer(i, 15);
    out.push_back(std::move(p));
  }
  return out;
}

StatusOr<StoredRunFile> FleetStore::run_file(std::int64_t run_id) {
  FS_RETURN_IF_ERROR(check_schema());
  auto values = std::to_string(run_id);
  const char* v[1] = {values.c_str()};
  // Binary result: the bytes as stored, no hex round trip.
  Result r(PQexecParams(impl_->conn, "SELECT run_name, run_file FROM fleet_runs WHERE id = $1::bigint", 1,
                        nullptr, v, nullptr, nullptr, 1));
  if (PQresultStatus(r.r) != PGRES_TUPLES_OK) return impl_->failed(r.r);
  if (r.rows() != 1) return NotFound(impl_->display + ": no run " + values + " in the store");
  if (r.null(0, 1)) {
    return NotFound(impl_->display + ": run " + values + " was pushed without its run file (--summary-only)");
  }
  StoredRunFile f;
  f.name.assign(PQgetvalue(r.r, 0, 0), static_cast<std::size_t>(PQgetlength(r.r, 0, 0)));
  f.bytes.assign(PQgetvalue(r.r, 0, 1), static_cast<std::size_t>(PQgetlength(r.r, 0, 1)));
  return f;
}

}  // namespace flopscope
