#!/usr/bin/python3
"""The report of make scale: scale_report.py RESULTS_DIR

Reads RESULTS_DIR/results.jsonl (harness/results.py: a metric line per @@BENCH
line of guest/tests/scale.sh, with its topology, cpus, nodes and alloc; one
boot per topology and allocator) and writes, in RESULTS_DIR:
  table.txt     memory per topology and allocator (Slab: + Percpu: after boot,
                after the workload, after a trim interval, after shrink; what
                CPUs hold), the growth per added CPU and per added node (a
                least-squares fit sum = a + b*cpus + c*nodes over the
                topologies), the counted queue behaviour per 1000 objects, and
                the scale targets met or not
  scale.png     Slab: + Percpu: against CPUs, and the hand-offs per 1000
                objects (when matplotlib is there)
and prints table.txt.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import results  # noqa: E402 (harness/results.py: the results format)

ORDER = ("slqb", "slub", "slab")
PHASES = ("boot", "after_work", "after_trim", "after_shrink")
COUNTS = ("handoff", "claim", "kick_ipi", "page_alloc", "page_free")


def load(path):
    runs = {}  # (topology, alloc) -> {"cpus", "nodes", "m": {metric: value}}
    for r in results.select(results.read(path), kind="metric"):
        e = runs.setdefault((r["topology"], r["alloc"]), {"cpus": r["cpus"], "nodes": r["nodes"], "m": {}})
        e["m"][r["metric"]] = float(r["value"])
    return runs


def fit(points):
    """sum = a + b*cpus + c*nodes; with one node count only, c is None."""
    if len({p[0] for p in points}) < 2:
        return None
    try:
        import numpy as np
    except ImportError:
        return None
    nodes_vary = len({p[1] for p in points}) > 1 and len(points) >= 3
    cols = [[1.0, p[0]] + ([p[1]] if nodes_vary else []) for p in points]
    x = np.array(cols)
    if np.linalg.matrix_rank(x) < x.shape[1]:
        return None
    coef = np.linalg.lstsq(x, np.array([p[2] for p in points]), rcond=None)[0]
    return {"base": coef[0], "per_cpu": coef[1], "per_node": coef[2] if nodes_vary else None,
            "points": len(points)}


def f(v, w=7):
    if v is None:
        return "%*s" % (w, "-")
    return "%*.0f" % (w, v) if abs(v) >= 100 or v == int(v) else "%*.1f" % (w, v)


def main():
    d = sys.argv[1]
    runs = load(os.path.join(d, "results.jsonl"))
    allocs = [a for a in ORDER if any(k[1] == a for k in runs)]
    topos = []
    for t, _ in sorted(runs, key=lambda k: (runs[k]["cpus"], runs[k]["nodes"])):
        if t not in topos:
            topos.append(t)
    out = []
    out.append("Memory, kB: Slab: + Percpu: (sum), and Slab:, Percpu: apart; cpu_slabs: slabs held")
    out.append("by CPUs; queued: objects on SLQB's per-CPU queues (freelists, rlists, remote_free);")
    out.append("bound: hiwater x CPUs summed over the caches (what SLQB's freelists may hold).")
    head = "%-10s %4s %5s %-5s | %7s %7s %7s | %7s %7s | %7s %7s %7s %8s | %7s %7s %7s | %6s %6s" % (
        "topology", "cpus", "nodes", "alloc", "boot", "slab", "percpu", "work", "queued",
        "trim", "queued", "freelst", "bound", "shrink", "slab", "queued", "init s", "boot s")
    out.append(head)
    out.append("-" * len(head))
    for t in topos:
        for a in allocs:
            e = runs.get((t, a))
            if not e:
                continue
            m = e["m"].get
            out.append("%-10s %4d %5d %-5s | %s %s %s | %s %s | %s %s %s %s | %s %s %s | %6s %6s" % (
                t, e["cpus"], e["nodes"], a,
                f(m("mem.boot.sum")), f(m("mem.boot.slab")), f(m("mem.boot.percpu")),
                f(m("mem.after_work.sum")), f(m("mem.after_work.queued")),
                f(m("mem.after_trim.sum")), f(m("mem.after_trim.queued")),
                f(m("mem.after_trim.freelist")), f(m("mem.after_trim.freelist_bound"), 8),
                f(m("mem.after_shrink.sum")), f(m("mem.after_shrink.slab")),
                f(m("mem.after_shrink.queued")),
                "%.1f" % m("boot.init") if m("boot.init") is not None else "-",
                "%.0f" % m("boot.wall") if m("boot.wall") is not None else "-"))
    out.append("")

    fits = {}
    out.append("Growth of Slab: + Percpu: (kB), least squares sum = base + per_cpu*CPUs + per_node*nodes")
    out.append("over the topologies booted (per_node only where the node count varies):")
    out.append("  %-5s %-13s %8s %8s %8s %7s" % ("alloc", "phase", "base", "per_cpu", "per_node", "points"))
    for a in allocs:
        for p in PHASES:
            pts = [(e["cpus"], e["nodes"], e["m"]["mem.%s.sum" % p]) for (t, al), e in runs.items()
                   if al == a and "mem.%s.sum" % p in e["m"]]
            r = fit(pts)
            fits.setdefault(a, {})[p] = r
            if r:
                out.append("  %-5s %-13s %8.0f %8.1f %8s %7d" % (
                    a, p, r["base"], r["per_cpu"],
                    "%.1f" % r["per_node"] if r["per_node"] is not None else "-", r["points"]))
            else:
                out.append("  %-5s %-13s %8s (fewer than two CPU counts, or no numpy)" % (a, p, "-"))
    out.append("")

    out.append("Queue behaviour per 1000 objects of the cache slab_scale (fanout: one CPU's objects")
    out.append("freed by all others; fanin: one CPU frees all others' objects, one consumer and many")
    out.append("producers). handoff: SLQB's locked splice of an rlist, SLUB's cmpxchg on another CPU's")
    out.append("page (free_slowpath); claim: SLQB claim_remote_free_cache, SLUB alloc_refill; kick_ipi:")
    out.append("function-call IPIs during the run (an upper bound on SLQB's kicks); page_*: slabs from")
    out.append("and to the page allocator.")
    head = "  %-10s %4s %-7s %-10s" % ("topology", "cpus", "pattern", "event") + "".join(" %8s" % a for a in allocs)
    out.append(head)
    for t in topos:
        for pat in ("fanout", "fanin"):
            for ev in COUNTS:
                vals = [runs.get((t, a), {}).get("m", {}).get("count.%s.%s" % (pat, ev)) for a in allocs]
                if all(v is None for v in vals):
                    continue
                cpus = next(runs[(t, a)]["cpus"] for a in allocs if (t, a) in runs)
                out.append("  %-10s %4d %-7s %-10s" % (t, cpus, pat, ev) +
                           "".join(" %8s" % ("-" if v is None else "%.1f" % v) for v in vals))
    out.append("")

    out.append("Scale targets (SLQB against SLUB):")
    out.extend(targets(runs, topos, fits))
    text = "\n".join(out) + "\n"
    with open(os.path.join(d, "table.txt"), "w") as fh:
        fh.write(text)
    sys.stdout.write(text)
    chart(d, runs, allocs, topos)


def targets(runs, topos, fits):
    out = []

    def line(what, bad, n, detail):
        out.append("  %-62s %s" % (what, "n/a (not measured)" if n == 0 else
                                    ("met" if not bad else "NOT met at %d of %d" % (len(bad), n)) +
                                    (": " + ", ".join(bad) if bad else "") + (" (%s)" % detail if detail else "")))

    for p in ("boot", "after_shrink"):
        bad, n = [], 0
        for t in topos:
            q, s = (runs.get((t, a), {}).get("m", {}).get("mem.%s.sum" % p) for a in ("slqb", "slub"))
            if q is None or s is None:
                continue
            n += 1
            if q > s:
                bad.append("%s %+.0f kB" % (t, q - s))
        line("Slab: + Percpu: %s <= SLUB's, every size" % p.replace("_", " "), bad, n, "")
    fq, fs = fits.get("slqb", {}).get("after_shrink"), fits.get("slub", {}).get("after_shrink")
    if fq and fs:
        line("growth per added CPU (after shrink) <= SLUB's",
             [] if fq["per_cpu"] <= fs["per_cpu"] else ["%.1f > %.1f kB/CPU" % (fq["per_cpu"], fs["per_cpu"])], 1,
             "SLQB %.1f, SLUB %.1f kB/CPU" % (fq["per_cpu"], fs["per_cpu"]))
    else:
        line("growth per added CPU (after shrink) <= SLUB's", [], 0, "")
    bad, n = [], 0
    for t in topos:
        m = runs.get((t, "slqb"), {}).get("m", {})
        if "mem.after_trim.freelist" in m and "mem.after_trim.freelist_bound" in m:
            n += 1
            if m["mem.after_trim.freelist"] > m["mem.after_trim.freelist_bound"]:
                bad.append(t)
    line("SLQB freelists after the workload and a trim <= hiwater x CPUs", bad, n, "")
    for pat in ("fanin", "fanout"):
        bad, n, det = [], 0, []
        for t in topos:
            q, s = (runs.get((t, a), {}).get("m", {}).get("count.%s.handoff" % pat) for a in ("slqb", "slub"))
            if q is None or s is None:
                continue
            n += 1
            det.append("%s %.1f/%.1f" % (t, q, s))
            if q > s:
                bad.append(t)
        line("%s: hand-offs per object <= SLUB's cmpxchg per remote free" % pat, bad, n,
             "SLQB/SLUB per 1000: " + ", ".join(det) if det else "")
    return out


def chart(d, runs, allocs, topos):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("no chart: python3-matplotlib is not installed (make setup)")
        return
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(12, 4.5))
    for a in allocs:
        for p, style in (("boot", "-o"), ("after_shrink", "--s")):
            pts = sorted((e["cpus"], e["nodes"], e["m"]["mem.%s.sum" % p], t) for (t, al), e in runs.items()
                         if al == a and "mem.%s.sum" % p in e["m"])
            if not pts:
                continue
            ax.plot([x[0] + 0.15 * x[1] for x in pts], [x[2] for x in pts], style, label="%s %s" % (a, p))
    ax.set_xlabel("CPUs (+0.15 per node, to tell topologies of one size apart)")
    ax.set_ylabel("Slab: + Percpu: (kB)")
    ax.set_title("Memory as the machine grows")
    ax.legend(fontsize=7)
    labels, width = [], 0.8 / max(1, len(allocs))
    for pat in ("fanout", "fanin"):
        for t in topos:
            labels.append("%s\n%s" % (pat, t))
    for i, a in enumerate(allocs):
        ys = [runs.get((t, a), {}).get("m", {}).get("count.%s.handoff" % pat, float("nan"))
              for pat in ("fanout", "fanin") for t in topos]
        bx.bar([k + i * width for k in range(len(labels))], ys, width=width, label=a)
    bx.set_xticks([k + width * (len(allocs) - 1) / 2 for k in range(len(labels))])
    bx.set_xticklabels(labels, fontsize=6)
    bx.set_ylabel("per 1000 objects")
    bx.set_title("Hand-offs (SLQB splices, SLUB remote cmpxchg)")
    bx.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "scale.png"), dpi=100)
    print("chart: %s" % os.path.join(d, "scale.png"))


if __name__ == "__main__":
    main()
