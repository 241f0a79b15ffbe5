#!/usr/bin/env python3
"""The interactive HTML page (`carc export --format html`) driven in headless Chromium.

Exports pages of the sample game (plain; with two variations, an annotation and the move
quality; and a hostile copy whose game id, player name and annotations are markup and
script), opens each in Debian's headless Chromium and drives it through the DevTools protocol
with real key presses and mouse clicks:

- after load the board is drawn (the start tile), the page's script ran under its
  Content-Security-Policy (no exception, no policy violation);
- after three ArrowRight presses the position shown is event 4, with the tiles the log placed
  by then; a screenshot is taken (SHOT, default OUT_DIR/interactive-after-3-keys.png);
- a click on the move of turn 3 shows event 10 (the end of turn 3), Home and End jump, the
  final scoring's rows (one per player and feature) follow the last turn and a click on one
  shows the end, a click on the score graph jumps to the position under the pointer;
- a variation is listed under the move it leaves from and is stepped through;
- the best move found (--quality) is drawn at the marked event, and its whole board swaps in;
- the hostile page, stepped through every event, runs nothing: the title is the game id as
  text, no element of the payloads exists, no dialog opens.

Only the Python standard library: the DevTools WebSocket client is the small one below, so CI
needs no package from PyPI. Chromium runs without network, sandbox or profile.

Usage: interactive_in_chromium.py [OUT_DIR]
Environment: CARC_BIN (default target/release/carc under CARGO_TARGET_DIR or the workspace),
CHROMIUM (default /usr/bin/chromium), SHOT (the screenshot's path).
"""

import base64
import json
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
SAMPLE = os.path.join(ROOT, "logs", "short-game-rulings.jsonl")


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


# --- a minimal WebSocket client (RFC 6455), enough for the DevTools protocol ----------------


