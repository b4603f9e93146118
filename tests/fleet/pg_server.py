"""A throwaway PostgreSQL server for tests: initdb in a temp dir, Unix socket only, password auth, stopped at exit.

PostgreSQL refuses to run as root; as root (CI) the server runs as `nobody` through runuser.
"""
import glob
import os
import shutil
import subprocess
import tempfile

PG_BIN = os.environ.get("FLOPSCOPE_PG_BIN") or next(iter(sorted(glob.glob("/usr/lib/postgresql/*/bin"))[-1:]), "")
USER = "flopscope"
PASSWORD = "s3cret"
PORT = 54329


class PgServer:
    def __init__(self):
        if not PG_BIN or not os.path.exists(os.path.join(PG_BIN, "initdb")):
            raise unittest_skip("PostgreSQL server binaries not found (Debian package postgresql)")
        self.dir = tempfile.mkdtemp(prefix="flopscope-pg-")
        os.chmod(self.dir, 0o755)
        self.data = os.path.join(self.dir, "data")
        self.socket = self.dir
        self.prefix = []
        if os.geteuid() == 0:
            self.prefix = ["runuser", "-u", "nobody", "--"]
            shutil.chown(self.dir, "nobody", "nogroup")
        pwfile = os.path.join(self.dir, "pw")
        with open(pwfile, "w") as f:
            f.write(PASSWORD + "\n")
        if self.prefix:
            shutil.chown(pwfile, "nobody", "nogroup")
        self._run([os.path.join(PG_BIN, "initdb"), "-D", self.data, "-U", USER, "--pwfile", pwfile,
                   "--auth=scram-sha-256", "-E", "UTF8", "--no-sync"])
        self._run([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-w", "-t", "30", "-l",
                   os.path.join(self.dir, "log"), "-o",
                   f"-c listen_addresses='' -c unix_socket_directories={self.socket} -p {PORT} -c fsync=off",
                   "start"])
        self.started = True

    def _run(self, cmd):
        proc = subprocess.run(self.prefix + cmd, capture_output=True, text=True, timeout=60)
        if proc.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed: {proc.stdout}{proc.stderr}")

    def url(self, db="postgres", password=PASSWORD, extra=""):
        q = f"host={self.socket}&port={PORT}" + (f"&{extra}" if extra else "")
        return f"postgresql://{USER}:{password}@/{db}?{q}"

    def createdb(self, name):
        env = dict(os.environ, PGPASSWORD=PASSWORD)
        subprocess.run([os.path.join(PG_BIN, "createdb"), "-h", self.socket, "-p", str(PORT), "-U", USER, name],
                       check=True, env=env, timeout=30)

    def psql(self, db, sql):
        env = dict(os.environ, PGPASSWORD=PASSWORD)
        return subprocess.run([os.path.join(PG_BIN, "psql"), "-h", self.socket, "-p", str(PORT), "-U", USER, "-d",
                               db, "-At", "-v", "ON_ERROR_STOP=1", "-c", sql],
                              check=True, env=env, timeout=30, capture_output=True, text=True).stdout

    def stop(self):
        if getattr(self, "started", False):
            self._run([os.path.join(PG_BIN, "pg_ctl"), "-D", self.data, "-m", "immediate", "-w", "stop"])
            self.started = False
        shutil.rmtree(self.dir, ignore_errors=True)


def unittest_skip(message):
    import unittest
    return unittest.SkipTest(message)
