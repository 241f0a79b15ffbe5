#!/usr/bin/env python3
"""The puzzle page (`carc puzzles --format html`) driven in headless Chromium.

Writes the puzzles of Brandt in the sample game (the engine judge at 200 iterations, seed 0:
his turn 8, event 24, is a `?`), opens the page in Debian's headless Chromium and plays it
through the DevTools protocol with real clicks and key presses:

- after load the board shows the position (the tiles placed before event 24), the drawn tile
  is named, the script ran under its Content-Security-Policy (no exception, no violation);
- a click on the best move's square, the rotate button until its rotation, the rest of the
  move chosen, "try it": the verdict says it is the best move found;
- the move played (R pressed to rotate): the verdict gives both chances to win;
- another move: "not among the judged moves";
- "show the best move" shows it in words and draws it on the board;
- screenshots at 1280 and 400 px wide (OUT_DIR/puzzles-1280px.png, puzzles-400px.png), and the
  page never scrolls sideways;
- the puzzles of a hostile copy (markup as the game id and a name, a bidi override in the
  player's name) run nothing: no injected element, the title is the name as text (escaped).

The DevTools client is interactive_in_chromium.py's (imported, not copied).

Usage: puzzles_in_chromium.py [OUT_DIR]
Environment: CARC_BIN (default target/release/carc), CHROMIUM (default /usr/bin/chromium).
"""

import base64
import json
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from interactive_in_chromium import (  # noqa: E402
    BIDI_NAME, BIDI_SHOWN, HIDDEN, HOSTILE_GAME, HOSTILE_NAME, ROOT, SAMPLE, Browser, carc,
    expect, fail, log_events, tiles_through)

JUDGE = ["--nodes", "200", "--seed", "0", "--threads", "2"]


def state(page):
    return page.eval(
        "(() => { const b = document.getElementById('board');"
        " return {tiles: document.getElementById('tiles').childElementCount,"
        " squares: document.getElementById('squares').childElementCount,"
        " tried: b.dataset.tried, trying: document.getElementById('try').childElementCount,"
        " puzzle: document.getElementById('puzzle').textContent,"
        " verdict: document.getElementById('verdict').textContent,"
        " kind: document.getElementById('verdict').dataset.kind || '',"
        " rotation: document.getElementById('rotation').textContent}; })()")


def data(page):
    return page.eval("JSON.parse(document.getElementById('carc-data').textContent)")


def square_index(puzzle, x, y):
    for k, s in enumerate(puzzle["squares"]):
        if s["x"] == x and s["y"] == y:
            return k
    fail(f"({x},{y}) is not a square the tile may go to")


def try_move(page, puzzle, notation, rotate_by_key=False):
    """Plays `X,Y ROT ...` on the page: a click on the square, rotations (the button or R),
    the rest of the move chosen in its list; returns the rest's words."""
    xy, rot = notation.split()[:2]
    x, y = (int(v) for v in xy.split(","))
    k = square_index(puzzle, x, y)
    page.click(f"#squares g[data-square='{k}']")
    expect(f"after a click on ({x},{y}), the tile tried there", state(page)["tried"].split("@")[0],
           f"{x},{y}")
    for _ in range(4):
        if state(page)["rotation"] == f"rotated {rot}\u00b0":
            break
        if rotate_by_key:
            page.key("r", code="KeyR", key_code=82)
        else:
            page.click("#rotate")
    expect("the rotation shown", state(page)["rotation"], f"rotated {rot}\u00b0")
    return k


def choose_rest(page, puzzle, index):
    # A native <select> opens no menu headless: its value is set as a choice would set it.
    page.eval(f"(() => {{ const s = document.getElementById('rest'); s.value = '{index}';"
              " s.dispatchEvent(new Event('change')); })()")
    expect("the rest of the move chosen", page.eval("document.getElementById('rest').value"),
           str(index))


