#!/usr/bin/env python3
"""A carc engine that knows no rules (docs/engine-protocol.md): it plays a seeded random
choice among the moves carc lists. Standard library only. Usage: simple_engine.py [SEED]"""
import random
import sys

rng = random.Random(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
moves = []


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


lines = iter(sys.stdin.readline, "")
for raw in lines:
    line = raw.rstrip("\n")
    if line.startswith("carc-engine-protocol "):
        say("id name simple_engine.py")
        say("ready")
    elif line == "position":
        # The log's lines (header, then events), up to "end": this engine ignores them.
        for inner in lines:
            if inner.rstrip("\n") == "end":
                break
    elif line.startswith("moves "):
        moves = [next(lines).rstrip("\n") for _ in range(int(line.split()[1]))]
    elif line == "go":
        say("info string %d moves listed" % len(moves))
        say("bestmove " + rng.choice(moves))
    elif line == "quit":
        break
