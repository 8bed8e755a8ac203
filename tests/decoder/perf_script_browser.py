#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Load fgdecode --perf-script's output into speedscope in headless Chromium
and check what speedscope made of it.

Usage: perf_script_browser.py SPEEDSCOPE PERF_SCRIPT FOLDED OUTDIR [CHROMIUM]

SPEEDSCOPE is speedscope's release directory (dist/release of its npm
package), PERF_SCRIPT the output of `fgdecode --perf-script TRACE`, FOLDED
`fgdecode --folded --merge TRACE` (the ground truth).  speedscope and the
file are served over HTTP on loopback (127.0.0.1, a free port, for the
run's length) and the file is opened as a hosted speedscope opens one
(index.html#profileURL=), under a name that says nothing of its format, so
speedscope picks the importer by its content.  Checks, printing PASS/FAIL
per check:

  import   speedscope imported it as "linux perf script output"
  threads  its profiles are the tasks of the output's event lines, one per
           "COMM PID" ("COMM tid: PID", as its importer names them)
  samples  each task's time per stack in speedscope's export is what its
           samples give, weighed as speedscope weighs perf script samples
           (halfway to the previous sample to halfway to the next): every
           sample reached its task with its time and its stack
  stacks   speedscope's own export (its Export button: a speedscope JSON
           file, evented profiles) opens exactly the call paths of FOLDED:
           every root-first prefix of every stack, none other (marker
           stacks, which --perf-script prints without frames, aside)

and keeps OUTDIR/speedscope.png and OUTDIR/speedscope.json (the export).
Exit status: 0 when every check passed.
"""
import functools
import http.server
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import urllib.parse

from devtools import Browser

failed = 0


def result(name, why):
    global failed
    failed += bool(why)
    print(f"FAIL {name}: {why}" if why else f"PASS {name}")


def folded_paths(path):
    """Every root-first prefix of the stacks of a --folded --merge file,
    marker stacks left out and a [truncated] root dropped; an address no
    symbol covers (0xADDR) is '?'."""
    paths = set()
    with open(path) as f:
        for line in f:
            frames = line.rsplit(" ", 1)[0].split(";")
            if frames[0] == "[truncated]":
                frames = frames[1:]
            if len(frames) == 1 and re.fullmatch(r"\[[a-z ]+\]", frames[0]):
                continue
            frames = ["?" if re.fullmatch(r"0x[0-9a-f]+", n) else n for n in frames]
            for i in range(1, len(frames) + 1):
                paths.add(tuple(frames[:i]))
    return paths


def export_paths(export):
    """Every call path the evented profiles of a speedscope export open."""
    names = ["?" if f["name"].startswith("??? ") else f["name"] for f in export["shared"]["frames"]]
    paths = set()
    for prof in export["profiles"]:
        stack = []
        for ev in prof["events"]:
            if ev["type"] == "O":
                stack.append(names[ev["frame"]])
                paths.add(tuple(stack))
            else:
                stack.pop()
    return paths


def task_name(header):
    """The task of a --perf-script event line as speedscope names its
    profile: 'COMM pid: PID tid: TID', 'COMM tid: TID' when the line has the
    tid alone, a pid or tid of 0 left out; None for no event line."""
    m = re.match(r"(\S.+?)\s+(\d+)(?:/?(\d+))?\s+", header)
    if not m:
        return None
    pid, tid = (m.group(2), m.group(3)) if m.group(3) else (None, m.group(2))
    return m.group(1) + "".join(f" {k}: {v}" for k, v in (("pid", pid), ("tid", tid)) if v and int(v))


def events(path):
    """(task, time in s, root-first frame names) of every event of a
    --perf-script file, frames named as speedscope names them: the symbol
    without its +0xOFF, '?' for [unknown]."""
    with open(path) as f:
        blocks = f.read().split("\n\n")
    out = []
    for block in blocks:
        lines = block.split("\n")
        task, when = task_name(lines[0]), re.search(r"\s(\d+\.\d+):\s", lines[0])
        if task is None or when is None:
            continue
        frames = []
        for line in lines[1:]:
            m = re.match(r"\s*\w+\s*(.+) \((\S*)\)", line)
            if m:
                name = re.sub(r"\+0x[0-9a-f]+$", "", m.group(1))
                frames.append("?" if name == "[unknown]" else name)
        out.append((task, float(when.group(1)), tuple(reversed(frames))))
    return out


def tasks(path):
    """Every task of a --perf-script file, as speedscope names them."""
    return {task for task, _, _ in events(path)}


def sample_times(path):
    """{task: {root-first stack: seconds}} of a --perf-script file, each
    event a sample weighed as speedscope weighs perf script's samples: from
    halfway to the task's previous sample to halfway to its next (its
    StackListProfileBuilder.appendSampleWithTimestamp), a task's only sample
    weighing 1; stacks without frames left out."""
    by_task = {}
    for task, when, stack in events(path):
        by_task.setdefault(task, []).append((when, stack))
    out = {}
    for task, samples in by_task.items():
        times = out.setdefault(task, {})
        for i, (when, stack) in enumerate(samples):
            if len(samples) == 1:
                weight = 1.0
            else:
                start = when if i == 0 else (samples[i - 1][0] + when) / 2
                end = when if i == len(samples) - 1 else (when + samples[i + 1][0]) / 2
                weight = end - start
            if stack and weight > 0:
                times[stack] = times.get(stack, 0.0) + weight
    return out


def export_times(export):
    """{profile name: {root-first stack: seconds}} of a speedscope export's
    evented profiles: the time each stack of frames is the open one."""
    names = ["?" if f["name"].startswith("??? ") else f["name"] for f in export["shared"]["frames"]]
    out = {}
    for prof in export["profiles"]:
        times, stack, last = out.setdefault(prof["name"], {}), [], None
        for ev in prof["events"]:
            if stack and ev["at"] > last:
                key = tuple(stack)
                times[key] = times.get(key, 0.0) + ev["at"] - last
            last = ev["at"]
            if ev["type"] == "O":
                stack.append(names[ev["frame"]])
            else:
                stack.pop()
    return out


def compare_times(want, have, tolerance=1e-7):
    """'' when every task's time per stack agrees within TOLERANCE s, else
    what differs first."""
    for task in sorted(set(want) | set(have)):
        w, h = want.get(task, {}), have.get(task, {})
        for stack in sorted(set(w) | set(h)):
            if abs(w.get(stack, 0.0) - h.get(stack, 0.0)) > tolerance:
                return (f"{task}: {';'.join(stack[-2:])}: {h.get(stack, 0.0):.9f} s in speedscope, "
                        f"{w.get(stack, 0.0):.9f} s from the samples")
    return ""


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a directory without a log line per request."""

    def log_message(self, *args):
        pass


