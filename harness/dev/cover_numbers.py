#!/usr/bin/python3
"""Fill the cover letter's numbers from the results' records.

cover_numbers.py RESULTS_DIR < TEXT > TEXT: every {{RECORD:...}} in TEXT is
replaced by what the latest record of RECORD says: its results
(results/*-RECORD.jsonl, harness/results.py's format, or the JSON summary
results/*-RECORD.json that records before it have), the newest by the date
line of its .md:

  {{RECORD:date}}              the record's date, "2026-12-07 13:36 UTC"
  {{RECORD:rounds}}            its rounds
  {{RECORD:STAT:GLOB[,GLOB]}}  SLQB's ratio to SLUB over the metrics matching
                               the globs, "0.92x" or, over several, the range
                               "0.87-0.95x"; STAT is median or best (each
                               allocator's best round: min, or max where
                               higher is better)
  {{RECORD:value:METRIC:ALLOC}} ALLOC's median of METRIC, "5120"
  {{RECORD:count:WORKLOAD:EVENT:ALLOC}}  ALLOC's count of EVENT per 1000
                               allocations of WORKLOAD (make bench's counted
                               boots), "47.7"

Fails (exit 1, saying which) when a record, a metric or a field is missing,
so that the series never goes out with a number no record holds. A paragraph
with numbers in it is filled anew to 72 columns.
"""
import fnmatch
import glob
import json
import os
import re
import statistics
import sys
import textwrap

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import results  # noqa: E402 (harness/results.py: the results format)

PLACEHOLDER = re.compile(r"\{\{([^{}]+)\}\}")


def latest(results_dir, record):
    """The newest RECORD's (date, results, md) in RESULTS by its date line;
    of a record with both, its .jsonl."""
    found = []
    for js in glob.glob(os.path.join(results_dir, "*-%s.json*" % record)):
        md, ext = os.path.splitext(js)
        md += ".md"
        if ext not in (".json", ".jsonl") or ext == ".json" and os.path.exists(js + "l"):
            continue
        date = ""
        if os.path.exists(md):
            with open(md) as f:
                for line in f:
                    if line.startswith("- date: "):
                        date = line[len("- date: "):].strip()
                        break
        found.append((date, js, md))
    if not found:
        raise LookupError("no record %s in %s" % (record, results_dir))
    found.sort()
    return found[-1]


def stat(vals, better, how):
    if how == "best":
        return max(vals) if better == "higher" else min(vals)
    return statistics.median(vals)


def ratios(data, how, globs):
    out = []
    for m, e in data["metrics"].items():
        if not any(fnmatch.fnmatchcase(m, g) for g in globs):
            continue
        q, u = e.get("slqb", {}).get("values"), e.get("slub", {}).get("values")
        if q and u:
            base = stat(u, e["better"], how)
            if base:
                out.append(stat(q, e["better"], how) / base)
    if not out:
        raise LookupError("no SLQB and SLUB values for %s" % ",".join(globs))
    return out


def fill(results_dir, key):
    parts = key.split(":")
    date, js, _ = latest(results_dir, parts[0])
    if js.endswith(".jsonl"):
        data = results.bench(results.read(js))
    else:
        with open(js) as f:
            data = json.load(f)
    if parts[1:] == ["date"]:
        return date
    if parts[1:] == ["rounds"]:
        return str(data["rounds"])
    if len(parts) == 4 and parts[1] == "value":
        e = data["metrics"].get(parts[2], {}).get(parts[3])
        if not e:
            raise LookupError("no %s for %s" % (parts[2], parts[3]))
        return "%g" % statistics.median(e["values"])
    if len(parts) == 5 and parts[1] == "count":
        v = data.get("counts_per_1k_allocs", {}).get(parts[2], {}).get(parts[4], {}).get(parts[3])
        if v is None:
            raise LookupError("no count %s of %s for %s" % (parts[3], parts[2], parts[4]))
        return "%.1f" % v
    if len(parts) == 3 and parts[1] in ("median", "best"):
        rs = ratios(data, parts[1], parts[2].split(","))
        lo, hi = "%.2f" % min(rs), "%.2f" % max(rs)
        return "%sx" % lo if lo == hi else "%s-%sx" % (lo, hi)
    raise LookupError("cannot read {{%s}}" % key)


def main():
    results_dir = sys.argv[1]
    text = sys.stdin.read()
    errors = []

    def sub(m):
        try:
            return fill(results_dir, m.group(1))
        except (LookupError, KeyError, ValueError, OSError) as e:
            errors.append("{{%s}}: %s" % (m.group(1), e))
            return m.group(0)

    # Each paragraph with a number in it is filled anew to 72 columns.
    paras = text.split("\n\n")
    for i, para in enumerate(paras):
        if PLACEHOLDER.search(para):
            paras[i] = textwrap.fill(" ".join(PLACEHOLDER.sub(sub, para).split()), 72,
                                     break_on_hyphens=False)
    text = "\n\n".join(paras)
    if errors:
        sys.stderr.write("cover_numbers.py: %s\n" % "; ".join(errors))
        sys.exit(1)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
