"""profile --input-file / --inputs with .npz requests: one array per forward() argument.

A two-input model (tokens and a mask): positional numpy.savez arrays go to forward() in arr_N order,
keyword ones by argument name (any order in the file); the recorded op shapes prove which array went
where. A compressed .npz, named arrays that are not forward()'s arguments, or too few arrays are one
error line.
"""
import json
import os
import sqlite3
import struct
import unittest
import zipfile

import torch

from cli_helpers import CliTestCase, run


class TwoInputs(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = torch.nn.Embedding(64, 8)

    def forward(self, tokens: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        return self.embed(tokens) * mask.unsqueeze(-1)


def npy(descr, shape, data):
    """A NumPy .npy file (format 1.0) as numpy.save writes it; numpy itself is not needed."""
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (%s), }" % (descr, "".join(f"{d}," for d in shape))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    return b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode() + data


def savez(path, arrays, compress=False):
    """numpy.savez / savez_compressed: a zip of NAME.npy entries (positional ones are arr_0, arr_1, ...)."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED if compress else zipfile.ZIP_STORED) as z:
        for name, content in arrays:
            z.writestr(name + ".npy", content)


TOKENS = npy("<i8", (1, 10), struct.pack("<10q", *range(10)))
MASK = npy("<f4", (1, 10), struct.pack("<10f", *([1.0] * 10)))


class NpzRequests(CliTestCase):
    def setUp(self):
        super().setUp()
        self.model = self.path("two.pt")
        torch.jit.save(torch.jit.script(TwoInputs().eval()), self.model)

    def embedding_inputs(self, db):
        """Shapes and dtypes of aten::embedding's arguments: the int64 tokens must be its indices."""
        with sqlite3.connect(db) as c:
            rows = c.execute("SELECT input_dims, input_types FROM op WHERE name = 'aten::embedding'").fetchall()
        return {(json.dumps(json.loads(d)[:2]), json.dumps(json.loads(t)[:2])) for d, t in rows}

    def profile(self, npz, *extra):
        db = self.path("run.db")
        p = run("--no-progress", "profile", self.model, "--input-file", npz, "-o", db, "--force", *extra)
        return p, db

    def test_positional_and_keyword_arrays_reach_their_arguments(self):
        expected = {("[[64, 8], [1, 10]]", '["float32", "int64"]')}
        positional = self.path("pos.npz")
        savez(positional, [("arr_1", MASK), ("arr_0", TOKENS)])  # arr_N order, not the zip's
        p, db = self.profile(positional)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.embedding_inputs(db), expected)
        # By keyword, saved in the other order: matched by name.
        named = self.path("named.npz")
        savez(named, [("mask", MASK), ("tokens", TOKENS)])
        p, db = self.profile(named)
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(self.embedding_inputs(db), expected)

    def test_bad_npz_requests_are_one_error_line(self):
        compressed = self.path("c.npz")
        savez(compressed, [("arr_0", TOKENS), ("arr_1", MASK)], compress=True)
        self.assertUsageError(self.profile(compressed)[0], "c.npz", "savez_compressed")
        wrong = self.path("wrong.npz")
        savez(wrong, [("ids", TOKENS), ("mask", MASK)])
        self.assertUsageError(self.profile(wrong)[0], "wrong.npz", "tokens, mask")
        one = self.path("one.npz")
        savez(one, [("arr_0", TOKENS)])
        self.assertUsageError(self.profile(one)[0], "forward(tokens, mask) takes 2 input(s), but 1")
        self.assertFalse(os.path.exists(self.path("run.db")))


if __name__ == "__main__":
    unittest.main()
