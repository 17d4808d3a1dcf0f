#!/usr/bin/python3
"""The comparison table of a benchmark run: report.py RESULTS_DIR [native] [best]

Reads RESULTS_DIR/results.jsonl (harness/results.py: a metric line per @@BENCH
line of every boot, with its alloc and round) and writes, in RESULTS_DIR:
  table.txt     per metric: each allocator's median over the rounds, its spread
                ((max - min) / median), its ratio to SLUB's median, and a mark
                where the difference to SLUB is larger than the noise
  summary.md    the key metrics (KEY below) as a Markdown table, for the README
  ratios.png    a chart of the ratios to SLUB (when matplotlib is there)
and prints table.txt. With the count.WORKLOAD.EVENT lines of run.sh's counted
boots (lines without a round), table.txt also gives, per workload, SLQB's and SLUB's page-allocator calls, locks and
hand-offs per 1000 allocations side by side (COUNTED below). The mark: '+' better than SLUB, '-' worse, only when
there are at least 2 rounds and the two allocators' ranges over the rounds
(min..max) do not overlap; with one round nothing is marked. "native" (UML
runs, harness/bench/uml.sh): the issue's native UP targets instead of the
TCG ones, and KEY_NATIVE in summary.md. "best": each allocator's best value over
the rounds (min, or max where higher is better) instead of the median, into
table-best.txt, summary-best.md, ratios-best.png (for noise
that only ever slows a run down, such as a busy host).
"""
import os
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import results  # noqa: E402 (harness/results.py: the results format)

BASE = "slub"
KEY = ["mem.boot.slab", "mem.peak.slab", "mem.after_shrink.slab", "mem.caches_le1k_order_gt0",
       "kmalloc_pair.64", "kmalloc_pair.256", "kmalloc_n.alloc.64", "kmalloc_n.free.64",
       "kmalloc_n.alloc.256", "kmalloc_n.alloc.4096", "cache_pair.256", "bulk.64.b16", "bulk.64.b256",
       "remote_same_node.256", "remote_other_node.256", "handoff_same_node.reused.256",
       "handoff_other_node.alloc2.256", "allcpu_pair.256", "allcpu_n.256",
       "footprint.order.1024", "footprint.kept_after_free.256",
       "hackbench.socket", "hackbench.pipe", "hackbench.threads", "forkexec", "tmpfs_files",
       "tcp_rr.same_node", "tcp_rr.other_node", "tcp_crr.other_node", "udp_rr.other_node"]

KEY_NATIVE = ["kmalloc_pair.%d" % n for n in (8, 64, 256, 1024, 4096)] + \
    ["kmalloc_n.alloc.%d" % n for n in (64, 256, 4096)] + ["kmalloc_n.free.%d" % n for n in (64, 256, 4096)] + \
    ["cache_pair.256", "cache_n.alloc.256", "cache_n.free.256",
     "bulk.64.b1", "bulk.64.b16", "bulk.64.b256", "bulk.512.b16",
    "bulk_alloc.64.b16", "bulk_free.64.b16", "bulk_free.64.b256", "footprint.bytes_per_obj.256"]


# Counted rows: (what, SLQB's events, SLUB's events), each the sum of its events
# per 1000 allocations. A lock or an atomic on shared data: SLQB's hand-off of a
# batch of remote frees takes the owner's remote_free lock, and so does its claim;
# an off-node allocation or free takes a node's list_lock. SLUB's free to a slab
# not the CPU's is a cmpxchg on that slab (free_slowpath); it takes list_lock to
# take a node's partial slab or to move a slab on or off its partial list.
COUNTED = [
    ("page-alloc calls", ["page_alloc"], ["alloc_slab"]),
    ("4 KiB pages", ["slab_pages"], ["slab_pages"]),
    ("handoff / cmpxchg", ["flush_remote_free_cache"], ["free_slowpath"]),
    ("claims", ["claim_remote_free_cache"], []),
    ("node list_lock", ["offnode_alloc", "offnode_free"],
     ["alloc_from_partial", "free_add_partial", "free_remove_partial"]),
]


NOISE = 10  # a workload counts mostly noise below NOISE x the counting's own allocations


