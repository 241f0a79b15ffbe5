#!/usr/bin/env bash
# Real-browser check of the HTML report: exports every sample game in logs/ with
# `carc export --format html --static` (and the interactive page, without `--static`, which
# interactive_in_chromium.py drives), opens one static page in Debian's headless Chromium, takes a screenshot
# and fails unless the screenshot is a PNG of the window's size with many colours (the page and
# its board pictures drawn, not a blank or an error page). The pages need no network: Chromium
# runs with its background networking off and the pages forbid every fetch themselves.
#
# Debian 12 packages: chromium, imagemagick (identify, convert).
#
# Usage: crates/report/tests/html_in_chromium.sh [LOG.jsonl] [OUT_DIR]
#   LOG      the game whose page is opened (default: logs/sim-3p-germany-town-variants.jsonl)
#   OUT_DIR  where the pages and the screenshot go (default: a new temporary folder, kept)
# Environment: CARC_BIN (default: target/release/carc under CARGO_TARGET_DIR or the
# workspace), CHROMIUM (default /usr/bin/chromium), WIDTH and HEIGHT of the window (default
# 1200 and 1600), MIN_COLOURS (default 64).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
log="${1:-$root/logs/sim-3p-germany-town-variants.jsonl}"
out_dir="${2:-$(mktemp -d "${TMPDIR:-/tmp}/carc-html.XXXXXX")}"
target="${CARGO_TARGET_DIR:-$root/target}"
carc="${CARC_BIN:-$target/release/carc}"
chromium="${CHROMIUM:-/usr/bin/chromium}"
width="${WIDTH:-1200}"
height="${HEIGHT:-1600}"
min_colours="${MIN_COLOURS:-64}"

for tool in identify convert; do
    command -v "$tool" >/dev/null || { echo "missing tool: $tool (Debian package imagemagick)" >&2; exit 2; }
done
[ -x "$chromium" ] || { echo "no Chromium at $chromium (Debian package chromium)" >&2; exit 2; }
[ -x "$carc" ] || { echo "no carc binary at $carc (cargo build --release -p carc-cli)" >&2; exit 2; }
[ -f "$log" ] || { echo "no log at $log" >&2; exit 2; }
mkdir -p "$out_dir"

# Every sample game exports to both pages (a failure stops the script).
for game in "$root"/logs/*.jsonl; do
    name="$(basename "$game" .jsonl)"
    "$carc" --quiet export "$game" --format html --static --out "$out_dir/$name.html"
    "$carc" --quiet export "$game" --format html --out "$out_dir/$name.interactive.html"
    echo "exported $name.html ($(wc -c <"$out_dir/$name.html") bytes, interactive $(wc -c <"$out_dir/$name.interactive.html") bytes)"
done
page="$out_dir/$(basename "$log" .jsonl).html"
[ -f "$page" ] || "$carc" --quiet export "$log" --format html --static --out "$page"

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
shot="$out_dir/screenshot.png"
rm -f "$shot"
# The flags keep Chromium off the network and away from any user profile; the timeout guards
# against a browser that hangs instead of exiting.
timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --user-data-dir="$profile" --hide-scrollbars \
    --screenshot="$shot" --window-size="$width,$height" "file://$page" \
    >"$out_dir/chromium.log" 2>&1 || {
        echo "FAIL: Chromium did not finish; its output:" >&2
        cat "$out_dir/chromium.log" >&2
        exit 1
    }

[ -s "$shot" ] || { echo "FAIL: no screenshot at $shot; Chromium said:" >&2; cat "$out_dir/chromium.log" >&2; exit 1; }
format="$(identify -format '%m %w %h' "$shot")"
if [ "$format" != "PNG $width $height" ]; then
    echo "FAIL: the screenshot is \"$format\", expected \"PNG $width $height\"" >&2
    exit 1
fi
# A blank page has one or two colours; the text, the score graph and the boards give hundreds.
colours="$(convert "$shot" -unique-colors txt:- | grep -c '^[0-9]')"
echo "screenshot: $shot ($width × $height, $colours distinct colours) of $page"
if [ "$colours" -lt "$min_colours" ]; then
    echo "FAIL: the page looks blank (fewer than $min_colours colours)" >&2
    exit 1
fi
echo "ok"
