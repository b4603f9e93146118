"""profile + report end to end on sonnet-mini v1: module paths, FLOPs of every linear, JSON shape, schema."""
import json
import os
import sqlite3
import unittest

from cli_helpers import CliTestCase, SOURCE_DIR, run, sample, undocumented_quality_rows

TOKENS = 64


def json_shape(value, prefix=""):
    """Key paths of a JSON document, arrays collapsed to [] (the golden shape: structure, not values)."""
    paths = set()
    if isinstance(value, dict):
        for k, v in value.items():
            p = f"{prefix}.{k}" if prefix else k
            paths.add(p)
            paths |= json_shape(v, p)
    elif isinstance(value, list):
        for v in value:
            paths |= json_shape(v, prefix + "[]")
    return paths


class ProfileReport(CliTestCase):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls.shared = tempfile.TemporaryDirectory()
        cls.db = os.path.join(cls.shared.name, "v1.db")
        run("profile", sample("v1"), "--input", f"int64[1,{TOKENS}]", "--iters", "3", "--warmup", "1",
            "-o", cls.db, check=True)
        cls.report = json.loads(run("report", cls.db, "--format", "json", check=True).stdout)

    @classmethod
    def tearDownClass(cls):
        cls.shared.cleanup()

    def test_module_tree_has_recovered_paths_with_costs(self):
        modules = {m["path"]: m for m in self.report["modules"]}
        for layer in range(4):
            path = f"layers.{layer}.attn.position_adaptive_bias"
            self.assertIn(path, modules)
            m = modules[path]
            self.assertEqual(m["type"], "PositionAdaptiveBias")
            self.assertEqual(m["parent"], f"layers.{layer}.attn")
            self.assertGreater(m["inclusive"]["flops"], 0)
            self.assertGreater(m["time_ns"]["inclusive"]["p50"], 0)
            self.assertEqual(m["time_ns"]["inclusive"]["samples"], 3)
        # ModuleList index recovered: no op may land on the bare container.
        self.assertEqual(modules["layers"]["self"]["ops"], 0)

    def test_every_linear_counts_2mnk_plus_bias(self):
        linears = [g for g in self.report["op_groups"] if g["name"] == "aten::linear"]
        self.assertGreater(len(linears), 0)
        for g in linears:
            x, w = g["inputs"][0]["shape"], g["inputs"][1]["shape"]
            m = 1
            for d in x[:-1]:
                m *= d
            k = x[-1]
            n = w[0]
            self.assertEqual(w[1], k)
            has_bias = len(g["inputs"]) > 2 and "shape" in g["inputs"][2]
            self.assertEqual(g["macs"], m * n * k, g)
            self.assertEqual(g["flops"], 2 * m * n * k + (m * n if has_bias else 0), g)
            self.assertEqual(g["flops_source"], "formula", g)
        # position_adaptive_bias's projection has no bias; q_proj has one.
        pab = [g for g in linears if g["module"] == "layers.0.attn.position_adaptive_bias"]
        self.assertEqual(pab[0]["flops"], 2 * TOKENS * 2 * 64)
        q = [g for g in linears if g["module"] == "layers.0.attn.q_proj"]
        self.assertEqual(q[0]["flops"], 2 * TOKENS * 64 * 64 + TOKENS * 64)

    def test_totals_equal_sum_of_counted_ops(self):
        counted = sum(g["flops"] * g["calls"] for g in self.report["op_groups"] if g["flops_source"] == "formula")
        self.assertAlmostEqual(self.report["total"]["flops"], counted, delta=1e-6 * counted)

    def test_run_records_openblas(self):
        # install-deps.sh selects OpenBLAS for libblas.so.3; the reference BLAS makes every timing 5-10x slower.
        con = sqlite3.connect(self.db)
        rows = con.execute("SELECT code, detail FROM data_quality WHERE what LIKE '%BLAS%'").fetchall()
        con.close()
        self.assertEqual(len(rows), 1, rows)
        self.assertEqual(rows[0][0], "blas_backend", rows)
        self.assertTrue(rows[0][1].startswith("OpenBLAS"), rows)

    def test_quality_rows_have_catalogue_codes(self):
        self.assertEqual(undocumented_quality_rows(self.db), [])
        codes = [q["code"] for q in self.report["data_quality"]]
        self.assertIn("blas_backend", codes)

    def test_reference_blas_is_named_in_a_warning(self):
        ref = "/usr/lib/x86_64-linux-gnu/blas/libblas.so.3"
        if not os.path.exists(ref):
            self.skipTest("Debian's reference BLAS (libblas3) is not installed")
        import subprocess
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            os.symlink(ref, os.path.join(d, "libblas.so.3"))
            db = os.path.join(d, "ref.db")
            env = dict(os.environ, LD_LIBRARY_PATH=d)
            proc = subprocess.run([os.environ.get("FLOPSCOPE", "flopscope"), "profile", sample("v1"), "--input",
                                   "int64[1,16]", "--iters", "1", "--warmup", "0", "-o", db],
                                  capture_output=True, text=True, env=env, timeout=600)
            self.assertEqual(proc.returncode, 0, proc.stderr)
            self.assertIn("warning: running on the reference BLAS", proc.stderr)
            con = sqlite3.connect(db)
            rows = con.execute("SELECT severity FROM data_quality WHERE code = 'reference_blas'").fetchall()
            con.close()
            self.assertEqual(rows, [("warning",)])

    def test_json_shape_matches_golden(self):
        golden_path = os.path.join(SOURCE_DIR, "tests", "cli", "golden", "report_json_shape.txt")
        with open(golden_path) as f:
            golden = {line.strip() for line in f if line.strip() and not line.startswith("#")}
        self.assertEqual(self.report["schema"], "flopscope.report")
        self.assertEqual(self.report["version"], 8)
        actual = json_shape(self.report)
        self.assertEqual(actual - golden, set(), "keys not in the documented shape")
        # Keys of array elements are required only where the array is non-empty in this report.
        required = set()
        for key in golden:
            array_prefix = key.rsplit("[]", 1)[0] + "[]" if "[]" in key else None
            if array_prefix is None or any(a.startswith(array_prefix) for a in actual):
                required.add(key)
        self.assertEqual(required - actual, set(), "documented keys missing")

    def test_database_has_documented_tables(self):
        con = sqlite3.connect(self.db)
        tables = {r[0] for r in con.execute("select name from sqlite_master where type in ('table', 'view')")}
        con.close()
        # `module` is a view over module_node since schema 9 (whole paths built from parent + name).
        for t in ["run", "module_node", "module", "op", "kernel", "param", "graph_node", "graph_edge", "data_quality"]:
            self.assertIn(t, tables)

    def test_parameters_recorded_with_statistics(self):
        con = sqlite3.connect(self.db)
        rows = con.execute("select name, max_abs from param where name like '%position_adaptive_bias%'").fetchall()
        con.close()
        self.assertEqual(len(rows), 4)
        for name, max_abs in rows:
            self.assertLess(max_abs, 1e-5, name)  # the tiny weights of v1
            self.assertGreater(max_abs, 0, name)

    def test_parameters_per_module_are_the_records_summed(self):
        con = sqlite3.connect(self.db)
        records = con.execute("select name, numel, bytes from param").fetchall()
        con.close()
        modules = {m["path"]: m["params"] for m in self.report["modules"]}
        proj = modules["layers.0.attn.q_proj"]
        own = [(n, e, b) for n, e, b in records if n.rsplit(".", 1)[0] == "layers.0.attn.q_proj"]
        self.assertEqual(proj["own"]["tensors"], len(own))
        self.assertEqual(proj["own"]["elements"], sum(e for _, e, _ in own))
        self.assertEqual(proj["own"]["bytes"], sum(b for _, _, b in own))
        # With children: the block holds every tensor named under it; the model holds them all.
        under = [(e, b) for n, e, b in records if n.startswith("layers.0.")]
        self.assertEqual(modules["layers.0"]["total"]["elements"], sum(e for e, _ in under))
        self.assertEqual(modules["layers.0"]["own"]["elements"], 0)
        self.assertEqual(modules[""]["total"]["bytes"], sum(b for _, _, b in records))
        table = run("report", self.db, check=True).stdout
        self.assertIn("own params", table)
        self.assertIn("param bytes", table)

    def test_table_report_shows_module_rows(self):
        out = run("report", self.db, check=True).stdout
        self.assertIn("layers.3.attn.position_adaptive_bias", out)
        self.assertIn("P99", out)
        csv = run("report", self.db, "--format", "csv", check=True).stdout.splitlines()
        self.assertTrue(csv[0].startswith("path,type,depth"))
        self.assertEqual(len(csv), 1 + len(self.report["modules"]))
        md = run("report", self.db, "--format", "md", "--depth", "2", check=True).stdout
        self.assertIn("| module |", md)
        modules_md = md.split("**Top ops**")[0]  # the top-ops table names any op's module
        self.assertIn("layers.0`", modules_md)
        self.assertNotIn("layers.0.attn`", modules_md)  # depth 3 is cut


if __name__ == "__main__":
    unittest.main()
