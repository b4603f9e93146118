#include "db/fleet/pg_schema.h"

namespace flopscope {

// Times are nanoseconds per iteration; NULL quantiles are unknown (no such clock in the run), never 0.
const std::vector<const char*>& fleet_schema_v1() {
  static const std::vector<const char*> steps = {
      "CREATE TABLE flopscope_store (key text PRIMARY KEY, value text NOT NULL)",
      "INSERT INTO flopscope_store VALUES ('schema_version', '1')",
      R"(CREATE TABLE fleet_runs (
        id bigserial PRIMARY KEY,
        content_key text NOT NULL UNIQUE,
        pushed_at timestamptz NOT NULL DEFAULT now(),
        git_commit text NOT NULL, git_branch text NOT NULL, machine text NOT NULL,
        model_sha256 text NOT NULL, source_path text NOT NULL, source_kind text NOT NULL,
        device text NOT NULL, input_spec text NOT NULL, tool_version text NOT NULL,
        created_unix_ns bigint NOT NULL, iterations integer NOT NULL, has_kernels boolean NOT NULL,
        flops double precision NOT NULL, bytes double precision NOT NULL,
        host_p50 double precision, host_p90 double precision, host_p99 double precision,
        device_p50 double precision, device_p90 double precision, device_p99 double precision,
        run_name text, run_file bytea))",
      "CREATE INDEX fleet_runs_branch ON fleet_runs (git_branch, id)",
      R"(CREATE TABLE fleet_modules (
        run_id bigint NOT NULL REFERENCES fleet_runs (id) ON DELETE CASCADE,
        path text NOT NULL, type text NOT NULL, depth integer NOT NULL,
        calls double precision NOT NULL, flops double precision NOT NULL, bytes double precision NOT NULL,
        host_p50 double precision, host_p90 double precision, host_p99 double precision,
        device_p50 double precision, device_p90 double precision, device_p99 double precision,
        weight_state text NOT NULL, params bigint NOT NULL, param_bytes bigint NOT NULL,
        PRIMARY KEY (run_id, path)))",
      R"(CREATE TABLE fleet_ops (
        run_id bigint NOT NULL REFERENCES fleet_runs (id) ON DELETE CASCADE,
        module_path text NOT NULL, name text NOT NULL, signature text NOT NULL,
        calls double precision NOT NULL, flops double precision NOT NULL, bytes double precision NOT NULL,
        flops_known boolean NOT NULL,
        host_p50 double precision, host_p90 double precision, host_p99 double precision,
        device_p50 double precision, device_p90 double precision, device_p99 double precision,
        PRIMARY KEY (run_id, module_path, name, signature)))",
      R"(CREATE TABLE fleet_params (
        run_id bigint NOT NULL REFERENCES fleet_runs (id) ON DELETE CASCADE,
        name text NOT NULL, dtype text NOT NULL, shape text NOT NULL, state text NOT NULL, sha256 text NOT NULL,
        numel bigint NOT NULL, bytes bigint NOT NULL,
        max_abs double precision NOT NULL, nonzero_fraction double precision NOT NULL, l2 double precision NOT NULL,
        PRIMARY KEY (run_id, name)))",
  };
  return steps;
}

}  // namespace flopscope
