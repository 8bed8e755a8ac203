#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Corruption matrix for fgdecode (issue #37 item 7): one byte changed at a
time in a compressed version 7 trace and an uncompressed version 6 trace,
each change decoded with the ASan/UBSan build (tests/decoder/fgdecode_san)
and put in one class:

  identical   every record, output identical to the good decode
  altered     every record (the same count), some printed value differs: a
              changed byte inside an event's payload, which nothing in a
              trace.dat can detect (it has no checksums)
  refused     exit 1 with one line "fgdecode: FILE: ..." on stderr
  warned      fewer records, and stderr says what was lost (a "lost" or
              "truncated" warning) and --strict exits 3
  SILENT      fewer records and no line saying so, or --strict not failing
              (a failure)
  CRASH       a sanitizer report, a signal, a hang, or exit 1 without the
              one line (a failure)

The bytes changed: every byte of the file header, of every section header
(v7), of every header part's size, name and tag and of the CPU table (v6),
of every option's id and size and of its data (of a text option, its NUL
and a sample), of every CPU's chunk headers (v7: the count, then each
chunk's compressed and uncompressed size) or of its first and last page
headers (v6); and a sample (SAMPLES, default 2) of each section's or header
part's body and (DATA_SAMPLES, default 200) of the CPU data.  Each byte is
XORed with 0xff.  A decode that runs over 120 s counts as a hang.

Every position is changed with CASES=0; by default a sample of CASES (300)
positions per trace, half of them in the CPU data, the same on every run.

