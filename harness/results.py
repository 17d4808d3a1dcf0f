#!/usr/bin/python3
"""The harness's one results format: JSON lines, written and read here.

Every runner (make check, make bench, make bench-uml, make scale, make soak,
make lkdtm-compare) writes its run's results to RUN_DIR/results.jsonl, one
JSON object a line, through this module (lib.sh's results_add and
results_log); the reports (bench/report.py, bench/scale_report.py,
dev/cover_numbers.py, bench/smoke.sh) read it back here. A line:

  run       the run: its folder's last two names ("check/20261207-171800-123",
            "bench/20261207-162000", "bench/uml-20261207-145106")
  kind      "verdict" (a test or a boot passed, failed, was skipped) or
            "metric" (a number the run measured)
  verdict:  test (name), result ("pass", "fail", "skip"), seconds (int or
            null), detail (why, or what it saw)
  metric:   metric (name), value (number), unit, better ("lower", "higher")
  either:   alloc (slqb, slub, slab), build (the kernel, e.g. slqb-bench),
            topology, cpus, nodes, round (1, 2, ...; a timed round of make
            bench), detail

test, result, metric, value and unit are required by their kind; no other
key is allowed. Usage from the shell:

  results.py add FILE KEY=VALUE...       append one line (checked)
  results.py log FILE LOG KEY=VALUE...   a line per marker of the console log
                                         LOG (@@BENCH: a metric; @@SOAK: a
                                         metric per numeric field, soak.NAME),
                                         each with the KEY=VALUEs
  results.py get FILE FIELD,... [KEY=VALUE...]
                                         the FIELDs of the lines that match,
                                         tab-separated, a line each
"""
import json
import os
import re
import sys

KINDS = {"verdict": ("test", "result"), "metric": ("metric", "value", "unit")}
FIELDS = ("run", "kind", "test", "result", "seconds", "metric", "value", "unit", "better",
          "alloc", "build", "topology", "cpus", "nodes", "round", "detail")
INTS = ("seconds", "cpus", "nodes", "round")
RESULTS = ("pass", "fail", "skip")
BETTER = ("lower", "higher")
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?")


def check(rec):
    """rec if it is a valid line, else ValueError saying why."""
    if not isinstance(rec, dict):
        raise ValueError("not a JSON object")
    kind = rec.get("kind")
    if kind not in KINDS:
        raise ValueError("kind %r is not one of %s" % (kind, ", ".join(KINDS)))
    for k in ("run",) + KINDS[kind]:
        if rec.get(k) in (None, ""):
            raise ValueError("a %s line without %s" % (kind, k))
    bad = [k for k in rec if k not in FIELDS]
    if bad:
        raise ValueError("unknown key %s" % ", ".join(sorted(bad)))
    if kind == "verdict" and rec["result"] not in RESULTS:
        raise ValueError("result %r is not one of %s" % (rec["result"], ", ".join(RESULTS)))
    if kind == "metric" and not isinstance(rec["value"], (int, float)):
        raise ValueError("value %r is not a number" % (rec["value"],))
    if "better" in rec and rec["better"] not in BETTER:
        raise ValueError("better %r is not one of %s" % (rec["better"], ", ".join(BETTER)))
    for k in INTS:
        if rec.get(k) is not None and not isinstance(rec[k], int):
            raise ValueError("%s %r is not a whole number" % (k, rec[k]))
    return rec


def number(s):
    """'12' -> 12, '1.5' -> 1.5; ValueError if s is no number."""
    if not NUMBER.fullmatch(s):
        raise ValueError("%r is not a number" % s)
    return int(s) if re.fullmatch(r"-?[0-9]+", s) else float(s)


def parse_pairs(pairs):
    """['k=v', ...] -> {k: v}, numbers for value and the whole-number keys;
    an empty value leaves its key out (seconds: null)."""
    rec = {}
    for p in pairs:
        k, sep, v = p.partition("=")
        if not sep:
            raise ValueError("%r is not KEY=VALUE" % p)
        if v == "":
            if k == "seconds":
                rec[k] = None
            continue
        rec[k] = number(v) if k == "value" or k in INTS else v
    return rec


def run_of(path):
    """A run's name: the last two names of its results file's folder."""
    parts = os.path.abspath(os.path.dirname(path)).split(os.sep)
    return "/".join(parts[-2:])


def append(path, recs):
    """Check each of recs (its run defaulting to run_of(path)) and append it."""
    lines = []
    for rec in recs:
        rec = dict({"run": run_of(path)}, **rec)
        lines.append(json.dumps(check(rec)) + "\n")
    with open(path, "a") as f:
        f.writelines(lines)


