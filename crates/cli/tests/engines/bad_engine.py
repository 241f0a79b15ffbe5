#!/usr/bin/env python3
"""An engine that misbehaves, for the tests of `carc match`'s engine client.
Usage: bad_engine.py MODE [FILE]

At its first `go`: crash, hang, garbage, illegal, long (a line over the limit), fork-exit
(forks a child that keeps stdout open and sleeps, writes the child's pid to FILE, exits).
Throughout the game: silent (never greets; FILE gets a line per start), twice (answers each
`go` with the first move listed, twice), helper (starts a `sleep` that ignores stdin, writes
its pid to FILE, then answers each `go` with the first move listed)."""
import os
import subprocess
import sys
import time

mode = sys.argv[1]
note = sys.argv[2] if len(sys.argv) > 2 else None


def record(text):
    with open(note, "a") as f:
        f.write(text + "\n")


if mode == "silent":
    record("started")
    for _ in iter(sys.stdin.readline, ""):
        pass
    sys.exit(0)
if mode == "helper":
    helper = subprocess.Popen(["sleep", "120"], stdin=subprocess.DEVNULL)
    record(str(helper.pid))

moves = []
lines = iter(sys.stdin.readline, "")
for raw in lines:
    line = raw.rstrip("\n")
    if line.startswith("carc-engine-protocol "):
        print("ready", flush=True)
    elif line.startswith("moves "):
        moves = [next(lines).rstrip("\n") for _ in range(int(line.split()[1]))]
    elif line == "go":
        if mode == "crash":
            sys.stderr.write("Traceback: something broke\n")
            sys.exit(3)
        if mode == "hang":
            while True:
                time.sleep(60)
        if mode == "garbage":
            print("\x1b]0;pwned\x07hello there", flush=True)
        if mode == "illegal":
            print("bestmove 99,99 0 none", flush=True)
        if mode == "long":
            print("info " + "x" * 200000, flush=True)
        if mode == "fork-exit":
            pid = os.fork()
            if pid == 0:
                time.sleep(120)
                os._exit(0)
            record(str(pid))
            os._exit(0)
        if mode == "twice":
            # Both answers in one write: the second is left over for the next decision.
            sys.stdout.write("bestmove %s\nbestmove %s\n" % (moves[0], moves[0]))
            sys.stdout.flush()
        if mode == "helper":
            print("bestmove " + moves[0], flush=True)
    elif line == "quit":
        break
