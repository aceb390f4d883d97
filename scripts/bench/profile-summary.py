"""CPU seconds by thread and by code from `perf script -F comm,ip,sym,dso` output.

Written by scripts/bench/profile-cpu.sh; run it again on kept samples with
    python3 scripts/bench/profile-summary.py SAMPLES.txt HZ
Each sample counts 1/HZ CPU-seconds. It goes to its thread, and to the group of the frame it was
taken in (its leaf): compiled Java methods by package (a method inlined into another counts as
the one it was compiled into), the JIT, collector and PostgreSQL threads by thread, the rest by
the library the frame is in.
"""
import collections
import re
import sys

# Groups of leaf frames of Java and library code, first match wins.
CODE = [
    ("grid union and repair (transforms.repair)", r"io\.tilebeam\.transforms\.repair\."),
    ("cutting and simplifying (transforms.cut)", r"io\.tilebeam\.transforms\.cut\."),
    ("rendering, CRS and other transforms", r"io\.tilebeam\.transforms\."),
    ("MVT and other codecs (codec)", r"io\.tilebeam\.codec\."),
    ("sources, sinks, ledger (io)", r"io\.tilebeam\.io\."),
    ("tilebeam, other", r"io\.tilebeam\."),
    ("JSON parser (Jackson)", r"com\.fasterxml\.jackson\."),
    ("JTS WKB and other I/O", r"org\.locationtech\.jts\.io\."),
    ("JTS, other", r"org\.locationtech\.jts\."),
    ("Apache SIS", r"org\.apache\.sis\."),
    ("Flink", r"org\.apache\.flink\."),
    ("Beam", r"org\.apache\.beam\."),
    ("JDK classes", r"\b(java|javax|jdk|sun)\."),
    ("interpreter", r"^Interpreter$"),
    ("array copies, zeroing and other JVM stubs", r"memset|memmove|memcpy|^StubRoutines"),
]


def thread_group(comm):
    """The group of a thread whose samples all count together, or None."""
    if comm.startswith("C1 Compiler"):
        return "JIT compiler C1"
    if comm.startswith("C2 Compiler"):
        return "JIT compiler C2"
    if comm.startswith("GC Thread"):
        return "garbage collector"
    if comm == "VM Thread":
        return "JVM's VM thread (collections' start and end, safepoints)"
    if comm in ("postgres", "initdb", "pg_ctl"):
        return "embedded PostgreSQL"
    return None


def code_group(sym, dso):
    if "kernel" in dso:
        return "kernel"
    for name, pattern in CODE:
        if re.search(pattern, sym):
            return name
    if re.search(r"perf-\d+\.map", dso):
        return "compiled code without a Java name (adapters, vtable stubs)"
    return "JVM and native libraries (" + (dso.rsplit("/", 1)[-1] or "unknown") + ")"


def main(path, hz):
    threads, code, methods = collections.Counter(), collections.Counter(), collections.Counter()
    total = 0
    comm, leaf = None, None

    def flush():
        nonlocal total
        if comm is None:
            return
        total += 1
        threads[comm] += 1
        group = thread_group(comm)
        if group is None:
            sym, dso = leaf or ("[unknown]", "")
            group = code_group(sym, dso)
            methods[sym[:120]] += 1
        code[group] += 1

    with open(path, errors="replace") as f:
        for line in f:
            if not line.strip():
                flush()
                comm, leaf = None, None
            elif not line.startswith(("\t", " ")):
                comm = line.strip()
            elif leaf is None:
                m = re.match(r"\s*[0-9a-f]+\s+(.*)\s+\((.*)\)\s*$", line)
                leaf = (m.group(1), m.group(2)) if m else (line.strip(), "")
    flush()
    if total == 0:
        sys.exit("no samples in " + path)

    def show(title, counter, n):
        print(title)
        for k, v in counter.most_common(n):
            print("  %5.1f %%  %7.2f CPU-s  %s" % (100.0 * v / total, v / hz, k))

    print("%d samples at %g Hz: %.1f CPU-s" % (total, hz, total / hz))
    show("by thread (perf's 15-character names; Flink's task threads are named after their "
         "operators, `java` is the main thread and others never named):", threads, 15)
    show("by code (the frame each sample was in; the JIT, collector and PostgreSQL threads "
         "whole):", code, 20)
    show("hottest frames (outside the JIT, collector and PostgreSQL threads):", methods, 25)


if __name__ == "__main__":
    main(sys.argv[1], float(sys.argv[2]))
