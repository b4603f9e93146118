#!/usr/bin/env bash
# Screenshots of the desktop app in a real window: Xvfb, the openbox window manager, flopscope-gui on the
# xcb platform, and ImageMagick's `import -window root` (the screen as a user sees it, title bar included).
# Usage: scripts/xvfb-screenshots.sh BUILD_DIR OUT_DIR [WIDTHxHEIGHT ...]
# Needs Debian's xvfb, openbox, xdotool and imagemagick. Writes OUT_DIR/CASE-VIEW-WIDTHxHEIGHT.png for the
# fixture runs v1 vs v2 and the imported H100 Kineto trace (CASES adds v1-v2z, and demo: the demo's own v1 and v2
# runs in DEMO_DIR, default out/demo), on a screen of each size given
# (default 1366x768 and 1920x1080: the window sizes itself to the screen, MainWindow::initialSize).
# Without them, OFFSCREEN=1 renders each window with `flopscope-gui --screenshot` (Qt's offscreen platform,
# no title bar) at the size MainWindow::initialSize picks for that screen; it says so on each file's line.
set -euo pipefail
if [ -z "${OFFSCREEN:-}" ]; then
  for tool in Xvfb openbox xdotool import convert; do
    command -v "$tool" > /dev/null || {
      echo "xvfb-screenshots: $tool is missing (apt-get install xvfb openbox xdotool imagemagick;" \
        "or OFFSCREEN=1 for Qt's offscreen rendering)" >&2
      exit 2
    }
  done
fi
build=$(realpath "$1")
out=$(realpath -m "$2")
shift 2
[ $# -gt 0 ] && screens=("$@") || screens=(1366x768 1920x1080)
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
xvfb= wm=
trap 'kill $wm $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
"$build/tests/unit/gui/gui_write_fixtures" "$work"
demo=$(realpath -m "${DEMO_DIR:-$root/out/demo}")
h100="$root/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"

export DISPLAY=:${XVFB_DISPLAY:-97}
start_screen() {  # start_screen WIDTHxHEIGHT: a fresh X server of that size with its window manager
  kill $wm $xvfb 2>/dev/null || true
  wait $wm $xvfb 2>/dev/null || true
  Xvfb "$DISPLAY" -screen 0 "$1x24" -nolisten tcp &
  xvfb=$!
  sleep 1
  openbox &
  wm=$!
  sleep 1
}
export HOME="$work/home" QT_QPA_PLATFORM=xcb   # fresh settings: no remembered geometry
mkdir -p "$HOME"

# 128-colour PNG (small files for docs/): ImageMagick, or where it is missing Pillow.
to_png8() {
  if convert -version 2> /dev/null | grep -q ImageMagick; then
    convert "$1" -colors 128 "PNG8:$2"
  else
    "${PYTHON:-/usr/bin/python3}" -c 'import sys; from PIL import Image
Image.open(sys.argv[1]).convert("RGB").quantize(128).save(sys.argv[2], optimize=True)' "$1" "$2"
  fi
}

# The window size MainWindow::initialSize gives on a screen of WIDTHxHEIGHT: 1400x900 bounded by 95% x 92%.
initial_size() {
  local w=${1%x*} h=${1#*x}
  w=$((w * 95 / 100)) h=$((h * 92 / 100))
  echo "$((w < 1400 ? w : 1400))x$((h < 900 ? h : 900))"
}

shot() {  # shot NAME VIEW FILES...
  local name=$1 view=$2
  shift 2
  if [ -n "${OFFSCREEN:-}" ]; then
    QT_QPA_PLATFORM=offscreen "$build/gui/app/flopscope-gui" --screenshot "$work/shot.png" --view "$view" \
      --size "$(initial_size "$screen")" "$@" > "$work/$name.log" 2>&1
    to_png8 "$work/shot.png" "$out/$name-$view-$screen.png"
    echo "$out/$name-$view-$screen.png (offscreen, window $(initial_size "$screen"))"
    return
  fi
  "$build/gui/app/flopscope-gui" --view "$view" "$@" > "$work/$name.log" 2>&1 &
  local app=$!
  local wid
  wid=$(xdotool search --sync --onlyvisible --pid "$app" --name '^flopscope' | head -1)
  sleep "${SHOT_WAIT:-5}"  # loading runs on a worker thread; then the view paints
  # The window as openbox framed it (title bar and borders).
  import -frame -window "$wid" "$work/shot.png"
  to_png8 "$work/shot.png" "$out/$name-$view-$screen.png"
  kill "$app"
  wait "$app" 2>/dev/null || true
}

for screen in "${screens[@]}"; do
  [ -n "${OFFSCREEN:-}" ] || start_screen "$screen"
  for view in ${VIEWS:-tree diff graph heatmap flame roofline timeline}; do
    for case in ${CASES:-v1-v2 h100}; do
      case $case in
        v1-v2) shot v1-v2 "$view" "$work/v1.db" "$work/v2.db" ;;
        v1-v2z) shot v1-v2z "$view" "$work/v1.db" "$work/v2z.db" ;;
        h100) shot h100 "$view" "$h100" ;;
        demo) shot demo "$view" "$demo/v1.db" "$demo/v2.db" ;;
      esac
    done
  done
done
ls -la "$out"
