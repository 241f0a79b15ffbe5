#!/usr/bin/env python3
"""The bookmarklet that saves a Board Game Arena replay, run in headless Chromium.

It runs the one-line `javascript:` form printed in docs/bga.md (crates/bga/tests/bookmarklet.rs
checks that line is bookmarklet/save-replay.js) on pages made from the fixture
tests/fixtures/replay-page.html, served from 127.0.0.1: a page shaped like the data of BGA's
replay page (the packets in window.g_gamelogs), not the live site, which is not reachable here.

- The page holding a whole corpus game (../shared/corpus/bga/366166200.json) at
  `?table=366166200`: one file is saved, named 366166200.json, holding exactly the page's
  packets in BGA's envelope; no request leaves the page; `carc check` reads it, every one of
  BGA's scoring claims agrees, and its final scores are the last ones BGA announced.
- The packets' `table_id` names the file even where the address says another `table=`;
  packets without `table_id`: the name comes from the address's `table=`.
- A page without g_gamelogs, and packets without a table id on an address without one: an
  alert says what to do, and nothing is saved.

Screenshots for docs/bga.md go to OUT_DIR: the fixture page, and the page without replay data
with the alert's text (headless Chromium draws no dialog, so the test writes the text it
caught into the page, marked as such).

Only the Python standard library: the DevTools WebSocket client and browser launcher are the
ones of crates/report/tests/interactive_in_chromium.py.

Usage: bookmarklet_in_chromium.py [OUT_DIR]
Environment: CARC_BIN (default target/release/carc under CARGO_TARGET_DIR or the workspace),
CHROMIUM (default /usr/bin/chromium).
"""

import base64
import functools
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))
# No __pycache__ left in the source tree by the import below.
sys.dont_write_bytecode = True
sys.path.insert(0, os.path.join(ROOT, "crates", "report", "tests"))
from interactive_in_chromium import Browser  # noqa: E402  (the DevTools client, reused)

DOCS = os.path.join(ROOT, "docs", "bga.md")
TEMPLATE = os.path.join(HERE, "fixtures", "replay-page.html")
SHORT = os.path.join(HERE, "fixtures", "short.json")
CORPUS_GAME = os.path.join(ROOT, "..", "shared", "corpus", "bga", "366166200.json")
MARKER = "window.g_gamelogs = /* PACKETS */ null;"


def fail(message):
    print("FAIL: " + message, file=sys.stderr)
    sys.exit(1)


def expect(what, got, want):
    if got != want:
        fail(f"{what}: got {got!r}, expected {want!r}")
    print(f"ok: {what} = {got!r}")


