"""The HTML diff report as a browser shows it: headless Chromium (Debian's `chromium`) loads the report in a
1280 x 720 frame, and the summary sentence must be visible in that first screen, with the text the JSON
report gives as summary.sentence.

The report itself has no scripts (by design); a probe page beside it frames the report and records the
sentence's box and text, which `--dump-dom` prints.
"""
import json
import re
import shutil
import subprocess
import unittest
from html import unescape

from cli_helpers import CliTestCase, run, sample

PROBE = """<!DOCTYPE html><html><body style="margin:0">
<iframe id="f" src="report.html" style="width:1280px;height:720px;border:0"></iframe>
<script>
document.getElementById('f').onload = function () {
  var d = this.contentDocument, s = d.querySelector('.summary'), r = s ? s.getBoundingClientRect() : null;
  document.body.setAttribute('data-probe', JSON.stringify(r ? {top: r.top, bottom: r.bottom, left: r.left,
    right: r.right, frame: this.clientHeight, text: s.innerText, visibility: getComputedStyle(s).visibility} : {}));
};
</script></body></html>
"""


@unittest.skipUnless(shutil.which("chromium"), "chromium not installed (scripts/install-deps.sh installs it)")
class HtmlReportInBrowser(CliTestCase):
    def test_summary_sentence_is_in_the_first_screen(self):
        dbs = []
        for v in ("v1", "v2"):
            db = self.path(f"{v}.db")
            run("--no-progress", "profile", sample(v), "--input", "int64[1,32]@0:512", "--iters", "3", "-o", db, check=True)
            dbs.append(db)
        report, js = self.path("report.html"), self.path("d.json")
        p = run("diff", *dbs, "--html", report, "--json", js)
        self.assertEqual(p.returncode, 0, p.stderr)
        with open(self.path("probe.html"), "w") as f:
            f.write(PROBE)
        dom = subprocess.run(["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
                              f"--user-data-dir={self.path('profile')}", "--virtual-time-budget=10000", "--dump-dom",
                              "file://" + self.path("probe.html")], capture_output=True, text=True, timeout=120)
        m = re.search(r'data-probe="([^"]*)"', dom.stdout)
        self.assertIsNotNone(m, dom.stdout[-2000:] + dom.stderr[-2000:])
        probe = json.loads(unescape(m.group(1)))
        with open(js) as f:
            sentence = json.load(f)["summary"]["sentence"]
        self.assertTrue(sentence.startswith("4 x position_adaptive_bias VANISHED"), sentence)
        self.assertEqual(probe["text"].strip(), sentence)
        self.assertEqual(probe["visibility"], "visible")
        self.assertGreaterEqual(probe["top"], 0)
        self.assertLessEqual(probe["bottom"], probe["frame"], probe)  # within the first 720 px
        self.assertLessEqual(probe["right"], 1280, probe)


if __name__ == "__main__":
    unittest.main()
