#!/usr/bin/env bash
# Man pages from the binaries' own --help (help2man): flopscope(1), one flopscope-COMMAND(1) per subcommand,
# and flopscope-gui(1). Usage: scripts/man-pages.sh FLOPSCOPE [FLOPSCOPE_GUI] OUT_DIR
set -euo pipefail
flopscope="$1"
if [ "$#" -eq 3 ]; then gui="$2"; out="$3"; else gui=""; out="$2"; fi
mkdir -p "$out"
common=(--no-info --section=1 --source="flopscope" --version-option=--version)
help2man "${common[@]}" --name="per-module FLOPs, bytes and time for deep-learning inference" \
  --output="$out/flopscope.1" "$flopscope"
# Subcommands and their one-line descriptions, from the "Subcommands:" list of --help.
"$flopscope" --help | awk '/^Subcommands:/ {on = 1; next} on && NF >= 2 {print}' |
  while read -r cmd description; do
    help2man "${common[@]}" --name="$description" --help-option="$cmd --help" \
      --output="$out/flopscope-$cmd.1" "$flopscope"
    # help2man titles the page after the program; name it after the subcommand instead.
    sed -i "s/^\.TH FLOPSCOPE /.TH FLOPSCOPE-${cmd^^} /; s/^flopscope \\\\- /flopscope-$cmd \\\\- /" \
      "$out/flopscope-$cmd.1"
  done
if [ -n "$gui" ] && [ -x "$gui" ]; then
  QT_QPA_PLATFORM=offscreen help2man "${common[@]}" --name="desktop app for flopscope runs and diffs" \
    --output="$out/flopscope-gui.1" "$gui" || echo "scripts/man-pages.sh: no man page for $gui" >&2
fi
gzip -9nf "$out"/*.1
