"""Render benchmark: the map PNG and the report PDF of all 12 players of one turn, then whole turns.

    .venv/bin/python bench/bench_render.py [--repeat N]

Creates a 12-player campaign on the default Aegean in a temporary folder, adjudicates turn 1, adds a few
moves and a battle to the log, then times, per player, on one core: the map's layers (SVG strings), the
whole SVG, the PNG drawn whole by CairoSVG with the terrain as vectors, the same with the terrain as the
cached raster base (``raster_base``), the PNG as reports make it (the viewer's layers drawn on the cached
raster of the static and turn layers, then ``png_bytes``; ``png_layers`` is the drawing, ``png_encode`` the
encoding), the PDF with that PNG as its map page (what reports use) and the PDF with a vector map page.
Prints the median per map and the total for the 12.  Targets (issue #7): PNGs of 12 players <= 1.5 s,
PDFs <= 3 s.

Last, "12 players, all formats, one turn": ``write_reports`` of the 12 players and the moderator, every
format, with 1 and with 2 worker processes (median of ``--repeat`` runs, at least 3), wall time.
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
        mapsvg.map_png(game_map, contexts[0]["_view"], title="Turn 1")
        t_warm = time.perf_counter() - t0
        times: dict[str, list[float]] = {k: [] for k in ("layers", "svg", "png_vector", "png_raster", "png_layers",
                                                          "png_encode", "text", "pdf_image", "pdf_vector")}
        for _ in range(args.repeat):
            for ctx in contexts:
                v = ctx["_view"]
                t = time.perf_counter()
                layers = mapsvg.layers(game_map, v, v["events"], title="Turn 1")
                times["layers"].append(time.perf_counter() - t)
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
                image = layers.image()
                times["png_layers"].append(time.perf_counter() - t)
                t = time.perf_counter()
                png = mapsvg.png_bytes(image)
                times["png_encode"].append(time.perf_counter() - t)
                t = time.perf_counter()
                text = env.get_template("report.txt.j2").render(**ctx)
                times["text"].append(time.perf_counter() - t)
                t = time.perf_counter()
                report.pdf_report(None, text, ctx["title"], map_png=png)
                times["pdf_image"].append(time.perf_counter() - t)
                t = time.perf_counter()
                report.pdf_report(mapsvg.map_svg(game_map, v, v["events"]), text, ctx["title"])
                times["pdf_vector"].append(time.perf_counter() - t)
        n = len(contexts)
        print(f"12 players, {args.repeat} run(s); view+context of 12: {t_ctx * 1000:.0f} ms; "
              f"first map (builds the cached layers and their raster): {t_warm * 1000:.0f} ms")
        for k, ts in times.items():
            med = statistics.median(ts)
            print(f"  {k:<11} median {med * 1000:6.1f} ms per player   12 players: {med * n:5.2f} s")
        print("  12 players, all formats, one turn (write_reports, 12 players + moderator, wall):")
        for workers in (1, 2):
            runs = []
            for _ in range(max(3, args.repeat)):
                t0 = time.perf_counter()
                report.write_reports(camp, 1, workers=workers)
                runs.append(time.perf_counter() - t0)
            print(f"    workers={workers}: median {statistics.median(runs):.2f} s  "
                  f"(runs: {', '.join(f'{r:.2f}' for r in runs)})")


if __name__ == "__main__":
    main()
