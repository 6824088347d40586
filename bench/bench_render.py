"""Render benchmark: the map PNG and the report PDF of all 12 players of one turn, on one core.

    .venv/bin/python bench/bench_render.py [--repeat N]

Creates a 12-player campaign on the default Aegean in a temporary folder, adjudicates turn 1, adds a few
moves and a battle to the log, then times, per player: the SVG string, the PNG with the terrain drawn as
vectors, the PNG with the terrain as the cached raster base (what reports use), the PDF (map page with the
raster base + text pages) and the PDF with a vector map page.  Prints the median per map and the total for
the 12.  Targets (issue #7): PNGs of 12 players <= 1.5 s, PDFs <= 3 s.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pbem import mapsvg, report, turn  # noqa: E402
from pbem.campaign import create  # noqa: E402
from pbem.gamedata import load_map, tables  # noqa: E402


def campaign(tmp: Path):
    states = [c.id for c in load_map().city_states()]
    camp = create(tmp / "bench", states, seed="7").campaign
    turn.run(camp)
    records = camp.read_log(1)
    seq = len(records)
    extra = [
        {"event": "moved", "player": "athens", "phase": "first_move", "units": ["ATH-A1", "ATH-A2"],
         "from": "1313", "path": ["1213", "1113"]},
        {"event": "moved", "player": "sparta", "phase": "first_move", "units": ["SPA-A1"], "from": "0716",
         "path": ["0815", "0915"]},
        {"event": "battle", "player": "athens", "phase": "land_battle", "target": "1014", "attacker": "athens",
         "defender": "corinth"},
    ]
    for e in extra:
        seq += 1
        records.append({"seq": seq, "turn": 1, **e})
    camp.write_log(1, records)
    return camp


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=1, help="render every map this many times")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        camp = campaign(Path(tmp))
        after, before, records = report.load_turn(camp, 1)
        game_map, tabs = camp.game_map, tables()
        env = report.environment(None)
        t0 = time.perf_counter()
        contexts = [report.build_context("bench", 1, game_map, tabs, after, before, records, p)
                    for p in after.turn_order]
        t_ctx = time.perf_counter() - t0
        # warm the caches (static layer, its PNG) once, as the first report of a run does
        t0 = time.perf_counter()
        mapsvg.svg_to_png(mapsvg.map_svg(game_map, contexts[0]["_view"], raster_base=True))
        t_warm = time.perf_counter() - t0
        times: dict[str, list[float]] = {k: [] for k in ("svg", "png_vector", "png_raster", "pdf_raster",
                                                          "pdf_vector", "text")}
        for _ in range(args.repeat):
            for ctx in contexts:
                v = ctx["_view"]
                t = time.perf_counter()
                mapsvg.map_svg(game_map, v, v["events"])
                times["svg"].append(time.perf_counter() - t)
                t = time.perf_counter()
                mapsvg.svg_to_png(mapsvg.map_svg(game_map, v, v["events"]))
                times["png_vector"].append(time.perf_counter() - t)
                t = time.perf_counter()
                mapsvg.svg_to_png(mapsvg.map_svg(game_map, v, v["events"], raster_base=True))
                times["png_raster"].append(time.perf_counter() - t)
                t = time.perf_counter()
                text = env.get_template("report.txt.j2").render(**ctx)
                times["text"].append(time.perf_counter() - t)
                t = time.perf_counter()
                report.pdf_report(mapsvg.map_svg(game_map, v, v["events"], raster_base=True), text, ctx["title"])
                times["pdf_raster"].append(time.perf_counter() - t)
                t = time.perf_counter()
                report.pdf_report(mapsvg.map_svg(game_map, v, v["events"]), text, ctx["title"])
                times["pdf_vector"].append(time.perf_counter() - t)
        n = len(contexts)
        print(f"12 players, {args.repeat} run(s); view+context of 12: {t_ctx * 1000:.0f} ms; "
              f"first map (builds the cached terrain layer and its PNG): {t_warm * 1000:.0f} ms")
        for k, ts in times.items():
            med = statistics.median(ts)
            print(f"  {k:<11} median {med * 1000:6.1f} ms per player   12 players: {med * n:5.2f} s")
        t0 = time.perf_counter()
        report.write_reports(camp, 1)
        print(f"  write_reports(all 5 formats, 12 players + moderator): {time.perf_counter() - t0:.2f} s")


if __name__ == "__main__":
    main()