class WebSocket:
    def __init__(self, url, timeout=30):
        assert url.startswith("ws://"), url
        host_port, _, path = url[len("ws://"):].partition("/")
        host, _, port = host_port.partition(":")
        self.sock = socket.create_connection((host, int(port)), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        request = (
            f"GET /{path} HTTP/1.1\r\nHost: {host_port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(request.encode())
        response = b""
        while b"\r\n\r\n" not in response:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError("the DevTools socket closed during the handshake")
            response += chunk
        head, _, self.buffer = response.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError("no WebSocket upgrade: " + head.decode(errors="replace"))

    def _read(self, n):
        while len(self.buffer) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("the DevTools socket closed")
            self.buffer += chunk
        out, self.buffer = self.buffer[:n], self.buffer[n:]
        return out

    def send(self, text, opcode=0x1):
        payload = text.encode() if isinstance(text, str) else text
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 1 << 16:
            header += bytes([0x80 | 126]) + struct.pack(">H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack(">Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def recv(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            fin, opcode, n = b0 & 0x80, b0 & 0x0F, b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            mask = self._read(4) if b1 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise ConnectionError("the DevTools socket was closed")
            if opcode == 0x9:
                self.send(payload, opcode=0xA)
                continue
            if opcode in (0x0, 0x1, 0x2):
                message += payload
                if fin:
                    return message.decode()


class Page:
    """One tab, attached through the browser's DevTools socket."""

    def __init__(self, ws, session):
        self.ws, self.session, self.next_id = ws, session, 1000
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params,
                                 "sessionId": self.session}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == ident:
                if "error" in msg:
                    fail(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)
                if msg["method"] == "Page.javascriptDialogOpening":
                    fail("the page opened a dialog: " + json.dumps(msg["params"]))

    def eval(self, expression):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True)
        if "exceptionDetails" in r:
            fail(f"{expression}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def key(self, key, code=None, key_code=0):
        for kind in ("keyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", type=kind, key=key, code=code or key,
                      windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code)

    def click(self, selector):
        box = self.eval(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)});"
            " if (!e) return null; e.scrollIntoView({block: 'center'});"
            " const r = e.getBoundingClientRect();"
            " return [r.left + r.width / 2, r.top + r.height / 2]; })()")
        if box is None:
            fail(f"nothing to click at {selector}")
        self.click_at(*box)

    def click_at(self, x, y):
        for kind in ("mousePressed", "mouseReleased"):
            self.call("Input.dispatchMouseEvent", type=kind, x=x, y=y, button="left",
                      clickCount=1)

    def problems(self):
        """Script exceptions and policy violations seen so far."""
        out = []
        for e in self.events:
            if e["method"] == "Runtime.exceptionThrown":
                out.append(json.dumps(e["params"]["exceptionDetails"])[:400])
            if e["method"] == "Log.entryAdded":
                text = e["params"]["entry"].get("text", "")
                if "Content Security Policy" in text or "Refused" in text:
                    out.append(text)
        return out


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.mkdtemp(prefix="carc-chromium-")
        self.proc = subprocess.Popen(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", "--hide-scrollbars", "--remote-debugging-port=0",
             f"--user-data-dir={self.profile}", "--window-size=1400,1000", "about:blank"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        for _ in range(300):
            if os.path.exists(port_file) and len(open(port_file).read().split()) >= 2:
                break
            if self.proc.poll() is not None:
                fail("Chromium exited at start")
            time.sleep(0.1)
        else:
            fail("Chromium opened no DevTools port")
        port, path = open(port_file).read().split()[:2]
        self.ws = WebSocket(f"ws://127.0.0.1:{port}{path}")
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.ws.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == ident:
                if "error" in msg:
                    fail(f"{method}: {msg['error']}")
                return msg.get("result", {})

    def open(self, path):
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        page = Page(self.ws, session)
        for domain in ("Page", "Runtime", "Log"):
            page.call(domain + ".enable")
        page.call("Emulation.setDeviceMetricsOverride", width=1400, height=1000,
                  deviceScaleFactor=1, mobile=False)
        page.call("Page.navigate", url="file://" + path)
        for _ in range(200):
            if page.eval("document.readyState") == "complete":
                break
            time.sleep(0.05)
        else:
            fail(f"{path} did not load")
        return page

    def close(self):
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        shutil.rmtree(self.profile, ignore_errors=True)


# --- the pages --------------------------------------------------------------------------------


def carc(carc_bin, *args, cwd):
    r = subprocess.run([carc_bin, "--quiet", *args], cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"carc {' '.join(args)}: {r.stderr}")
    return r.stdout


def log_events(path):
    """The events of a log file (the header left out)."""
    lines = [json.loads(line) for line in open(path) if line.strip()]
    return [e for e in lines if "seq" in e]


def tiles_through(events, seq):
    return sum(1 for e in events if e["seq"] <= seq and e["type"] in ("start_placed", "tile_placed"))


def shown(page):
    return page.eval("(() => { const b = document.getElementById('board');"
                     " return {seq: Number(b.dataset.seq), tiles: document.getElementById('tiles')"
                     ".childElementCount, where: document.getElementById('where').textContent,"
                     " event: document.getElementById('event').textContent,"
                     " best: document.getElementById('best').childElementCount,"
                     " shapes: document.getElementById('board').querySelectorAll('*').length}; })()")


def goto(page, position):
    """Home, then ArrowRight `position` times."""
    page.key("Home", key_code=36)
    for _ in range(position):
        page.key("ArrowRight", key_code=39)


def expect(what, got, want):
    if got != want:
        fail(f"{what}: got {got!r}, expected {want!r}")
    print(f"ok: {what} = {got!r}")


HOSTILE_NAME = "<img src=x onerror=\"document.title='pwned'\" id=injected-img>"
HOSTILE_GAME = "g</script><b id=injected-b>"
# A bidi override, an isolate and a line separator (issue 33): shown as visible escapes, so
# the name reverses nothing.
BIDI_NAME = "Brandt\u202eevil\u2066x\u2028y"
BIDI_SHOWN = "Brandt\\u{202e}evil\\u{2066}x\\u{2028}y"
HIDDEN = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029"
HOSTILE_NOTES = [
    "<script>document.title='pwned'</script>",
    "</script><script>document.title='pwned'</script><div id=injected-div>",
    "<!--<svg onload=\"document.title='pwned'\" id=injected-svg>",
]


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="carc-interactive-")
    os.makedirs(out_dir, exist_ok=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    carc_bin = os.path.abspath(os.environ.get("CARC_BIN", os.path.join(target, "release", "carc")))
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    shot = os.environ.get("SHOT", os.path.join(out_dir, "interactive-after-3-keys.png"))
    for tool, hint in ((carc_bin, "cargo build --release -p carc-cli"),
                       (chromium, "Debian package chromium")):
        if not os.access(tool, os.X_OK):
            print(f"missing {tool} ({hint})", file=sys.stderr)
            sys.exit(2)

    work = tempfile.mkdtemp(prefix="carc-pages-", dir=out_dir)
    events = log_events(SAMPLE)

    # The plain page of the sample game.
    plain = os.path.join(out_dir, "plain.html")
    carc(carc_bin, "export", SAMPLE, "--format", "html", "--out", plain, cwd=work)

    # The sample game with two variations (one nested) and the move quality.
    game = os.path.join(work, "g.jsonl")
    shutil.copy(SAMPLE, game)
    with open(os.path.join(work, "city.jsonl"), "w") as f:
        f.write('{"type":"tile_placed","player":1,"tile":"N","at":[0,2],"rotation":0}\n'
                '{"type":"meeple_placed","player":1,"on":"city N"}\n')
    carc(carc_bin, "variation", "add", "g.jsonl", "--name", "city north", "--after", "17",
         "--moves", "city.jsonl", cwd=work)
    rich = os.path.join(out_dir, "variations-quality.html")
    carc(carc_bin, "export", "g.jsonl", "--format", "html", "--quality", "--playouts", "20",
         "--seed", "1", "--out", rich, cwd=work)

    # The hostile copy: markup in the game id, a player's name and three annotations.
    hostile_dir = tempfile.mkdtemp(prefix="carc-hostile-", dir=out_dir)
    text = open(SAMPLE).read()
    text = text.replace('"game":"short-game-rulings"', '"game":' + json.dumps(HOSTILE_GAME), 1)
    text = text.replace('{"name":"Ada"', '{"name":' + json.dumps(HOSTILE_NAME), 1)
    text = text.replace('{"name":"Brandt"', '{"name":' + json.dumps(BIDI_NAME), 1)
    with open(os.path.join(hostile_dir, "h.jsonl"), "w") as f:
        f.write(text)
    for seq, note in zip(("3", "4", "5"), HOSTILE_NOTES):
        carc(carc_bin, "annotate", "h.jsonl", "--at", seq, "--glyph", "!?", "--text", note,
             cwd=hostile_dir)
    hostile = os.path.join(out_dir, "hostile.html")
    carc(carc_bin, "export", "h.jsonl", "--format", "html", "--out", hostile, cwd=hostile_dir)

    # The sample game judged by the engine: the page has the win-probability graph too.
    judged = os.path.join(out_dir, "engine-quality.html")
    carc(carc_bin, "export", SAMPLE, "--format", "html", "--quality", "--judge", "engine",
         "--nodes", "300", "--seed", "1", "--out", judged, cwd=work)

    browser = Browser(chromium)
    try:
        # After load: the start tile on the board, the script ran under the policy.
        page = browser.open(plain)
        s = shown(page)
        expect("after load, the event shown", s["seq"], 1)
        expect("after load, the tiles on the board", s["tiles"], tiles_through(events, 1))
        # The tile is drawn: its picture (defined once in the page) covers one square.
        width = page.eval("document.querySelector('#tiles use').getBBox().width")
        expect("the width of the start tile's picture, in squares", round(width, 2), 1.0)
        expect("the title", page.eval("document.title"), "Ada vs Brandt \u00b7 short-game-rulings")
        # Three ArrowRight presses: event 4.
        for _ in range(3):
            page.key("ArrowRight", key_code=39)
        s = shown(page)
        expect("after three ArrowRight, the event shown", s["seq"], 4)
        expect("after three ArrowRight, the tiles", s["tiles"], tiles_through(events, 4))
        want_text = {"tile_drawn": "drew tile", "tile_placed": "placed tile",
                     "meeple_placed": "placed a meeple", "meeple_skipped": "placed no meeple"}
        kind = next(e["type"] for e in events if e["seq"] == 4)
        if want_text.get(kind, "") not in s["event"]:
            fail(f"event 4 is a {kind}, the panel says {s['event']!r}")
        png = page.call("Page.captureScreenshot", format="png")["data"]
        with open(shot, "wb") as f:
            f.write(base64.b64decode(png))
        print(f"screenshot after three key presses: {shot}")
        page.key("ArrowLeft", key_code=37)
        expect("ArrowLeft", shown(page)["seq"], 3)
        # A click on the move of turn 3 shows the end of turn 3 (event 10).
        page.click("#moves tr.turn[data-turn='3']")
        s = shown(page)
        expect("a click on turn 3, the event shown", s["seq"], 10)
        expect("a click on turn 3, the tiles", s["tiles"], tiles_through(events, 10))
        # A click on one of that turn's events shows it.
        page.click("#moves li.ev[data-position='9']")
        expect("a click on event 9 of the list", shown(page)["seq"], 9)
        page.key("End", key_code=35)
        expect("End", shown(page)["seq"], events[-1]["seq"])
        page.key("Home", key_code=36)
        expect("Home", shown(page)["seq"], 0)
        # The final scoring has rows of its own after the last turn (the field the two farm:
        # a row each); a click on one shows the end of the game, that row marked.
        finals = page.eval("Array.from(document.querySelectorAll('#moves tr.final')).map((r) => r.textContent)")
        expect("the final scoring's rows", finals, ["Adafield, north-east at (0,0)+3", "Brandtfield, north-east at (0,0)+3"])
        page.click("#moves tr.final")
        expect("a click on a final-scoring row, the event shown", shown(page)["seq"], events[-1]["seq"])
        expect("a click on a final-scoring row, it is marked",
               page.eval("document.querySelectorAll('#moves tr.final.current').length"), 2)
        page.key("Home", key_code=36)
        # A click on the score graph at position 19 (x from the chart's own geometry).
        x, y = page.eval(
            "(() => { const g = document.getElementById('graph'); g.scrollIntoView();"
            " const r = g.getBoundingClientRect(); const w = g.viewBox.baseVal.width;"
            " const l = Number(g.dataset.left), rt = Number(g.dataset.right),"
            " n = Number(g.dataset.positions);"
            " const vx = l + (w - l - rt) * 19 / n;"
            " return [r.left + vx * r.width / w, r.top + r.height / 2]; })()")
        page.click_at(x, y)
        expect("a click on the graph at position 19", shown(page)["seq"], 19)
        if page.problems():
            fail("; ".join(page.problems()))

        # Variations and the best move found.
        page = browser.open(rich)
        rows = page.eval("Array.from(document.querySelectorAll('#moves tr.variation'))"
                         ".map(r => r.textContent)")
        if len(rows) != 1 or "city north" not in rows[0]:
            fail(f"the variation rows: {rows}")
        # Listed under the move it leaves from: the row before it is turn 6 (events 16-19).
        before = page.eval("document.querySelector('#moves tr.variation')"
                           ".previousElementSibling.previousElementSibling.dataset.turn")
        expect("the variation is listed under turn", before, "6")
        page.click("#moves tr.variation")
        s = shown(page)
        expect("a click on the variation, the event shown", s["seq"], 18)
        if "city north" not in s["event"]:
            fail(f"the panel does not name the variation: {s['event']!r}")
        page.key("ArrowRight", key_code=39)
        s = shown(page)
        expect("ArrowRight in the variation", s["seq"], 19)
        expect("the variation's tiles", s["tiles"], tiles_through(events, 17) + 1)
        page.key("End", key_code=35)
        expect("End of the variation", shown(page)["seq"], 19)
        page.click("#back")
        marked = page.eval("JSON.parse(document.getElementById('carc-data').textContent)"
                           ".best.map(b => b.position)")
        if not marked:
            fail("the quality page has no best move to draw")
        goto(page, marked[0])
        s = shown(page)
        # Its tile drawn faintly on its square, and the square outlined
        expect(f"the best move's parts at position {marked[0]}", s["best"], 2)
        expect("the board shows", page.eval("document.getElementById('board').dataset.best"),
               "placement")
        if "best found" not in s["event"]:
            fail(f"the quality line is missing: {s['event']!r}")
        top = "document.getElementById('top').innerHTML"
        played = page.eval(top)
        # The button swaps in the board after the best move (its meeple included), and back
        page.click("#toggle-best")
        s = shown(page)
        expect("after the button, the board shows", page.eval(
            "document.getElementById('board').dataset.best"), "board")
        expect("the best move's board, its tiles", s["tiles"], tiles_through(events, marked[0]))
        if page.eval(top) == played:
            fail("the best move's board has the same meeples and marks as the move played")
        page.click("#toggle-best")
        expect("after the button again, the move played is back", page.eval(top) == played, True)
        page.key("ArrowRight", key_code=39)
        expect("no best move at the next position", shown(page)["best"], 0)
        if page.problems():
            fail("; ".join(page.problems()))

        # Desktop and phone widths: the page never scrolls sideways, and the move table, its
        # mark column included, stays inside its box.
        for width, mobile in ((1280, False), (400, True)):
            page.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                      deviceScaleFactor=1, mobile=mobile)
            time.sleep(0.2)
            fit = page.eval(
                "(() => { const d = document.documentElement;"
                " const box = document.querySelector('.moves').getBoundingClientRect();"
                " const t = document.getElementById('moves').getBoundingClientRect();"
                " const ths = Array.from(document.querySelectorAll('#moves th'));"
                " const mark = ths[ths.length - 1].getBoundingClientRect();"
                " return [d.scrollWidth - d.clientWidth, Math.round(t.right - box.right),"
                " ths[ths.length - 1].textContent, Math.round(mark.right - box.right)]; })()")
            expect(f"at {width} px, the page's sideways overflow", max(fit[0], 0), 0)
            expect(f"at {width} px, the move table past its box", max(fit[1], 0), 0)
            expect(f"at {width} px, the last column", fit[2], "mark")
            expect(f"at {width} px, the mark column past the box", max(fit[3], 0), 0)
            png = page.call("Page.captureScreenshot", format="png")["data"]
            path = os.path.join(out_dir, f"interactive-{width}px.png")
            with open(path, "wb") as f:
                f.write(base64.b64decode(png))
            print(f"screenshot at {width} px: {path}")

        # The win-probability graph: a click on it at position 19 jumps there, and both
        # graphs' cursors stand at the same x.
        page = browser.open(judged)
        page.key("Home", key_code=36)
        x, y = page.eval(
            "(() => { const g = document.getElementById('wingraph'); g.scrollIntoView();"
            " const r = g.getBoundingClientRect(); const w = g.viewBox.baseVal.width;"
            " const l = Number(g.dataset.left), rt = Number(g.dataset.right),"
            " n = Number(g.dataset.positions);"
            " const vx = l + (w - l - rt) * 19 / n;"
            " return [r.left + vx * r.width / w, r.top + r.height / 2]; })()")
        page.click_at(x, y)
        expect("a click on the win graph at position 19", shown(page)["seq"], 19)
        expect("the two cursors at the same x", page.eval(
            "document.getElementById('cursor').getAttribute('x1') ==="
            " document.getElementById('wincursor').getAttribute('x1')"), True)
        expect("one line per player on the win graph",
               page.eval("document.querySelectorAll('#wingraph polyline').length"), 2)
        for width, mobile in ((1280, False), (400, True)):
            page.call("Emulation.setDeviceMetricsOverride", width=width, height=900,
                      deviceScaleFactor=1, mobile=mobile)
            time.sleep(0.2)
            overflow = page.eval("document.documentElement.scrollWidth -"
                                 " document.documentElement.clientWidth")
            expect(f"at {width} px, the judged page's sideways overflow", max(overflow, 0), 0)
            page.eval("document.getElementById('wingraph').scrollIntoView()")
            png = page.call("Page.captureScreenshot", format="png")["data"]
            path = os.path.join(out_dir, f"interactive-win-graph-{width}px.png")
            with open(path, "wb") as f:
                f.write(base64.b64decode(png))
            print(f"screenshot of the win graph at {width} px: {path}")
        if page.problems():
            fail("; ".join(page.problems()))

        # The hostile page runs nothing, at every event.
        page = browser.open(hostile)
        page.key("Home", key_code=36)
        for _ in range(len(events)):
            page.key("ArrowRight", key_code=39)
            if page.eval("document.title") != HOSTILE_NAME + " vs " + BIDI_SHOWN + " \u00b7 " + HOSTILE_GAME:
                fail("the title changed: " + page.eval("document.title"))
        for seq in (3, 4, 5):
            goto(page, seq)
            note = page.eval("(document.querySelector('#event blockquote.note') || {}).textContent")
            expect(f"annotation {seq} shown as text", note, HOSTILE_NOTES[seq - 3])
        injected = page.eval(
            "document.querySelectorAll('#injected-img, #injected-b, #injected-div,"
            " #injected-svg, img, iframe, object, embed, [onerror], [onload]').length")
        expect("injected elements in the DOM", injected, 0)
        scripts = page.eval("document.scripts.length")
        expect("scripts in the page", scripts, 2)
        name = page.eval("document.querySelector('#moves tr.turn[data-turn=\"1\"] td:nth-child(2)')"
                         ".textContent")
        expect("the hostile name in the move list", name, HOSTILE_NAME)
        name = page.eval("document.querySelector('#moves tr.turn[data-turn=\"2\"] td:nth-child(2)')"
                         ".textContent")
        expect("the bidi name in the move list, escaped", name, BIDI_SHOWN)
        raw = page.eval("[...document.body.innerText].filter(c => " + json.dumps(HIDDEN)
                        + ".includes(c)).length")
        expect("bidi controls and separators shown raw", raw, 0)
        if page.problems():
            fail("; ".join(page.problems()))
    finally:
        browser.close()
    print("ok: the interactive page in Chromium")


if __name__ == "__main__":
    main()
