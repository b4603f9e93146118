"""Tensor[] and float[] arguments reach the FLOPs registry: cat counts its bytes, upsample its scale."""
import json
import subprocess
import sys
import unittest

from cli_helpers import CliTestCase, run

MODEL = """
import sys, torch, torch.nn as nn, torch.nn.functional as F
class Net(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = torch.cat([x, x * 2.0], dim=1)
        return F.interpolate(y, scale_factor=[2.0, 2.0], mode="nearest")
torch.jit.script(Net().eval()).save(sys.argv[1])
"""


class TensorLists(CliTestCase):
    def test_cat_and_interpolate_are_counted(self):
        model, db = self.path("lists.pt"), self.path("lists.db")
        script = self.path("make_lists_model.py")  # TorchScript needs the model's source in a file
        with open(script, "w") as f:
            f.write(MODEL)
        subprocess.run([sys.executable, script, model], check=True)
        run("profile", model, "--input", "float32[1,3,8,8]", "--iters", "1", "-o", db, check=True)
        report = json.loads(run("report", db, "--format", "json", check=True).stdout)
        cat = [g for g in report["op_groups"] if g["name"] == "aten::cat"]
        self.assertEqual(len(cat), 1)
        self.assertEqual(cat[0]["inputs"][0]["value"], "[[1, 3, 8, 8], [1, 3, 8, 8]]")
        self.assertEqual(cat[0]["bytes_read"], 2 * 3 * 8 * 8 * 4)
        self.assertEqual(cat[0]["bytes_written"], 6 * 8 * 8 * 4)
        self.assertNotIn("estimate", cat[0]["note"])
        up = [g for g in report["op_groups"] if g["name"].startswith("aten::upsample") and g["depth"] == 0]
        self.assertTrue(up, [g["name"] for g in report["op_groups"]])
        self.assertEqual(up[0]["bytes_written"], 6 * 16 * 16 * 4)
        self.assertEqual(report["coverage"]["gaps"], [])


if __name__ == "__main__":
    unittest.main()
