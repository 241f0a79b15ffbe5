"""The Parquet tables, read by DuckDB, agree with `carc analyze --json`.

Usage: python3 duckdb_check.py CARC LOGS_DIR WORK_DIR

Exports every game of LOGS_DIR with `carc export --format parquet`, runs the three-line query
of docs/tables.md (points by source per seat), and compares it, game by game and seat by
seat, with `carc analyze LOGS_DIR --per-game --json`; also final scores and winners.
Needs only the `duckdb` package. Exits non-zero on any difference.
"""

import json
import os
import subprocess
import sys

import duckdb


def main():
    carc, logs, work = sys.argv[1:4]
    out = os.path.join(work, "tables")
    subprocess.run([carc, "export", logs, "--format", "parquet", "--out", out, "--quiet"], check=True)
    analyzed = subprocess.run(
        [carc, "analyze", logs, "--per-game", "--json"], check=True, capture_output=True, text=True
    ).stdout
    games = [json.loads(line) for line in analyzed.splitlines() if line.strip()]

    con = duckdb.connect()
    con.execute(f"SET file_search_path = '{out}'")
    # The documented query (docs/tables.md): points by source per seat.
    rows = con.execute(
        "SELECT g.file, s.seat, s.source, sum(s.points) AS points "
        "FROM 'scores/*.parquet' s JOIN 'games/*.parquet' g USING (game_key) "
        "GROUP BY ALL ORDER BY ALL"
    ).fetchall()
    tables = {(f, seat, source): int(points) for f, seat, source, points in rows}
    finals = {
        (f, seat): (score, winner)
        for f, seat, score, winner in con.execute(
            "SELECT g.file, p.seat, p.final_score, p.winner "
            "FROM 'players/*.parquet' p JOIN 'games/*.parquet' g USING (game_key)"
        ).fetchall()
    }

    problems, compared = [], 0
    expected = {}
    for game in games:
        for player in game["players"]:
            seat = player["seat"]
            for source, points in player["points_by_source"].items():
                expected[(game["file"], seat, source.replace(" ", "_"))] = points
            if player["town_costs"]:
                expected[(game["file"], seat, "town_cost")] = -player["town_costs"]
            won = player["name"] in game["winners"]
            if finals.get((game["file"], seat)) != (player["points"], won):
                problems.append(f"{game['file']} seat {seat}: final {finals.get((game['file'], seat))}, analyze {player['points']} won={won}")
    for key in sorted(set(expected) | set(tables)):
        compared += 1
        if expected.get(key, 0) != tables.get(key, 0):
            problems.append(f"{key}: DuckDB {tables.get(key, 0)}, carc analyze {expected.get(key, 0)}")
    # The move quality (`--quality`): the marks and accuracies DuckDB reads from the tables are
    # those `carc analyze --quality --json` gives for the same game, judge, iterations and seed.
    short = os.path.join(logs, "short-game-rulings.jsonl")
    judged = ["--quality", "--nodes", "60", "--seed", "3"]
    qout = os.path.join(work, "quality")
    subprocess.run([carc, "export", short, "--format", "parquet", "--out", qout, "--quiet", *judged], check=True)
    report = json.loads(subprocess.run(
        [carc, "analyze", short, "--json", *judged], check=True, capture_output=True, text=True
    ).stdout)["quality"]
    con.execute(f"SET file_search_path = '{qout}'")
    marks = sorted(con.execute("SELECT seq, mark FROM 'moves/*.parquet' WHERE mark IS NOT NULL").fetchall())
    want = sorted((t["event"], t["mark"]) for t in report["turns"] if t.get("mark"))
    compared += 1
    if marks != want:
        problems.append(f"quality marks: DuckDB {marks}, carc analyze {want}")
    accuracy = dict(con.execute("SELECT seat, accuracy FROM 'players/*.parquet'").fetchall())
    print(f"quality: marks {marks}, accuracy by seat {accuracy}")
    for seat, player in enumerate(report["players"]):
        compared += 1
        got, expect = accuracy.get(seat), player.get("accuracy")
        if (got is None) != (expect is None) or (got is not None and abs(got - expect) > 1e-9):
            problems.append(f"seat {seat} accuracy: DuckDB {got}, carc analyze {expect}")
    for p in problems:
        print("MISMATCH", p)
    print(f"DuckDB {duckdb.__version__}: {len(games)} games, {compared} (game, seat, source) totals compared with carc analyze")
    print(f"{compared - len(problems)} passed, {len(problems)} failed")
    sys.exit(1 if problems or not compared else 0)


if __name__ == "__main__":
    main()
