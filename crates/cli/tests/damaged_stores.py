#!/usr/bin/env python3
"""Damaged-store loop (issue 33): does running a store verb on a damaged store lose games that
`carc salvage` could still read?

For each of N copies of a healthy store, flips bits of its `db` (one bit, or a few bytes), then
  A: salvages a pristine copy of the damaged store (what could be read), and
  B: runs every store verb on a second copy, checks that a verb failing to open the store left
     its bytes as they were, then salvages it.
Games recovered are counted among the store's original games (a bundle of theirs that was not
reported damaged). B < A for a store means a verb destroyed readable games.

Not a CI test (minutes). Run from the repository root after `cargo build -p carc-cli`:

    python3 crates/cli/tests/damaged_stores.py --carc target/debug/carc --stores 100 --seed 1
"""

import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time


def carc(binary, *args, cwd=None):
    return subprocess.run([binary, "-q", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def digest(folder):
    """Every file under `folder` with its SHA-256, to tell whether a verb wrote to it."""
    out = {}
    for root, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(root, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, folder)] = hashlib.sha256(f.read()).hexdigest()
    return out


def recovered(binary, store, out, originals):
    """How many of the original games `carc salvage` writes whole from `store`."""
    shutil.rmtree(out, ignore_errors=True)
    o = carc(binary, "salvage", store, "--out", out, "--json")
    try:
        report = json.loads(o.stdout)
    except json.JSONDecodeError:
        return 0
    damaged = set()
    for p in report.get("problems", []):
        for game in originals:
            if f"game {game}:" in p and ("does not decode" in p or "retractions" in p):
                damaged.add(game)
            if f"stream {game}:" in p:
                damaged.add(game)
    return sum(1 for g in report.get("games", [])
               if g["game"] in originals and g["game"] not in damaged)


def damage(store, rng):
    """Flips one bit (half the stores) or 1 to 8 random bytes of the store's `db`."""
    path = os.path.join(store, "db")
    with open(path, "rb") as f:
        data = bytearray(f.read())
    if rng.random() < 0.5:
        at = rng.randrange(len(data))
        data[at] ^= 1 << rng.randrange(8)
        what = f"bit at {at}"
    else:
        ats = sorted(rng.randrange(len(data)) for _ in range(rng.randint(1, 8)))
        for at in ats:
            data[at] ^= rng.randrange(1, 256)
        what = f"bytes at {ats}"
    with open(path, "wb") as f:
        f.write(data)
    return what


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--carc", default="target/debug/carc")
    ap.add_argument("--stores", type=int, default=50)
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--minutes", type=float, default=0, help="stop after this long (0: never)")
    args = ap.parse_args()
    binary = os.path.abspath(args.carc)
    rng = random.Random(args.seed)
    work = tempfile.mkdtemp(prefix="carc-damaged-")
    start = time.time()
    try:
        sims = os.path.join(work, "sims")
        healthy = os.path.join(work, "healthy")
        o = carc(binary, "simulate", "--seed", "1", "--players", "3", "--games",
                 str(args.games), "--out", sims)
        assert o.returncode == 0, o.stderr
        assert carc(binary, "--store", healthy, "import", sims).returncode == 0
        games = [line.split(":")[0] for line in
                 carc(binary, "--store", healthy, "games").stdout.splitlines()]
        first = games[0]
        assert carc(binary, "--store", healthy, "annotate", first, "--at", "3", "--text",
                    "kept beside the game").returncode == 0
        assert carc(binary, "--store", healthy, "verify").returncode == 0
        originals = set(games)
        verbs = [
            ["verify"], ["games"], ["export", first], ["import", sims], ["replay", first],
            ["explain", first, "--at", "5"], ["legal", first, "--at", "5"],
            ["annotate", first, "--at", "4", "--text", "x"], ["analyze", first],
            ["render", first, "--out", os.path.join(work, "b.svg")],
            ["variation", "list", first],
            ["export", "--all", "--format", "parquet", "--out", os.path.join(work, "pq")],
            ["record", "new", "zz-new", "--players", "A,B"],
        ]
        totals = {"stores": 0, "A": 0, "B": 0, "dropped_stores": 0, "games_lost": 0,
                  "failed_open_writes": 0, "opens_failed": 0}
        for i in range(args.stores):
            if args.minutes and time.time() - start > args.minutes * 60:
                break
            a = os.path.join(work, "a")
            b = os.path.join(work, "b")
            for d in (a, b):
                shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(healthy, a)
            what = damage(a, rng)
            shutil.copytree(a, b)
            got_a = recovered(binary, a, os.path.join(work, "out-a"), originals)
            for verb in verbs:
                before = digest(b)
                o = carc(binary, "--store", b, *verb)
                if o.returncode == 2 and "damaged and cannot be opened" in o.stderr:
                    totals["opens_failed"] += 1
                    if "carc salvage" not in o.stderr or digest(b) != before:
                        totals["failed_open_writes"] += 1
                        print(f"store {i} ({what}): {verb[0]} failed to open and wrote to it",
                              file=sys.stderr)
                shutil.rmtree(os.path.join(work, "pq"), ignore_errors=True)
            got_b = recovered(binary, b, os.path.join(work, "out-b"), originals)
            totals["stores"] += 1
            totals["A"] += got_a
            totals["B"] += got_b
            if got_b < got_a:
                totals["dropped_stores"] += 1
                totals["games_lost"] += got_a - got_b
                print(f"store {i} ({what}): salvage {got_a} before the verbs, {got_b} after",
                      file=sys.stderr)
        totals["seconds"] = round(time.time() - start, 1)
        print(json.dumps(totals))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
