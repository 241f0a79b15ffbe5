#!/usr/bin/env python3
"""How often two seeds agree on the engine judge's marks (docs/benchmarks.md, issue 31).

Usage: review_stability.py CARC SEED_A SEED_B FILE...

Runs `CARC analyze FILE --quality --json --seed S` for both seeds and prints, per file and in
total, the turns each seed marks with ?/?? and with ?!, and how many marks agree (same event,
same glyph; ?/?? counted together as "? or worse" too).
"""
import json
import subprocess
import sys


def marks(carc, path, seed):
    out = subprocess.run([carc, "analyze", path, "--quality", "--json", "-q", "--seed", str(seed)],
                         check=True, capture_output=True, text=True).stdout
    q = json.loads(out)["quality"]
    return {t["event"]: t["mark"] for t in q["turns"] if t["mark"]}, q


def main():
    carc, a, b, files = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:]
    tot = {"serious_a": 0, "serious_b": 0, "serious_same": 0, "dub_a": 0, "dub_b": 0, "dub_same": 0}
    for f in files:
        ma, qa = marks(carc, f, a)
        mb, _ = marks(carc, f, b)
        serious_a = {e for e, m in ma.items() if m in ("?", "??")}
        serious_b = {e for e, m in mb.items() if m in ("?", "??")}
        dub_a = {e for e, m in ma.items() if m == "?!"}
        dub_b = {e for e, m in mb.items() if m == "?!"}
        row = {
            "serious_a": len(serious_a), "serious_b": len(serious_b),
            "serious_same": len(serious_a & serious_b),
            "dub_a": len(dub_a), "dub_b": len(dub_b), "dub_same": len(dub_a & dub_b),
        }
        for k in tot:
            tot[k] += row[k]
        acc = ", ".join(f"{p['name']} {p['accuracy']:.1f}" for p in qa["players"] if p["accuracy"] is not None)
        print(f"{f}: ?/?? {row['serious_a']} and {row['serious_b']}, both {row['serious_same']}; "
              f"?! {row['dub_a']} and {row['dub_b']}, both {row['dub_same']}; accuracy (seed {a}): {acc}")

    def share(same, x, y):
        return 100.0 * same / max(1, max(x, y))
    print(f"total: ?/?? marks {tot['serious_a']} and {tot['serious_b']}, {tot['serious_same']} in both "
          f"({share(tot['serious_same'], tot['serious_a'], tot['serious_b']):.0f} % of the larger set); "
          f"?! {tot['dub_a']} and {tot['dub_b']}, {tot['dub_same']} in both "
          f"({share(tot['dub_same'], tot['dub_a'], tot['dub_b']):.0f} %)")


if __name__ == "__main__":
    main()