def check_widths(page, out_dir, name, what):
    """At 1280 and 400 px wide: nothing overflows the page sideways, no element reaches past
    its edge; a screenshot of each (OUT_DIR/NAME-WIDTHpx.png)."""
    for width, mobile in ((1280, False), (400, True)):
        page.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                  deviceScaleFactor=1, mobile=mobile)
        time.sleep(0.2)
        over = page.eval("document.documentElement.scrollWidth"
                         " - document.documentElement.clientWidth")
        expect(f"{what}at {width} px, the page's sideways overflow", max(over, 0), 0)
        wide = page.eval("[...document.body.querySelectorAll('*')].filter(e =>"
                         " e.getBoundingClientRect().right >"
                         " document.documentElement.clientWidth + 1).map(e =>"
                         " e.tagName + (e.id ? '#' + e.id : '')).slice(0, 5).join(', ')")
        expect(f"{what}at {width} px, elements past the edge", wide, "")
        png = page.call("Page.captureScreenshot", format="png")["data"]
        path = os.path.join(out_dir, f"{name}-{width}px.png")
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))
        print(f"screenshot at {width} px: {path}")


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="carc-puzzles-")
    os.makedirs(out_dir, exist_ok=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    carc_bin = os.path.abspath(os.environ.get("CARC_BIN", os.path.join(target, "release", "carc")))
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for tool, hint in ((carc_bin, "cargo build --release -p carc-cli"),
                       (chromium, "Debian package chromium")):
        if not os.access(tool, os.X_OK):
            print(f"missing {tool} ({hint})", file=sys.stderr)
            sys.exit(2)
    work = tempfile.mkdtemp(prefix="carc-puzzle-pages-", dir=out_dir)
    events = log_events(SAMPLE)

    lines = carc(carc_bin, "puzzles", SAMPLE, "--player", "Brandt", *JUDGE, cwd=work)
    puzzles = [json.loads(line) for line in lines.splitlines()]
    expect("Brandt's puzzles in the sample game", [(p["event"], p["mark"]) for p in puzzles],
           [(24, "?")])
    first = puzzles[0]
    page_path = os.path.join(out_dir, "puzzles.html")
    carc(carc_bin, "puzzles", SAMPLE, "--player", "Brandt", *JUDGE, "--format", "html",
         "-o", page_path, cwd=work)

    # The hostile copy: markup in the game id and Ada's name, a bidi override in Brandt's.
    text = open(SAMPLE).read()
    text = text.replace('"game":"short-game-rulings"', '"game":' + json.dumps(HOSTILE_GAME), 1)
    text = text.replace('{"name":"Ada"', '{"name":' + json.dumps(HOSTILE_NAME), 1)
    text = text.replace('{"name":"Brandt"', '{"name":' + json.dumps(BIDI_NAME), 1)
    with open(os.path.join(work, "h.jsonl"), "w") as f:
        f.write(text)
    hostile = os.path.join(out_dir, "puzzles-hostile.html")
    carc(carc_bin, "puzzles", "h.jsonl", "--player", BIDI_NAME, *JUDGE, "--format", "html",
         "-o", hostile, cwd=work)

    # A 200-character name with no place to break, as the puzzle's player.
    long_name = "W" * 200
    with open(os.path.join(work, "long.jsonl"), "w") as f:
        f.write(open(SAMPLE).read().replace('{"name":"Brandt"', '{"name":"' + long_name + '"', 1))
    long_page = os.path.join(out_dir, "puzzles-long-name.html")
    carc(carc_bin, "puzzles", "long.jsonl", "--player", long_name, *JUDGE, "--format", "html",
         "-o", long_page, cwd=work)

    browser = Browser(chromium)
    try:
        page = browser.open(page_path)
        s = state(page)
        expect("after load, the tiles on the board", s["tiles"], tiles_through(events, 23))
        d = data(page)
        puzzle = d["puzzles"][0]
        expect("the squares offered", s["squares"], len(puzzle["squares"]))
        if f"drew tile {first['tile']}" not in s["puzzle"]:
            fail(f"the drawn tile is not named: {s['puzzle']!r}")
        expect("the title", page.eval("document.title"), "Puzzles: Brandt")

        # The best move, by clicks.
        try_move(page, puzzle, first["best"]["move"])
        choose_rest(page, puzzle, puzzle["best"])
        page.click("#submit")
        s = state(page)
        expect("the verdict on the best move", s["kind"], "best")
        if "best move found" not in s["verdict"]:
            fail(f"the verdict: {s['verdict']!r}")
        shot_best = page.call("Page.captureScreenshot", format="png")["data"]

        # The move played, rotated with R.
        try_move(page, puzzle, first["played"]["move"], rotate_by_key=True)
        choose_rest(page, puzzle, puzzle["played"])
        page.click("#submit")
        s = state(page)
        expect("the verdict on the move played", s["kind"], "played")
        want = f"{first['played']['win'] * 100:.1f} % chance to win"
        if want not in s["verdict"] or "lost" not in s["verdict"]:
            fail(f"the verdict lacks {want!r} or the chance lost: {s['verdict']!r}")
        print("ok: verdict:", s["verdict"])

        # A move the judge did not measure.
        other = next(i for i in range(len(puzzle["moves"]))
                     if i not in (puzzle["best"], puzzle["played"]))
        for k, sq in enumerate(puzzle["squares"]):
            for r, rot in enumerate(sq["rotations"]):
                if other in rot["moves"]:
                    page.click(f"#squares g[data-square='{k}']")
                    for _ in range(r):
                        page.click("#rotate")
        choose_rest(page, puzzle, other)
        page.click("#submit")
        s = state(page)
        expect("the verdict on a move not judged", s["kind"], "unjudged")
        if "Not among the judged moves" not in s["verdict"]:
            fail(f"the verdict: {s['verdict']!r}")

        # The answer, in words and on the board.
        page.click("#reveal")
        answer = page.eval("document.getElementById('answer').textContent")
        if first["best"]["text"] not in answer:
            fail(f"the answer lacks the best move: {answer!r}")
        expect("the board shows the best move", page.eval(
            "document.getElementById('board').dataset.tried"), "best")
        if page.problems():
            fail("; ".join(page.problems()))

        with open(os.path.join(out_dir, "puzzles-best-found.png"), "wb") as f:
            f.write(base64.b64decode(shot_best))
        check_widths(page, out_dir, "puzzles", "")

        # The long name wraps: nothing overflows sideways at either width.
        check_widths(browser.open(long_page), out_dir, "puzzles-long-name",
                     "with a 200-character name ")

        # The hostile page runs nothing.
        page = browser.open(hostile)
        expect("the hostile page's title", page.eval("document.title"), "Puzzles: " + BIDI_SHOWN)
        for key in ("n", "p"):
            page.key(key, code="Key" + key.upper(), key_code=ord(key.upper()))
        injected = page.eval(
            "document.querySelectorAll('#injected-img, #injected-b, img, iframe, object, embed,"
            " [onerror], [onload]').length")
        expect("injected elements in the DOM", injected, 0)
        expect("scripts in the page", page.eval("document.scripts.length"), 2)
        shown = page.eval("document.getElementById('puzzle').textContent")
        if HOSTILE_GAME not in shown:
            fail(f"the hostile game id is not shown as text: {shown!r}")
        raw = page.eval("[...document.body.innerText].filter(c => " + json.dumps(HIDDEN)
                        + ".includes(c)).length")
        expect("bidi controls and separators shown raw", raw, 0)
        if page.problems():
            fail("; ".join(page.problems()))
    finally:
        browser.close()
    print("ok: the puzzle page in Chromium")


if __name__ == "__main__":
    main()
