#!/bin/sh
# End to end: flopscope-gui --screenshot for every view, `flopscope heatmap`, and bad input (exit 2, one
# line on stderr, no output file). Usage: gui_cli_test.sh WRITE_FIXTURES FLOPSCOPE_GUI FLOPSCOPE OUT_DIR
set -u
write_fixtures=$1 gui=$2 flopscope=$3 out=$4
rm -rf "$out" && mkdir -p "$out" || exit 1
fail() { echo "FAIL: $*" >&2; exit 1; }
"$write_fixtures" "$out" || fail "writing fixtures"
export QT_QPA_PLATFORM=offscreen
for view in tree graph heatmap flame timeline; do
  "$gui" --screenshot "$out/$view.png" --view $view "$out/v1.db" || fail "screenshot $view"
  head -c 4 "$out/$view.png" | grep -q PNG || fail "$view.png is not a PNG"
done
"$gui" --screenshot "$out/diff.png" --view diff "$out/v1.db" "$out/v2.db" || fail "screenshot diff"
[ "$(stat -c %s "$out/diff.png")" -gt 20000 ] || fail "diff.png is suspiciously small"
# The ranks of one distributed run (the two-rank HTA traces): the Ranks tab.
kineto=$(dirname "$0")/../../data/kineto
"$gui" --screenshot "$out/ranks.png" --view ranks "$kineto/hta__trace_filter__sampled_rank-0.json.gz" \
  "$kineto/hta__trace_filter__sampled_rank-1.json.gz" || fail "screenshot ranks"
head -c 4 "$out/ranks.png" | grep -q PNG || fail "ranks.png is not a PNG"

# No display and no QT_QPA_PLATFORM: --help, --version and --screenshot fall back to offscreen.
for flag in --help --version; do
  env -u QT_QPA_PLATFORM -u DISPLAY -u WAYLAND_DISPLAY "$gui" $flag > "$out/flag.txt" 2>&1 \
    || fail "$flag without a display exited $?: $(cat "$out/flag.txt")"
  grep -q flopscope-gui "$out/flag.txt" || fail "$flag printed: $(cat "$out/flag.txt")"
done
env -u QT_QPA_PLATFORM -u DISPLAY -u WAYLAND_DISPLAY "$gui" --screenshot "$out/nodisplay.png" --view tree \
  "$out/v1.db" || fail "--screenshot without a display"
head -c 4 "$out/nodisplay.png" | grep -q PNG || fail "nodisplay.png is not a PNG"

# Bad input: one line naming the file, exit 2, no picture.
printf 'not a database at all' > "$out/bad.db"
"$gui" --screenshot "$out/bad.png" --view tree "$out/bad.db" 2> "$out/err.txt"
rc=$?
[ $rc -eq 2 ] || fail "corrupt input exit $rc, expected 2"
[ "$(wc -l < "$out/err.txt")" -eq 1 ] || fail "expected one error line, got: $(cat "$out/err.txt")"
grep -q "bad.db" "$out/err.txt" || fail "error does not name the file: $(cat "$out/err.txt")"
[ ! -e "$out/bad.png" ] || fail "a picture was written for bad input"
"$gui" --screenshot "$out/x.png" --view nosuchview "$out/v1.db" 2>/dev/null
[ $? -eq 2 ] || fail "unknown view should exit 2"

# The CLI heatmap: same picture, no display.
"$flopscope" heatmap "$out/v1.db" -o "$out/heatmap-cli.png" || fail "flopscope heatmap"
head -c 4 "$out/heatmap-cli.png" | grep -q PNG || fail "heatmap-cli.png is not a PNG"
"$flopscope" heatmap "$out/v1.db" -o "$out/heatmap-cli.png" 2>/dev/null
[ $? -eq 2 ] || fail "existing output without --force should exit 2"
"$flopscope" heatmap "$out/v1.db" -o "$out/heatmap-cli.png" --force || fail "--force"
"$flopscope" heatmap "$out/bad.db" -o "$out/h2.png" 2> "$out/err2.txt"
[ $? -eq 2 ] || fail "heatmap of corrupt input should exit 2"
grep -q "bad.db" "$out/err2.txt" || fail "heatmap error does not name the file"
[ ! -e "$out/h2.png" ] || fail "heatmap wrote a file for bad input"
# The heatmap's matrix as CSV: a header with one column per iteration, one line per module (--top 5).
"$flopscope" heatmap "$out/v1.db" -o "$out/heatmap.csv" --top 5 || fail "heatmap to .csv"
head -1 "$out/heatmap.csv" | grep -q '^module,clock,iter_0,' || fail "heatmap.csv header: $(head -1 "$out/heatmap.csv")"
[ "$(wc -l < "$out/heatmap.csv")" -eq 6 ] || fail "heatmap.csv: $(wc -l < "$out/heatmap.csv") lines, expected 6"
# The flame graph: the same icicle as the GUI's Flame tab, as SVG; bad input is one line, exit 2, no file.
"$flopscope" flame "$out/v1.db" -o "$out/flame.svg" --metric flops || fail "flopscope flame"
grep -q "<svg" "$out/flame.svg" || fail "flame.svg is not SVG"
grep -q "position_adaptive_bias" "$out/flame.svg" || fail "flame.svg lacks the bias module"
"$flopscope" flame "$out/v1.db" -o "$out/flame-cli.png" 2> "$out/err3.txt"
[ $? -eq 2 ] && [ "$(wc -l < "$out/err3.txt")" -eq 1 ] || fail "flame to .png: $(cat "$out/err3.txt")"
[ ! -e "$out/flame-cli.png" ] || fail "flame wrote a .png"
"$flopscope" flame "$out/v1.db" -o "$out/flame2.svg" --root no.such.module 2> "$out/err4.txt"
[ $? -eq 2 ] && grep -q "no module 'no.such.module'" "$out/err4.txt" || fail "unknown --root: $(cat "$out/err4.txt")"
[ ! -e "$out/flame2.svg" ] || fail "flame wrote a file for an unknown root"
echo "ok"