class Page:
    """One tab. Unlike the interactive page's test, a dialog is expected here: it is recorded
    and dismissed, as a person clicking OK would."""

    def __init__(self, ws, session):
        self.ws, self.session, self.next_id = ws, session, 1000
        self.events, self.dialogs = [], []

    def send(self, method, **params):
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params,
                                 "sessionId": self.session}))
        return self.next_id

    def call(self, method, **params):
        ident = self.send(method, **params)
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == ident:
                if "error" in msg:
                    fail(f"{method}: {msg['error']}")
                return msg.get("result", {})
            if "method" in msg:
                self.events.append(msg)
                # The page waits for the answer, so the call that opened the dialog returns
                # only once it is dismissed.
                if msg["method"] == "Page.javascriptDialogOpening":
                    self.dialogs.append(msg["params"])
                    self.send("Page.handleJavaScriptDialog", accept=True)

    def eval(self, expression, user_gesture=False):
        r = self.call("Runtime.evaluate", expression=expression, returnByValue=True,
                      awaitPromise=True, userGesture=user_gesture)
        if "exceptionDetails" in r:
            fail(f"{expression[:200]}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def screenshot(self, path):
        png = self.call("Page.captureScreenshot", format="png")["data"]
        with open(path, "wb") as f:
            f.write(base64.b64decode(png))
        print(f"screenshot: {path}")


def open_page(browser, url):
    target = browser.call("Target.createTarget", url="about:blank")["targetId"]
    session = browser.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    page = Page(browser.ws, session)
    for domain in ("Page", "Runtime", "Network"):
        page.call(domain + ".enable")
    page.call("Emulation.setDeviceMetricsOverride", width=900, height=330, deviceScaleFactor=1,
              mobile=False)
    page.call("Page.navigate", url=url)
    for _ in range(200):
        if page.eval("document.readyState") == "complete":
            break
        time.sleep(0.05)
    else:
        fail(f"{url} did not load")
    page.events.clear()
    return page


def docs_bookmarklet():
    """The code a browser runs for the docs' bookmark: the address after `javascript:`,
    percent-decoded as browsers do."""
    lines = [line for line in open(DOCS) if line.startswith("javascript:")]
    if len(lines) != 1:
        fail(f"docs/bga.md must hold one `javascript:` line, has {len(lines)}")
    return urllib.parse.unquote(lines[0].rstrip("\n")[len("javascript:"):])


def fixture_page(packets):
    """The fixture with these packets in g_gamelogs (None: the line left out)."""
    html = open(TEMPLATE).read()
    if MARKER not in html:
        fail(f"{TEMPLATE} lost its marker {MARKER!r}")
    # `<\/` keeps a `</script>` in the data from ending the script element.
    data = "" if packets is None else \
        "window.g_gamelogs = " + json.dumps(packets).replace("</", "<\\/") + ";"
    return html.replace(MARKER, data)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(folder):
    handler = functools.partial(QuietHandler, directory=folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def click(browser, page, code, downloads):
    """Run the bookmarklet as a click on the bookmark does (a user gesture), downloads going
    to the folder `downloads`; return the files saved there."""
    os.makedirs(downloads, exist_ok=True)
    browser.call("Browser.setDownloadBehavior", behavior="allow", downloadPath=downloads,
                 eventsEnabled=True)
    expect("the bookmarklet's value (a page-replacing value would be shown instead of the page)",
           page.eval(code, user_gesture=True), None)
    deadline = time.time() + 10
    while True:
        # The download is written under a temporary name, then renamed when complete.
        names = sorted(os.listdir(downloads))
        if names and not any(n.endswith(".crdownload") for n in names):
            break
        if page.dialogs or time.time() > deadline:
            # Nothing is expected: give a download that would start a moment to show.
            time.sleep(0.5)
            page.eval("1")
            names = sorted(os.listdir(downloads))
            break
        time.sleep(0.05)
    requests = [e["params"]["request"]["url"] for e in page.events
                if e["method"] == "Network.requestWillBeSent"]
    outside = [u for u in requests if not u.startswith("blob:")]
    if outside:
        fail(f"the bookmarklet made requests: {outside}")
    return names


def show_alert(page, message):
    """Headless Chromium draws no dialog: write the caught text into the page for the
    screenshot, saying so."""
    page.eval(
        "(() => { const box = document.createElement('div');"
        " box.style.cssText = 'position:fixed;left:90px;top:120px;width:680px;padding:14px 18px;"
        "background:#fff;border:1px solid #888;border-radius:8px;box-shadow:0 4px 18px #0004;"
        "font:15px/1.4 \"DejaVu Sans\",sans-serif';"
        " const head = document.createElement('div'); head.style.cssText = 'color:#666;"
        "font-size:12px;margin-bottom:8px';"
        " head.textContent = 'The alert the bookmarklet opened (its text, drawn by the test:"
        " headless Chromium draws no dialogs)';"
        f" const text = document.createElement('div'); text.textContent = {json.dumps(message)};"
        " box.append(head, text); document.body.appendChild(box); })()")


def last_scores(packets):
    """BGA's final scores: each player's last `winPoints` running total, by name."""
    scores = {}
    for packet in packets:
        for note in packet["data"]:
            if note["type"] == "winPoints":
                scores[note["args"]["player_name"]] = int(note["args"]["score"])
    return scores


def main():
    out_dir = sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="carc-bookmarklet-")
    os.makedirs(out_dir, exist_ok=True)
    target = os.environ.get("CARGO_TARGET_DIR", os.path.join(ROOT, "target"))
    carc_bin = os.path.abspath(os.environ.get("CARC_BIN", os.path.join(target, "release", "carc")))
    chromium = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    for need, hint in ((carc_bin, "cargo build --release -p carc-cli"),
                       (chromium, "Debian package chromium")):
        if not os.access(need, os.X_OK):
            print(f"missing {need} ({hint})", file=sys.stderr)
            sys.exit(2)
    if not os.path.exists(CORPUS_GAME):
        print(f"missing {CORPUS_GAME} (the project's shared corpus)", file=sys.stderr)
        sys.exit(2)

    code = docs_bookmarklet()
    game = json.load(open(CORPUS_GAME))
    packets = game["data"]["data"]
    short = json.load(open(SHORT))["data"]["data"]
    without_id = [{k: v for k, v in p.items() if k != "table_id"} for p in short]

    work = tempfile.mkdtemp(prefix="carc-bookmarklet-work-")
    site = os.path.join(work, "site")
    os.makedirs(site)
    for name, page_packets in (("replay.html", packets), ("empty.html", None),
                               ("short.html", short), ("no-table-id.html", without_id)):
        with open(os.path.join(site, name), "w") as f:
            f.write(fixture_page(page_packets))
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"

    browser = Browser(chromium)
    try:
        # A whole game: saved under its table id, as the page holds it, and carc agrees.
        page = open_page(browser, base + "/replay.html?table=366166200")
        page.screenshot(os.path.join(out_dir, "bga-bookmarklet-fixture.png"))
        downloads = os.path.join(work, "game")
        expect("the files saved from the replay page", click(browser, page, code, downloads),
               ["366166200.json"])
        expect("dialogs on the replay page", page.dialogs, [])
        saved_path = os.path.join(downloads, "366166200.json")
        saved = json.load(open(saved_path))
        expect("the saved envelope", (saved.get("status"), saved["data"].get("valid")), (1, 1))
        expect("the saved packets are the page's", saved["data"]["data"] == packets, True)
        r = subprocess.run([carc_bin, "--quiet", "check", "--json", saved_path],
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail(f"carc check {saved_path}: {r.stdout} {r.stderr}")
        report = json.loads(r.stdout)
        expect("carc check: ok (every BGA scoring claim agrees)", report["ok"], True)
        expect("carc check: the game is finished", report["finished"], True)
        expect("carc check: final scores are BGA's",
               {s["player"]: s["score"] for s in report["final_scores"]}, last_scores(packets))

        # The packets' table id comes first: the address may be another page's.
        page = open_page(browser, base + "/short.html?table=1")
        expect("the file saved when the address names another table",
               click(browser, page, code, os.path.join(work, "packets-first")),
               ["366166200.json"])

        # Packets without table_id: the address names the file.
        page = open_page(browser, base + "/no-table-id.html?table=366166200")
        expect("the file saved when only the address has the table id",
               click(browser, page, code, os.path.join(work, "address")), ["366166200.json"])
        expect("dialogs", page.dialogs, [])

        # No table id anywhere: refused.
        page = open_page(browser, base + "/no-table-id.html")
        expect("files saved without a table id", click(browser, page, code,
                                                       os.path.join(work, "no-id")), [])
        expect("alerts without a table id", [d["type"] for d in page.dialogs], ["alert"])
        if "no table id found" not in page.dialogs[0]["message"]:
            fail(f"the alert without a table id: {page.dialogs[0]['message']!r}")

        # Not the replay page (or not loaded): the alert says what to do.
        page = open_page(browser, base + "/empty.html?table=366166200")
        expect("files saved from a page without g_gamelogs",
               click(browser, page, code, os.path.join(work, "empty")), [])
        expect("alerts without g_gamelogs", [d["type"] for d in page.dialogs], ["alert"])
        message = page.dialogs[0]["message"]
        if "Open the table's replay page and let it load, then click again." not in message:
            fail(f"the alert without g_gamelogs: {message!r}")
        print(f"ok: the alert says {message!r}")
        show_alert(page, message)
        page.screenshot(os.path.join(out_dir, "bga-bookmarklet-alert.png"))
    finally:
        browser.close()
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)
    print("ok: the bookmarklet in Chromium")


if __name__ == "__main__":
    main()
