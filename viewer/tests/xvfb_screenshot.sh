#!/usr/bin/env bash
# Real-window check: runs the release viewer under Xvfb with Mesa's software GL, takes a
# screenshot of the screen and fails if the middle of it is (nearly) one colour.
#
# Debian 12 packages (run time and screenshot):
#   xvfb xauth x11-apps imagemagick libgl1-mesa-dri libglx-mesa0 libegl1 libegl-mesa0
#   libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon-x11-0 libgl1
#
# Usage: viewer/tests/xvfb_screenshot.sh [LOG.jsonl] [OUT.png]
# Environment: CARC_VIEWER_BIN (default: target/release/carc-viewer under CARGO_TARGET_DIR or
# the workspace), CARC_VIEWER_AT (default 40), WAIT_SECONDS (default 6), DISPLAY_NUM (default 99),
# MIN_COLOURS (default 8).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
log="${1:-$root/logs/sim-3p-greedy.jsonl}"
out="${2:-${TMPDIR:-/tmp}/carc-viewer-screenshot.png}"
target="${CARGO_TARGET_DIR:-$root/target}"
bin="${CARC_VIEWER_BIN:-$target/release/carc-viewer}"
display=":${DISPLAY_NUM:-99}"
wait_s="${WAIT_SECONDS:-6}"
min_colours="${MIN_COLOURS:-8}"

for tool in Xvfb import convert; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool (see the package list at the top)" >&2; exit 2; }
done
[ -x "$bin" ] || { echo "no viewer binary at $bin (cargo build --release -p carc-viewer)" >&2; exit 2; }
[ -f "$log" ] || { echo "no log at $log" >&2; exit 2; }

workdir="$(mktemp -d)"
xvfb_pid=""
viewer_pid=""
cleanup() {
    [ -n "$viewer_pid" ] && kill "$viewer_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$workdir"
}
trap cleanup EXIT

Xvfb "$display" -screen 0 1280x800x24 -nolisten tcp >"$workdir/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 1 50); do
    if DISPLAY="$display" xdpyinfo >/dev/null 2>&1 || [ -e "/tmp/.X11-unix/X${display#:}" ]; then
        break
    fi
    sleep 0.1
done

# A private HOME keeps the viewer's persisted state (last file, window size) out of the way.
mkdir -p "$workdir/home"
env HOME="$workdir/home" XDG_DATA_HOME="$workdir/home/.local/share" \
    DISPLAY="$display" LIBGL_ALWAYS_SOFTWARE=1 WAYLAND_DISPLAY= \
    CARC_VIEWER_AT="${CARC_VIEWER_AT:-40}" \
    "$bin" "$log" >"$workdir/viewer.log" 2>&1 &
viewer_pid=$!
sleep "$wait_s"

if ! kill -0 "$viewer_pid" 2>/dev/null; then
    echo "the viewer exited early:" >&2
    cat "$workdir/viewer.log" >&2
    exit 1
fi

DISPLAY="$display" import -window root "$out"
kill "$viewer_pid" 2>/dev/null || true
wait "$viewer_pid" 2>/dev/null || true
viewer_pid=""

# Distinct colours in the middle of the screen (the board): a blank or single-colour window
# has one or two.
colours="$(convert "$out" -gravity center -crop 50%x50%+0+0 +repage -unique-colors txt:- | grep -c '^[0-9]')"
echo "screenshot: $out ($colours distinct colours in the centre)"
if [ "$colours" -lt "$min_colours" ]; then
    echo "FAIL: the window looks blank (fewer than $min_colours colours); viewer output:" >&2
    cat "$workdir/viewer.log" >&2
    exit 1
fi
echo "ok"
