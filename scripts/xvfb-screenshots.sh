#!/usr/bin/env bash
# Screenshots of the desktop app in a real window: Xvfb, the openbox window manager, flopscope-gui on the
# xcb platform, and ImageMagick's `import -window root` (the screen as a user sees it, title bar included).
# Usage: scripts/xvfb-screenshots.sh BUILD_DIR OUT_DIR
# Needs Debian's xvfb, openbox, xdotool and imagemagick. Writes OUT_DIR/CASE-VIEW.png for the fixture runs
# v1 vs v2, v1 vs v2z and the imported H100 Kineto trace.
set -euo pipefail
build=$(realpath "$1")
out=$(realpath -m "$2")
root=$(cd "$(dirname "$0")/.." && pwd)
mkdir -p "$out"
work=$(mktemp -d)
trap 'kill $wm $xvfb 2>/dev/null || true; rm -rf "$work"' EXIT
"$build/tests/unit/gui/gui_write_fixtures" "$work"
h100="$root/tests/data/kineto/tracelens__h100__gaunernst_bert-small-uncased__1016001.json.gz"

export DISPLAY=:${XVFB_DISPLAY:-97}
Xvfb "$DISPLAY" -screen 0 1440x960x24 -nolisten tcp &
xvfb=$!
sleep 1
openbox &
wm=$!
sleep 1
export HOME="$work/home" QT_QPA_PLATFORM=xcb   # fresh settings: no remembered geometry
mkdir -p "$HOME"

shot() {  # shot NAME VIEW FILES...
  local name=$1 view=$2
  shift 2
  "$build/gui/app/flopscope-gui" --view "$view" "$@" > "$work/$name.log" 2>&1 &
  local app=$!
  local wid
  wid=$(xdotool search --sync --onlyvisible --pid "$app" --name '^flopscope' | head -1)
  sleep "${SHOT_WAIT:-5}"  # loading runs on a worker thread; then the view paints
  # The window as openbox framed it (title bar and borders).
  import -frame -window "$wid" "$work/shot.png"
  convert "$work/shot.png" -colors 128 "PNG8:$out/$name-$view.png"
  kill "$app"
  wait "$app" 2>/dev/null || true
}

for view in ${VIEWS:-tree diff graph heatmap flame roofline timeline}; do
  for case in ${CASES:-v1-v2 v1-v2z h100}; do
    case $case in
      v1-v2) shot v1-v2 "$view" "$work/v1.db" "$work/v2.db" ;;
      v1-v2z) shot v1-v2z "$view" "$work/v1.db" "$work/v2z.db" ;;
      h100) shot h100 "$view" "$h100" ;;
    esac
  done
done
ls -la "$out"
