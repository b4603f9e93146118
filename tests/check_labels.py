"""Every test of a build tree is labelled `fast` or `slow` (tests/CMakeLists.txt), so `ctest -L fast` and
`-L slow` together run everything. Usage: check_labels.py BUILD_DIR. Lists the unlabelled ones and exits 1."""
import json
import subprocess
import sys

listing = subprocess.run(["ctest", "--test-dir", sys.argv[1], "--show-only=json-v1"], capture_output=True,
                         text=True, check=True).stdout
tests = json.loads(listing)["tests"]
unlabelled = []
for t in tests:
    labels = next((p["value"] for p in t.get("properties", []) if p["name"] == "LABELS"), [])
    # A gtest executable not built yet stands in as NAME_NOT_BUILT until its tests are discovered.
    if not t["name"].endswith("_NOT_BUILT") and "fast" not in labels and "slow" not in labels:
        unlabelled.append(t["name"])
if unlabelled:
    print(f"{len(unlabelled)} of {len(tests)} tests carry neither `fast` nor `slow`: {', '.join(unlabelled)}")
    sys.exit(1)
print(f"{len(tests)} tests, each labelled fast or slow")