def counted(counts):
    """{workload: {alloc: {event: per_1k}}} (results.bench()) -> table lines."""
    if not counts:
        return []
    counts = dict(counts)
    zero = counts.pop("zero", {})
    lines = ["Counted, not timed (one boot each of the plain builds, statistics on, after the",
             "timed rounds): per 1000 allocations of each workload, SLQB / SLUB, net of what",
             "the counting itself counts (count.zero: %s allocations for SLQB, %s for SLUB)." % (
                 "%d" % zero["slqb"]["allocs"] if "allocs" in zero.get("slqb", {}) else "-",
                 "%d" % zero["slub"]["allocs"] if "allocs" in zero.get("slub", {}) else "-"),
             "* marks a workload of fewer than %d times that many: mostly noise." % NOISE]
    head = "%-22s | %-15s" % ("workload", "allocations") + "".join(" | %-17s" % c[0][:17] for c in COUNTED)
    lines += [head, "-" * len(head)]
    for w in counts:
        q, u = counts[w].get("slqb"), counts[w].get("slub")
        noisy = any(counts[w].get(a, {}).get("allocs", 0) < NOISE * zero.get(a, {}).get("allocs", 0)
                    for a in ("slqb", "slub"))
        row = "%-22s | %15s" % (w + (" *" if noisy else ""), "%s / %s" % (
            "%d" % q["allocs"] if q and "allocs" in q else "-", "%d" % u["allocs"] if u and "allocs" in u else "-"))
        for _, qe, ue in COUNTED:
            qv = "%.1f" % sum(q.get(e, 0.0) for e in qe) if q and qe else "-"
            uv = "%.1f" % sum(u.get(e, 0.0) for e in ue) if u and ue else "-"
            row += " | %17s" % ("%s / %s" % (qv, uv))
        lines.append(row)
    lines += ["", "Columns: " + "; ".join("%s: SLQB %s, SLUB %s" % (
        what, "+".join(qe) or "-", "+".join(ue) or "-") for what, qe, ue in COUNTED) + ".", ""]
    return lines


def load(path):
    """results.jsonl -> ({metric: {"unit", "better", "values": {alloc: [one a
    round]}}}, the metrics in order, the allocators, the counts)."""
    b = results.bench(results.read(path))
    data = {m: {"unit": e["unit"], "better": e["better"],
                "values": {a: v["values"] for a, v in e.items() if isinstance(v, dict)}}
            for m, e in b["metrics"].items()}
    return data, b["order"], b["allocators"], b["counts_per_1k_allocs"]


STAT = "median"  # or "best"


def summarise(vals, better="lower"):
    if STAT == "best":
        med = max(vals) if better == "higher" else min(vals)
    else:
        med = statistics.median(vals)
    spread = (max(vals) - min(vals)) / med * 100 if med else 0.0
    return med, spread


def mark(vals, base, better):
    if len(vals) < 2 or len(base) < 2:
        return " "
    if min(vals) > max(base):
        return "+" if better == "higher" else "-"
    if max(vals) < min(base):
        return "-" if better == "higher" else "+"
    return " "


def fmt(v):
    if v >= 1000:
        return "%.0f" % v
    if v >= 10:
        return "%.1f" % v
    return "%.2f" % v


# The targets that TCG guests can speak to: (what, metrics, test).
def targets(summary):
    out = []

    def ratio(m):
        return summary.get(m, {}).get("slqb", {}).get("ratio")

    def check(what, ms, ok):
        rs = [(m, ratio(m)) for m in ms if ratio(m) is not None]
        if not rs:
            out.append("  %-58s n/a (not measured)" % what)
            return
        good = all(ok(r) for _, r in rs)
        out.append("  %-58s %s (%s)" % (what, "met" if good else "NOT met",
                                         ", ".join("%s %.2f" % (m, r) for m, r in rs)))

    check("remote-free pipeline: cycles per object <= 0.8x SLUB",
          [m for m in summary if m.startswith("remote_")], lambda r: r <= 0.8)
    check("hand-off: cycles per object <= 0.8x SLUB",
          [m for m in summary if m.startswith("handoff_") and ".alloc" not in m and ".reused" not in m],
          lambda r: r <= 0.8)
    check("hackbench time <= 1.0x SLUB",
          [m for m in summary if m.startswith("hackbench")], lambda r: r <= 1.0)
    check("loopback TCP_RR across nodes >= 1.0x SLUB's rate",
          ["tcp_rr.other_node"], lambda r: r >= 1.0)
    check("Slab: after boot <= 0.95x SLUB", ["mem.boot.slab"], lambda r: r <= 0.95)
    cs = summary.get("mem.caches_order_gt0", {})
    if "slqb" in cs and "slab" in cs:
        q, b = cs["slqb"]["median"], cs["slab"]["median"]
        out.append("  %-58s %s (SLQB %g, SLAB %g)" % ("caches above order 0 <= SLAB's",
                                                     "met" if q <= b else "NOT met", q, b))
    med = summary.get("mem.caches_le1k_order_gt0", {}).get("slqb", {}).get("median")
    out.append("  %-58s %s" % ("no slab above order 0 for objects <= 1 KiB (slabinfo)",
                               "n/a" if med is None else ("met" if med == 0 else "NOT met (%g caches)" % med)))
    fp = [m for m in summary if m.startswith("footprint.order.") and int(m.rsplit(".", 1)[1]) <= 1024]
    if fp:
        worst = max(summary[m]["slqb"]["median"] for m in fp if "slqb" in summary[m])
        out.append("  %-58s %s" % ("slab_bench caches <= 1 KiB: order 0",
                                   "met" if worst == 0 else "NOT met (order %g)" % worst))
    return out