Usage: test_corruption.py [TRACE.dat]   (default: the fixture
tests/fixtures/traces/kstack.dat; the two traces are made from it with
trace-cmd convert).  Prints the count of each class per trace and every
failure; exit status 0 when there is none.  JOBS (default: the CPU count)
decodes run at once; FGDECODE=PATH decodes with another build.
"""
import concurrent.futures
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FG = os.environ.get("FGDECODE", os.path.join(ROOT, "tests/decoder/fgdecode_san"))
SAMPLES = int(os.environ.get("SAMPLES", "2"))
DATA_SAMPLES = int(os.environ.get("DATA_SAMPLES", "200"))
# Changes decoded per trace: a sample of the positions, half of them in the
# CPU data, when there are more (0: every one, about 1,750 decodes of the
# fixture's two traces).
CASES = int(os.environ.get("CASES", "300"))
JOBS = int(os.environ.get("JOBS", str(os.cpu_count() or 2)))
SUMMARY = re.compile(r"^fgdecode: \S+ events? \((\d+) records?\)", re.M)
# What fgdecode says when it decoded less than the file's headers hold.
LOSS = re.compile(r"^fgdecode: (warning: )?\S+: (.*\blost\b|truncated at byte)", re.M)


class Layout:
    """Offsets of one trace.dat's parts: (what, first, end) ranges whose
    every byte is changed, and ranges sampled."""

    def __init__(self, data):
        self.data = data
        self.every = []		# (what, start, end)
        self.bodies = []	# (what, start, end): SAMPLES bytes each
        self.cpu = []		# (what, start, end): DATA_SAMPLES over all

    def num(self, off, size):
        fmt = {2: "H", 4: "I", 8: "Q"}[size]
        return struct.unpack_from(("<" if not self.big else ">") + fmt, self.data, off)[0]

    def string(self, off):
        end = self.data.index(b"\0", off)
        return self.data[off:end].decode(), end + 1

    def header(self):
        """The fields tracecmd_alloc_fd() reads (lib/tracedat_file.c td_fields())."""
        off = 10
        version, off = self.string(off)
        self.big = self.data[off] != 0
        self.page = self.num(off + 2, 4)
        off += 6
        self.version = int(version)
        if self.version >= 7:
            _, off = self.string(off)
            _, off = self.string(off)
            self.options = self.num(off, 8)
            off += 8
        self.every.append(("file header", 0, off))
        return off

    def v7(self):
        off = self.header()
        buffers = []
        while off + 16 <= len(self.data):
            sid, flags = self.num(off, 2), self.num(off + 2, 2)
            size = self.num(off + 8, 8)
            if sid >= 64 or off + 16 + size > len(self.data):
                break
            self.every.append(("section %d header" % sid, off, off + 16))
            body = off + 16
            if sid == 0:
                self.v7_options(body, body + size, buffers)
            elif sid == 3:
                pass	# the CPU data, placed by its BUFFER option
            elif flags & 1:
                self.every.append(("section %d compressed sizes" % sid, body, body + 8))
                self.bodies.append(("section %d body" % sid, body + 8, body + size))
            else:
                self.bodies.append(("section %d body" % sid, body, body + size))
            off = body + size
        for name, cpus in buffers:
            for cpu, start, size in cpus:
                self.v7_cpu("buffer '%s' CPU %d" % (name, cpu), start, start + size)

    # Options whose data is text (trace-cmd's DATE, CPUSTAT, TRACECLOCK,
    # UNAME, HOOK, VERSION, PROCMAPS): a sample of it and its NUL; every
    # byte of the others.
    TEXT_OPTIONS = (1, 2, 4, 5, 6, 9, 10)

    def option_list(self, off, end, buffers):
        """An option list (trace-input.c handle_options()) up to its DONE;
        the CPUs of each version 7 BUFFER option (handle_buffer_option()).
        Returns the offset after the DONE's id (its data: v7 only)."""
        while off + 6 <= end:
            oid = self.num(off, 2)
            if oid == 0:
                return off + 2
            size = self.num(off + 2, 4)
            what = "option %d" % oid
            self.every.append((what + " id and size", off, off + 6))
            off += 6
            if oid in self.TEXT_OPTIONS and size:
                self.bodies.append((what + " text", off, off + size - 1))
                self.every.append((what + " NUL", off + size - 1, off + size))
            else:
                self.every.append((what, off, off + size))
            if oid == 3 and self.version >= 7:
                p = off + 8
                name, p = self.string(p)
                _, p = self.string(p)
                n = self.num(p + 4, 4)
                p += 8
                cpus = [(self.num(p + 20 * i, 4), self.num(p + 20 * i + 4, 8),
                         self.num(p + 20 * i + 12, 8)) for i in range(n)]
                buffers.append((name, cpus))
            off += size
        return off

    def v7_options(self, off, end, buffers):
        done = self.option_list(off, end, buffers)
        self.every.append(("option DONE", done - 2, end))

    def v7_cpu(self, what, off, end):
        """One CPU's compressed data (trace-compress.c
        tracecmd_load_chunks_info()): a u32 count, then per chunk a u32
        compressed size, a u32 uncompressed size and the bytes."""
        if off + 4 > end:
            return
        count = self.num(off, 4)
        self.every.append((what + " chunk count", off, off + 4))
        off += 4
        for i in range(count):
            if off + 8 > end:
                return
            zsize = self.num(off, 4)
            self.every.append(("%s chunk %d header" % (what, i), off, off + 8))
            self.cpu.append(("%s chunk %d" % (what, i), off + 8, min(off + 8 + zsize, end)))
            off += 8 + zsize

    def v6(self):
        """The parts trace-input.c read_headers_v6() reads, in order (as
        lib/tracedat_file.c td6_headers() walks them)."""
        off = self.header()

        def tag(name, length):
            nonlocal off
            self.every.append((name + " tag", off, off + length))
            off += length

        def sized(what, nbytes):
            nonlocal off
            size = self.num(off, nbytes)
            self.every.append((what + " size", off, off + nbytes))
            off += nbytes
            self.bodies.append((what, off, off + size))
            off += size

        tag("header_page", 12)
        sized("header_page", 8)
        tag("header_event", 13)
        sized("header_event", 8)
        n = self.num(off, 4)
        self.every.append(("ftrace format count", off, off + 4))
        off += 4
        for i in range(n):
            sized("ftrace format %d" % i, 8)
        n = self.num(off, 4)
        self.every.append(("event system count", off, off + 4))
        off += 4
        for i in range(n):
            _, end = self.string(off)
            self.every.append(("event system %d name" % i, off, end))
            off = end
            count = self.num(off, 4)
            self.every.append(("event system %d count" % i, off, off + 4))
            off += 4
            for j in range(count):
                sized("event format %d.%d" % (i, j), 8)
        sized("kallsyms", 4)
        sized("printk formats", 4)
        sized("saved cmdlines", 8)
        cpus = self.num(off, 4)
        self.every.append(("CPU count", off, off + 4))
        off += 4
        self.every.append(("data kind", off, off + 10))
        kind = self.data[off:off + 10]
        off += 10
        if kind.startswith(b"options"):
            off = self.option_list(off, len(self.data), [])
            self.every.append(("option DONE and data kind", off - 2, off + 10))
            off += 10
        self.every.append(("CPU table", off, off + 16 * cpus))
        for cpu in range(cpus):
            doff, size = self.num(off + 16 * cpu, 8), self.num(off + 16 * cpu + 8, 8)
            if not size:
                continue
            what = "CPU %d" % cpu
            self.every.append((what + " first page header", doff, doff + 16))
            last = doff + (size - 1) // self.page * self.page
            if last != doff:
                self.every.append((what + " last page header", last, last + 16))
            self.cpu.append((what + " data", doff, doff + size))