def read(path):
    """The lines of a results file, each checked; ValueError naming the line."""
    recs = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                recs.append(check(json.loads(line)))
            except ValueError as e:
                raise ValueError("%s:%d: %s" % (path, n, e)) from None
    return recs


def select(recs, **where):
    """The lines whose keys have the values of where."""
    return [r for r in recs if all(r.get(k) == v for k, v in where.items())]


MARKER = re.compile(r"@@(BENCH|SOAK) (.*)")
SOAK_UNITS = {"secs": "s", "slab_before": "kB", "slab_after": "kB", "slab_pct": "%"}


def from_log(text, **extra):
    """The metric lines of a console log's @@BENCH and @@SOAK markers, each
    with extra's keys: @@BENCH metric= value= unit= better= is one; @@SOAK
    k=v ... is one per numeric field (soak.K, unit "count" or SOAK_UNITS', its alloc, topology,
    cpus and nodes taken as keys), its other fields in their detail."""
    out = []
    for line in text.replace("\r", "").splitlines():
        m = MARKER.search(line)
        if not m:
            continue
        fields = dict(w.split("=", 1) for w in m.group(2).split() if "=" in w)
        if m.group(1) == "BENCH":
            try:
                rec = {"kind": "metric", "metric": fields["metric"], "value": number(fields["value"]),
                       "unit": fields["unit"]}
            except (KeyError, ValueError):
                continue  # a line cut by another CPU's output
            if fields.get("better") in BETTER:
                rec["better"] = fields["better"]
            out.append(dict(rec, **extra))
            continue
        ctx = dict(extra)
        for k, key in (("alloc", "alloc"), ("topo", "topology"), ("cpus", "cpus"), ("nodes", "nodes")):
            if k in fields:
                v = fields.pop(k)
                ctx.setdefault(key, int(v) if key in INTS and v.isdigit() else v)
        words = " ".join("%s=%s" % kv for kv in fields.items() if not NUMBER.fullmatch(kv[1]))
        for k, v in fields.items():
            if NUMBER.fullmatch(v):
                rec = dict({"kind": "metric", "metric": "soak." + k, "value": number(v),
                            "unit": SOAK_UNITS.get(k, "count")}, **ctx)
                if words:
                    rec["detail"] = words
                out.append(rec)
    return out


def bench(recs):
    """make bench's and bench-uml's metrics as report.py and cover_numbers.py
    read them: {"rounds", "allocators", "order", "metrics": {METRIC: {"unit",
    "better", ALLOC: {"values": [one a round]}}}, "counts_per_1k_allocs":
    {WORKLOAD: {ALLOC: {EVENT: per 1000 allocations}}}}. The timed metrics
    are the lines with a round; the counts are the count.WORKLOAD.EVENT lines
    of the counted boots (no round)."""
    metrics, order, allocs, counts = {}, [], [], {}
    for r in select(recs, kind="metric"):
        if "round" in r:
            m = metrics.get(r["metric"])
            if m is None:
                m = metrics[r["metric"]] = {"unit": r["unit"], "better": r.get("better", "lower")}
                order.append(r["metric"])
            if r["alloc"] not in allocs:
                allocs.append(r["alloc"])
            m.setdefault(r["alloc"], {"values": []})["values"].append(float(r["value"]))
        elif r["metric"].startswith("count."):
            parts = r["metric"].split(".")
            if len(parts) >= 3:
                w, e = ".".join(parts[1:-1]), parts[-1]
                counts.setdefault(w, {}).setdefault(r["alloc"], {})[e] = float(r["value"])
    rounds = max((len(a["values"]) for m in metrics.values() for a in m.values() if isinstance(a, dict)),
                 default=0)
    return {"rounds": rounds, "allocators": allocs, "order": order, "metrics": metrics,
            "counts_per_1k_allocs": counts}


def main(argv):
    if len(argv) >= 2 and argv[0] == "add":
        append(argv[1], [parse_pairs(argv[2:])])
    elif len(argv) >= 3 and argv[0] == "log":
        with open(argv[2], errors="replace") as f:
            append(argv[1], from_log(f.read(), **parse_pairs(argv[3:])))
    elif len(argv) >= 3 and argv[0] == "get":
        recs = select(read(argv[1]), **parse_pairs(argv[3:]))
        try:
            for r in recs:
                print("\t".join("" if r.get(k) is None else str(r[k]) for k in argv[2].split(",")))
            sys.stdout.flush()
        except BrokenPipeError:  # the reader has what it wanted (grep -q)
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    else:
        sys.stderr.write("usage: results.py add FILE KEY=VALUE... | log FILE LOG KEY=VALUE... |"
                         " get FILE FIELD,... [KEY=VALUE...]\n")
        return 2
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except (ValueError, OSError) as e:
        sys.stderr.write("results.py: %s\n" % e)
        sys.exit(1)
