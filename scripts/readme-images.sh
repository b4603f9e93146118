#!/usr/bin/env bash
# The README's pictures and example headline, made from the demo's own runs (scripts/demo.sh writes them to
# out/demo), so what the README shows is what a new user's demo prints and draws:
#   docs/img/graph_v1.png, docs/img/graph_diff_v1_v2.png   `flopscope graph` of sonnet-mini v1, and v1 vs v2
#   docs/img/readme/demo-{diff,flame}-1366x768.png          the GUI on the demo's v1 vs v2 (scripts/xvfb-screenshots.sh)
#   README.md, between the demo-headline markers            the first line of `diff v1 v2 --rounds 3`
# Usage: scripts/readme-images.sh [BUILD_DIR] [DEMO_DIR]   (defaults build/dev and out/demo)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$(realpath "${1:-$root/build/dev}")
demo=$(realpath -m "${2:-$root/out/demo}")
bin="$build/cli/flopscope"
for f in v1.db v2.db diff_v1_v2_rounds.txt; do
  [ -s "$demo/$f" ] || {
    echo "readme-images: $demo/$f is missing: run scripts/demo.sh first" >&2
    exit 2
  }
done
[ -x "$bin" ] || { echo "readme-images: $bin is missing: build first (scripts/build.sh)" >&2; exit 2; }

"$bin" graph "$build/samples/sonnet-mini-v1.pt" -o "$root/docs/img/graph_v1.png" --force
"$bin" graph "$demo/v1.db" --diff "$demo/v2.db" -o "$root/docs/img/graph_diff_v1_v2.png" --force
CASES=demo VIEWS="diff flame" DEMO_DIR="$demo" "$root/scripts/xvfb-screenshots.sh" "$build" "$root/docs/img/readme" 1366x768

# The headline: the diff's first line, as the demo printed it, in the README's fenced block.
headline=$(head -1 "$demo/diff_v1_v2_rounds.txt")
"${PYTHON:-/usr/bin/python3}" - "$root/README.md" "$headline" <<'PY'
import re, sys
path, line = sys.argv[1], sys.argv[2]
text = open(path, encoding="utf-8").read()
block = "<!-- demo-headline:start -->\n```\n" + line + "\n```\n<!-- demo-headline:end -->"
new, n = re.subn(r"<!-- demo-headline:start -->.*?<!-- demo-headline:end -->", lambda _: block, text, flags=re.S)
if n != 1:
    sys.exit("readme-images: README.md has no demo-headline markers")
open(path, "w", encoding="utf-8").write(new)
print("README.md: headline from the demo:", line)
PY