def positions(data):
    """(offset, what) of every byte changed in @data."""
    lay = Layout(data)
    version = int(data[10:data.index(b"\0", 10)])
    if version >= 7:
        lay.v7()
    else:
        lay.v6()
    rnd = random.Random(37)
    out = {}
    for what, start, end in lay.every:
        for off in range(start, min(end, len(data))):
            out.setdefault(off, what)
    for what, start, end in lay.bodies:
        if end > start:
            for off in rnd.sample(range(start, end), min(SAMPLES, end - start)):
                out.setdefault(off, what)
    pool = [(off, what) for what, start, end in lay.cpu for off in range(start, end)]
    data = rnd.sample(pool, min(DATA_SAMPLES, len(pool)))
    if CASES and len(out) + len(data) > CASES:
        data = data[:CASES // 2]
        keep = rnd.sample(sorted(out.items()), min(len(out), CASES - len(data)))
        out = dict(keep)
    for off, what in data:
        out.setdefault(off, what)
    return sorted(out.items())


def env():
    e = dict(os.environ)
    # A size read from a damaged file may ask malloc() for more than exists:
    # it returns NULL there, as it does without the sanitizer.  Leaks are
    # test_badinput.sh's: telling libtracecmd's own from fgdecode's needs
    # the full unwinder at every malloc() (fast_unwind_on_malloc=0), 8 times
    # the time of a decode.
    e["ASAN_OPTIONS"] = "exitcode=90:detect_leaks=0:allocator_may_return_null=1"
    e["UBSAN_OPTIONS"] = "exitcode=91:print_stacktrace=1"
    return e


def decode(path):
    try:
        p = subprocess.run([FG, "--strict", "--cookies", path], capture_output=True,
                           timeout=120, env=ENV)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace")
    except subprocess.TimeoutExpired:
        return 124, b"", "hung (killed after 120 s)"


# allocator_may_return_null=1 says so when it returns NULL: not a failure.
ALLOC_WARNING = re.compile(r"^==\d+==WARNING: AddressSanitizer failed to allocate .*\n?", re.M)


def classify(good, records, rc, out, err):
    err = ALLOC_WARNING.sub("", err)
    lines = err.splitlines()
    if re.search(r"Sanitizer|runtime error", err) or rc < 0 or rc > 3 or rc == 124:
        return "CRASH", (lines[:1] or ["exit %d" % rc])[0]
    if rc == 1:
        if len(lines) == 1 and lines[0].startswith("fgdecode: "):
            return "refused", lines[0]
        if lines and lines[-1].startswith("fgdecode: "):
            return "refused", lines[-1] + " (after %d more lines)" % (len(lines) - 1)
        return "CRASH", "exit 1 without a 'fgdecode: ' line"
    m = SUMMARY.search(err)
    n = int(m.group(1)) if m else -1
    loss = LOSS.search(err)
    if out == good:
        return "identical", ""
    if n >= records:
        return "altered", ""
    if loss and rc == 3:
        return "warned", loss.group(0)
    return "SILENT", "%d of %d records, exit %d%s" % (
        n, records, rc, "; " + loss.group(0) if loss else "")


def flip_and_decode(args):
    path, data, off = args
    tmp = "%s.%d" % (path, off)
    with open(tmp, "wb") as f:
        f.write(data[:off] + bytes([data[off] ^ 0xff]) + data[off + 1:])
    res = decode(tmp)
    os.unlink(tmp)
    return res


def matrix(label, path):
    with open(path, "rb") as f:
        data = f.read()
    rc, good, err = decode(path)
    m = SUMMARY.search(err)
    if rc != 0 or not m:
        print("FAIL %s: the undamaged trace does not decode (exit %d): %s" % (label, rc, err.strip()))
        return 1
    records = int(m.group(1))
    pos = positions(data)
    counts = {}
    failures = 0
    base = os.path.join(TMP, label)
    with concurrent.futures.ThreadPoolExecutor(JOBS) as ex:
        results = ex.map(flip_and_decode, [(base, data, off) for off, _ in pos])
        for (off, what), (rc, out, err) in zip(pos, results):
            cls, why = classify(good, records, rc, out, err)
            counts[cls] = counts.get(cls, 0) + 1
            if cls in ("SILENT", "CRASH"):
                failures += 1
                print("FAIL %s byte %d (%s): %s: %s" % (label, off, what, cls, why))
            elif os.environ.get("VERBOSE"):
                print("%s %s byte %d (%s): %s" % (cls, label, off, what, why))
    order = ["identical", "altered", "refused", "warned", "SILENT", "CRASH"]
    print("%s: %d bytes changed (%d records undamaged): %s" % (
        label, len(pos), records, ", ".join("%s %d" % (c, counts.get(c, 0)) for c in order)))
    return failures


def main():
    global TMP, ENV
    trace = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "tests/fixtures/traces/kstack.dat")
    if not os.access(FG, os.X_OK):
        print("test_corruption: build tests/decoder first (make -C tests/decoder all)")
        return 2
    TMP = tempfile.mkdtemp(prefix="corruption.")
    try:
        ENV = env()
        traces = [("v7-zstd", "7", "zstd"), ("v6-none", "6", "none")]
        failures = 0
        for label, version, compression in traces:
            out = os.path.join(TMP, label + ".dat")
            p = subprocess.run(["trace-cmd", "convert", "--file-version", version,
                                "--compression", compression, "-i", trace, "-o", out],
                               capture_output=True)
            if p.returncode:
                print("test_corruption: trace-cmd convert to %s failed: %s" % (label, p.stderr.decode()))
                return 2
            failures += matrix(label, out)
        print("corruption: %s" % ("%d failures" % failures if failures else "no silent loss, no crash"))
        return 1 if failures else 0
    finally:
        shutil.rmtree(TMP)


if __name__ == "__main__":
    sys.exit(main())
