#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fgdecode --json's "fields" against trace-cmd report -R, and its "printed" against
trace-cmd report -N, event by event.

Usage: check_json_fields.py FGDECODE TRACE.dat...

For every event of each trace (the stackmap system's records and ftrace's
kernel_stack left out, as --json shows them as stacks), the fields
`trace-cmd report -R` prints ("name=value" after the event name) and those
--json gives must be the same names in the same order with the same
values: a string equal, a number equal to report's decimal or 0x value, a
"0x..." string equal as a number, an array equal byte for byte to report's
ARRAY[..] (little-endian elements).  A value report prints as a symbol
("kvmalloc_node+0x3f": a function address) is counted, not compared.
Each value of "printed" (a symbolic field as the event's format prints it:
"R+", "GFP_KERNEL|__GFP_ZERO") must stand in the line `trace-cmd report -N`
prints of that event (its print format, no plugin) as a whole word: not
inside a longer run of letters, digits, '_', '|' or '+'.  A trace with
sched_switch, kmalloc or softirq events must have printed values.
Prints the counts; exit status 0 when all agree, 1 otherwise.
"""
import json
import re
import subprocess
import sys

# "COMM-PID [CPU] [FLAGS] SEC.USEC: EVENT: FIELDS" (trace-cmd 3.3 prints the latency flags, "d..2." or with
# -R "[000]-0x1"; 3.1.6 none)
REPORT_LINE = re.compile(r"^\s*\S.*?\[\d+\]\S*\s+(?:[a-zA-Z0-9.]{4,6}\s+)?\d+\.\d+: (\S+):\s+(.*)$")
FIELD = re.compile(r"(\w+)=(ARRAY\[[^\]]*\]|\S*)")


def report_events(trace, option="-R"):
    out = subprocess.run(["trace-cmd", "report", option, trace], capture_output=True,
                         text=True, check=True).stdout
    events = []
    for line in out.splitlines():
        m = REPORT_LINE.match(line)
        if not m or m.group(1) in ("stack_cookie", "stack_define", "stack_fallback",
                                   "function_entry", "kernel_stack"):
            continue
        events.append((m.group(1), FIELD.findall(m.group(2)) if option == "-R" else m.group(2)))
    return events


def json_events(fgdecode, trace):
    out = subprocess.run([fgdecode, "--json", "--no-summary", trace], capture_output=True,
                         text=True, check=True).stdout
    return [o for o in map(json.loads, out.splitlines())
            if not o.get("orphan") and o["system"] != "stackmap"]


def as_int(text):
    return int(text, 16) if text.lower().startswith("0x") else int(text, 10)


def same(value, text):
    """None: not compared (a symbol); else whether they agree."""
    if isinstance(value, str) and value.startswith("0x") and re.fullmatch(r"0x[0-9a-f]+", value):
        if not re.fullmatch(r"-?(0x)?[0-9a-fA-F]+", text):
            return None
        return int(value, 16) == as_int(text) % (1 << 64)
    if isinstance(value, str):
        return value == text
    if isinstance(value, list):
        if not text.startswith("ARRAY["):
            return False
        want = bytes(int(b, 16) for b in text[6:-1].split(", ") if b)
        size = len(want) // len(value) if value else 0
        got = b"".join((v % (1 << (8 * size))).to_bytes(size, "little") for v in value) if size else b""
        return got == want
    if value is None:
        return False
    try:
        return value == as_int(text) or value % (1 << 64) == as_int(text) % (1 << 64)
    except ValueError:
        return None


def check(fgdecode, trace):
    rep, js = report_events(trace), json_events(fgdecode, trace)
    bad, values, symbols = [], 0, 0
    if len(rep) != len(js):
        return [f"{trace}: {len(js)} events in --json, {len(rep)} in trace-cmd report -R"], 0, 0
    for i, ((name, fields), obj) in enumerate(zip(rep, js)):
        got = list(obj.get("fields", {}).items())
        if name != obj["event"] or [k for k, _ in got] != [k for k, _ in fields]:
            bad.append(f"{trace}: event {i} ({name}): fields {[k for k, _ in got]} != report's {[k for k, _ in fields]}")
            continue
        for (key, value), (_, text) in zip(got, fields):
            r = same(value, text)
            if r is None:
                symbols += 1
            elif r:
                values += 1
            else:
                bad.append(f"{trace}: event {i} ({name}): {key} is {value!r} in --json, {text!r} in report")
    return bad, values, symbols


def check_printed(fgdecode, trace):
    """The "printed" values against trace-cmd report -N's lines."""
    rep, js = report_events(trace, "-N"), json_events(fgdecode, trace)
    bad, printed = [], 0
    if len(rep) != len(js):
        return [f"{trace}: {len(js)} events in --json, {len(rep)} in trace-cmd report -N"], 0
    symbolic = {"sched_switch", "kmalloc", "softirq_entry"} & {name for name, _ in rep}
    for i, ((name, info), obj) in enumerate(zip(rep, js)):
        symbolic.discard(name if obj.get("printed") else None)
        for key, value in obj.get("printed", {}).items():
            word = r"(?<![\w|+])" + re.escape(value) + r"(?![\w|+])"
            if key not in obj["fields"] or not re.search(word, info):
                bad.append(f"{trace}: event {i} ({name}): printed {key} {value!r} not in report -N's {info!r}")
            else:
                printed += 1
    bad += [f"{trace}: no {name} event has a printed field" for name in sorted(symbolic)]
    return bad, printed


def main():
    fgdecode, traces = sys.argv[1], sys.argv[2:]
    failed = 0
    for trace in traces:
        bad, values, symbols = check(fgdecode, trace)
        for b in bad[:5]:
            print(f"check_json_fields: {b}")
        failed += len(bad)
        print(f"check_json_fields: {trace}: {values} field values equal to trace-cmd report -R's, "
              f"{symbols} symbols not compared, {len(bad)} differ")
        bad, printed = check_printed(fgdecode, trace)
        for b in bad[:5]:
            print(f"check_json_fields: {b}")
        failed += len(bad)
        print(f"check_json_fields: {trace}: {printed} printed values in trace-cmd report -N's lines, "
              f"{len(bad)} not")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
