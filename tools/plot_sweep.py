#!/usr/bin/env python3
"""Turns the CSV of `cycle_sim --sweep` (fabric::experiment::write_csv) into a
latency-versus-offered-load PNG, with 95% confidence bars when the sweep ran
several seeds per point.

    cycle_sim --topology torus --dims 8,8 --sweep 0.02:0.5:0.02 --seeds 1,2,3 > sweep.csv
    tools/plot_sweep.py sweep.csv sweep.png [--title "8x8 torus, uniform"]

Needs Debian's python3-matplotlib.
"""
import argparse
import csv

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("csv", nargs="+", help="sweep CSV files (one curve each)")
    parser.add_argument("png")
    parser.add_argument("--title", default="latency against offered load")
    parser.add_argument("--labels", default=None, help="comma-separated curve labels")
    args = parser.parse_args()
    labels = args.labels.split(",") if args.labels else args.csv
    fig, ax = plt.subplots(figsize=(6.4, 4.2), dpi=120)
    for path, label in zip(args.csv, labels):
        with open(path, newline="") as f:
            rows = [r for r in csv.DictReader(f)
                    if 2 * float(r["saturated_runs"]) <= float(r["runs"]) and float(r["deadlocked_runs"]) == 0]
        ax.errorbar([float(r["offered[flits/cycle/node]"]) for r in rows],
                    [float(r["latency_mean[cycles]"]) for r in rows],
                    yerr=[float(r["latency_mean_ci95[cycles]"]) for r in rows], marker="o", markersize=3,
                    capsize=2, label=label)
    ax.set_xlabel("offered load (flits/cycle/node)")
    ax.set_ylabel("mean packet latency (cycles)")
    ax.set_title(args.title)
    ax.grid(True, alpha=0.3)
    ax.legend()
    fig.tight_layout()
    fig.savefig(args.png)


if __name__ == "__main__":
    main()
