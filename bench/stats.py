#!/usr/bin/env python3
"""Corpus statistics with the Python standard library: the peer of
`masrl stats` in BENCHMARKS.md.

It computes what the survey's artifact statistics script prints (Appendix
C.6): retained and excluded counts, a histogram of each of the eight
controlled fields, three cross-tabs (reward_type x credit_granularity,
orchestration_form x credit_granularity, category x verified) and the
exclusion log by stage, source and query family. Like a typical analysis
script it reads every row into memory with csv.DictReader first and counts
afterwards; --stream counts row by row instead, to show what the same
counts cost when no row is kept.

    python3 stats.py [--stream] CORPUS_DIR
"""
import collections
import csv
import os
import sys

FIELDS = ["category", "is_rl", "reward_type", "credit_granularity",
          "orchestration_form", "scenario", "is_core", "verified"]
CROSSTABS = [("reward_type", "credit_granularity"),
             ("orchestration_form", "credit_granularity"),
             ("category", "verified")]


def read_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def iter_rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        yield from csv.DictReader(f)


def count(rows, xrows):
    hist = {f: collections.Counter() for f in FIELDS}
    cross = {c: collections.Counter() for c in CROSSTABS}
    retained = 0
    for r in rows:
        retained += 1
        for f in FIELDS:
            hist[f][r[f]] += 1
        for a, b in CROSSTABS:
            cross[(a, b)][(r[a], r[b])] += 1
    by = {k: collections.Counter() for k in ("stage", "source", "query_family")}
    excluded = 0
    for r in xrows:
        excluded += 1
        for k in by:
            by[k][r[k]] += 1
    return retained, excluded, hist, cross, by


def main(argv):
    stream = "--stream" in argv
    args = [a for a in argv if a != "--stream"]
    if len(args) != 1:
        print(__doc__.strip().splitlines()[-1].strip(), file=sys.stderr)
        return 2
    papers = os.path.join(args[0], "papers.csv")
    excluded = os.path.join(args[0], "excluded.csv")
    if stream:
        result = count(iter_rows(papers), iter_rows(excluded))
    else:
        result = count(read_rows(papers), read_rows(excluded))
    retained, nexcl, hist, cross, by = result
    out = [f"retained {retained}", f"excluded {nexcl}", f"audited {retained + nexcl}"]
    for f in FIELDS:
        out.append(f"\n{f}")
        for v, n in sorted(hist[f].items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"  {v}\t{n}")
    for (a, b), c in cross.items():
        out.append(f"\n{a} x {b}")
        for (va, vb), n in sorted(c.items()):
            out.append(f"  {va}\t{vb}\t{n}")
    for k, c in by.items():
        out.append(f"\nexcluded by {k}")
        for v, n in sorted(c.items(), key=lambda kv: (-kv[1], kv[0])):
            out.append(f"  {v}\t{n}")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