# The native UP targets (UML): each size's ratio of SLQB's median to SLUB's.
def native_targets(summary):
    out = []

    def med(m, a):
        return summary.get(m, {}).get(a, {}).get("median")

    def check(what, pairs, limit):
        rs = []
        for label, ms in pairs:
            q, b = [sum(med(m, a) or 0 for m in ms) for a in ("slqb", "slub")]
            if all(med(m, "slqb") is not None and med(m, "slub") for m in ms) and b:
                rs.append((label, q / b))
        if not rs:
            out.append("  %-52s n/a (not measured)" % what)
            return
        bad = [r for r in rs if r[1] > limit]
        out.append("  %-52s %s, worst %s %.2f" % (what, "met" if not bad else "NOT met at %d of %d" % (len(bad), len(rs)),
                                                  *max(rs, key=lambda r: r[1])))
        out.append("      " + " ".join("%s:%.2f" % r for r in rs))

    sizes = sorted({int(m.rsplit(".", 1)[1]) for m in summary if m.startswith("kmalloc_pair.")})
    check("kmalloc+kfree pair <= 0.90x SLUB", [(str(n), ["kmalloc_pair.%d" % n]) for n in sizes], 0.9)
    check("cache alloc+free pair <= 0.85x SLUB", [(str(n), ["cache_pair.%d" % n]) for n in sizes], 0.85)
    # What both pay on UML whatever their code (floor.irqs_pair: the loop and
    # two interrupt-disabled sections): the pairs without it, for the reason.
    fl = [med("floor.irqs_pair", a) for a in ("slqb", "slub")]
    if all(fl):
        floor = min(fl)
        for g in ("kmalloc", "cache"):
            rs = []
            for n in sizes:
                q, b = med("%s_pair.%d" % (g, n), "slqb"), med("%s_pair.%d" % (g, n), "slub")
                if q and b and b > floor:
                    rs.append("%d:%.2f" % (n, (q - floor) / (b - floor)))
            out.append("  %s pair less the floor both pay (floor.irqs_pair, %.1f)" % (g, floor))
            out.append("      " + " ".join(rs))
    for g in ("kmalloc", "cache"):
        check("N x %s alloc then N x free <= 0.80x SLUB, <= 256 B" % g,
              [(str(n), ["%s_n.alloc.%d" % (g, n), "%s_n.free.%d" % (g, n)]) for n in sizes if n <= 256], 0.8)
        check("N x %s alloc then N x free <= 1.0x SLUB, 512 B+" % g,
              [(str(n), ["%s_n.alloc.%d" % (g, n), "%s_n.free.%d" % (g, n)]) for n in sizes if n >= 512], 1.0)

    # Where N from 512 B on is not met, the page allocator is why: each new
    # slab is a call to it, and the order of the kmalloc cache's slabs at
    # the end of N allocations (kmalloc_n.order) says how many objects a
    # call gives each allocator.
    row = []
    for n in sizes:
        o = [med("kmalloc_n.order.%d" % n, a) for a in ("slqb", "slub")]
        if n >= 512 and None not in o:
            row.append("%d:%d/%d" % (n, (4096 << int(o[0])) // n, (4096 << int(o[1])) // n))
    if row:
        out.append("  kmalloc objects per page-allocator call, SLQB/SLUB (4 KiB << kmalloc_n.order)")
        out.append("      " + " ".join(row))

    def batches(prefix, least=1):
        ms = [m for m in summary if m.startswith(prefix) and int(m.rsplit(".b", 1)[1]) >= least]
        return [(m.split(".", 1)[1], [m]) for m in sorted(ms, key=lambda m: (int(m.split(".")[1]), int(m.rsplit(".b", 1)[1])))]
    check("bulk alloc <= 1.0x SLUB, every batch", batches("bulk_alloc."), 1.0)
    check("bulk free <= 1.0x SLUB, every batch", batches("bulk_free."), 1.0)
    check("bulk free <= 0.8x SLUB, batches of 16+", batches("bulk_free.", 16), 0.8)
    return out


def main():
    global STAT
    d = sys.argv[1]
    native = "native" in sys.argv[2:]
    STAT = "best" if "best" in sys.argv[2:] else "median"
    sfx = "-best" if STAT == "best" else ""
    data, order, allocs, counts = load(os.path.join(d, "results.jsonl"))
    allocs = [a for a in ("slqb", "slub", "slab") if a in allocs] + [a for a in allocs if a not in ("slqb", "slub", "slab")]
    rounds = max((len(v) for m in data.values() for v in m["values"].values()), default=0)
    summary = {}
    lines = []
    head = "%-38s %-7s" % ("metric", "unit")
    for a in allocs:
        head += " | %10s %6s" % (a, "spread")
        if a != BASE:
            head += " %6s  " % "/slub"
    lines.append(head)
    lines.append("-" * len(head))
    for m in order:
        e = data[m]
        base = e["values"].get(BASE)
        bmed = summarise(base, e["better"])[0] if base else None
        row = "%-38s %-7s" % (m, e["unit"] + ("^" if e["better"] == "higher" else ""))
        summary[m] = {"unit": e["unit"], "better": e["better"]}
        for a in allocs:
            vals = e["values"].get(a)
            if not vals:
                row += " | %10s %6s" % ("-", "")
                if a != BASE:
                    row += " %6s  " % ""
                continue
            med, spread = summarise(vals, e["better"])
            s = {"median": med, "spread_pct": spread, "values": vals}
            row += " | %10s %5.0f%%" % (fmt(med), spread)
            if a != BASE:
                if bmed:
                    s["ratio"] = med / bmed
                    s["mark"] = mark(vals, base, e["better"])
                    row += " %6.2f %s" % (s["ratio"], s["mark"])
                else:
                    row += " %6s  " % "-"
            summary[m][a] = s
        lines.append(row)
    lines.append("")
    lines.append("unit^: higher is better (else lower is); /slub: %s over SLUB's %s;" % (STAT, STAT))
    lines.append("mark: + better, - worse than SLUB, only where the ranges over %d round(s) do not overlap." % rounds)
    lines.append("")
    if native:
        lines.append("Native UP performance targets (SLQB's %s over SLUB's, per size; N: alloc + free):" % STAT)
        lines.extend(native_targets(summary))
    else:
        lines.append("Performance targets that a TCG guest can speak to (SLQB; indicative only):")
        lines.extend(targets(summary))
    clines = counted(counts)
    if clines:
        lines.append("")
        lines.extend(clines)
    text = "\n".join(lines) + "\n"
    with open(os.path.join(d, "table%s.txt" % sfx), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    markdown(d, summary, allocs, rounds, KEY_NATIVE if native else KEY, sfx)
    chart(d, order, summary, allocs, sfx)


def markdown(d, summary, allocs, rounds, key, sfx):
    rows = ["| metric | unit | " + " | ".join(
        "%s (spread)%s" % (a, "" if a == BASE else " | /slub") for a in allocs) + " |"]
    rows.append("|" + " --- |" * (2 + len(allocs) + len(allocs) - 1))
    for m in key:
        if m not in summary:
            continue
        e = summary[m]
        cells = [m, e["unit"] + (" (higher better)" if e["better"] == "higher" else "")]
        for a in allocs:
            s = e.get(a)
            cells.append("%s (%.0f%%)" % (fmt(s["median"]), s["spread_pct"]) if s else "-")
            if a != BASE:
                cells.append("%.2f%s" % (s["ratio"], " " + s["mark"] if s["mark"].strip() else "")
                             if s and "ratio" in s else "-")
        rows.append("| " + " | ".join(cells) + " |")
    with open(os.path.join(d, "summary%s.md" % sfx), "w") as f:
        f.write("\n".join(rows) + "\n")


def chart(d, order, summary, allocs, sfx=""):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no chart: python3-matplotlib is not installed (make setup)")
        return
    others = [a for a in allocs if a != BASE]
    ms = [m for m in order if any("ratio" in summary[m].get(a, {}) for a in others)]
    if not ms:
        return
    h = 0.2 * len(ms) * max(1, len(others)) / 2 + 1.5
    fig, ax = plt.subplots(figsize=(9, h))
    width = 0.8 / max(1, len(others))
    for i, a in enumerate(others):
        ys = [k + i * width for k in range(len(ms))]
        xs = [summary[m].get(a, {}).get("ratio", float("nan")) for m in ms]
        ax.barh(ys, xs, height=width, label=a, left=0)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_yticks([k + width * (len(others) - 1) / 2 for k in range(len(ms))])
    ax.set_yticklabels(["%s%s" % (m, " (^)" if summary[m]["better"] == "higher" else "") for m in ms], fontsize=6)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlabel("%s / SLUB %s (log; (^) higher is better, else lower is)" % (STAT, STAT))
    ax.legend(loc="lower right")
    ax.set_title("SLQB and SLAB against SLUB")
    fig.tight_layout()
    fig.savefig(os.path.join(d, "ratios%s.png" % sfx), dpi=100)
    print("chart: %s" % os.path.join(d, "ratios%s.png" % sfx))


if __name__ == "__main__":
    main()
