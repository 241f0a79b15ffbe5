#!/usr/bin/env python3
"""An engine that misbehaves at its first `go`, for the tests of `carc match`'s engine
client. Usage: bad_engine.py crash|hang|garbage|illegal|long"""
import sys
import time

mode = sys.argv[1]
for raw in iter(sys.stdin.readline, ""):
    line = raw.rstrip("\n")
    if line.startswith("carc-engine-protocol "):
        print("ready", flush=True)
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
