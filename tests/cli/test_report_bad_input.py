"""Bad input to `flopscope report`: missing, not a database, truncated, future schema."""
import os
import sqlite3
import unittest

from cli_helpers import CliTestCase, run


class ReportBadInput(CliTestCase):
    def test_missing(self):
        self.assertUsageError(run("report", self.path("none.db")), "none.db")

    def test_not_a_database(self):
        p = self.path("notes.txt")
        with open(p, "w") as f:
            f.write("hello\n" * 100)
        self.assertUsageError(run("report", p), "notes.txt")

    def test_sqlite_but_not_a_run(self):
        p = self.path("other.db")
        con = sqlite3.connect(p)
        con.execute("create table t(x)")
        con.commit()
        con.close()
        self.assertUsageError(run("report", p), "other.db", "neither a flopscope run database nor an Nsight Systems export")

    def test_future_version(self):
        p = self.path("future.db")
        con = sqlite3.connect(p)
        con.execute("create table run(id integer)")
        con.execute("pragma user_version = 999")
        con.commit()
        con.close()
        self.assertUsageError(run("report", p), "future.db", "newer")

    def test_truncated(self):
        p = self.path("trunc.db")
        con = sqlite3.connect(p)
        con.execute("create table run(id integer, x text)")
        for i in range(2000):
            con.execute("insert into run values (?, ?)", (i, "x" * 200))
        con.commit()
        con.close()
        size = os.path.getsize(p)
        with open(p, "r+b") as f:
            f.truncate(size // 3)
        proc = run("report", p)
        self.assertUsageError(proc, "trunc.db")

    def test_unknown_format_is_usage_error(self):
        proc = run("report", self.path("x.db"), "--format", "yaml")
        self.assertEqual(proc.returncode, 2)


if __name__ == "__main__":
    unittest.main()