def serve(root):
    """Serve ROOT on 127.0.0.1 at a free port from a thread; return the server."""
    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def load(b, release, perf_script, site):
    """Serve speedscope and PERF_SCRIPT from SITE on loopback, open it;
    return the console lines speedscope printed and the server."""
    shutil.copytree(release, os.path.join(site, "speedscope"))
    shutil.copyfile(perf_script, os.path.join(site, "recording.txt"))
    server = serve(site)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    b.open(f"{base}/speedscope/index.html#profileURL=" +
           urllib.parse.quote(f"{base}/recording.txt", safe=""), 1200, 800)
    console = []
    while not any("Importing" in c or "rror" in c for c in console):
        ev = b.wait_event("Runtime.consoleAPICalled")
        console.append(" ".join(str(a.get("value", "")) for a in ev["params"]["args"]))
    return console, server


def pause(b):
    """Let the page run for 50 ms."""
    b.call("Runtime.evaluate", {"expression": "new Promise(function (r) { setTimeout(r, 50); })",
                                "awaitPromise": True})


def export(b):
    """Click speedscope's Export; return the JSON it would have saved."""
    b.eval("""window.__exported = null;
        URL.createObjectURL = function (blob) { blob.text().then(function (t) { window.__exported = t; });
                                                return 'about:blank'; };
        HTMLAnchorElement.prototype.click = function () {};""")
    for _ in range(200):
        if b.eval("""(function () {
                var tab = Array.from(document.querySelectorAll('div'))
                    .find(function (d) { return /Export$/.test(d.textContent) && d.children.length === 1; });
                if (tab) tab.click();
                return !!tab; })()"""):
            break
        pause(b)
    for _ in range(200):
        text = b.eval("window.__exported")
        if text:
            return json.loads(text)
        pause(b)
    return None


def main():
    release, perf_script, folded, outdir = (os.path.abspath(a) for a in sys.argv[1:5])
    chromium = sys.argv[5] if len(sys.argv) > 5 else "chromium"
    os.makedirs(outdir, exist_ok=True)
    with tempfile.TemporaryDirectory() as profile_dir, tempfile.TemporaryDirectory() as site:
        b = Browser(chromium, profile_dir)
        server = None
        try:
            console, server = load(b, release, perf_script, site)
            result("import", "" if any("linux perf script" in c for c in console) else
                   f"speedscope said: {' | '.join(console)[:300]}")
            got = export(b)
            b.screenshot(os.path.join(outdir, "speedscope.png"))
        finally:
            b.close()
            if server:
                server.shutdown()
    if got is None:
        result("export", "no file came out of speedscope's Export")
        return 1
    with open(os.path.join(outdir, "speedscope.json"), "w") as f:
        json.dump(got, f)
    want_tasks, got_tasks = tasks(perf_script), {p["name"] for p in got["profiles"]}
    result(f"threads ({len(got_tasks)})", "" if got_tasks == want_tasks else
           f"missing {sorted(want_tasks - got_tasks)[:5]}, extra {sorted(got_tasks - want_tasks)[:5]}")
    want_times = sample_times(perf_script)
    nsamples = sum(1 for _, _, stack in events(perf_script) if stack)
    result(f"samples ({nsamples} with a stack)", compare_times(want_times, export_times(got)))
    want, have = folded_paths(folded), export_paths(got)
    result(f"stacks ({len(have)} call paths)", "" if want == have else
           f"{len(want - have)} of --folded's paths missing (e.g. {';'.join(min(want - have, default=()))}), "
           f"{len(have - want)} not in it (e.g. {';'.join(min(have - want, default=()))})")
    print(f"perf-script: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
