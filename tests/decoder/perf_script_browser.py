#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Load fgdecode --perf-script's output into speedscope in headless Chromium
and check what speedscope made of it.

Usage: perf_script_browser.py SPEEDSCOPE PERF_SCRIPT FOLDED OUTDIR [CHROMIUM]

SPEEDSCOPE is speedscope's release directory (dist/release of its npm
package), PERF_SCRIPT the output of `fgdecode --perf-script TRACE`, FOLDED
`fgdecode --folded --merge TRACE` (the ground truth).  The file is loaded as
speedscope's own command line does (index.html#localProfilePath= a script
calling speedscope.loadFileFromBase64), under a name that says nothing of
its format, so speedscope picks the importer by its content.  Checks,
printing PASS/FAIL per check:

  import   speedscope imported it as "linux perf script output"
  threads  its profiles are the tasks of the output's event lines, one per
           "COMM PID" ("COMM tid: PID", as its importer names them)
  stacks   speedscope's own export (its Export button: a speedscope JSON
           file, evented profiles) opens exactly the call paths of FOLDED:
           every root-first prefix of every stack, none other (marker
           stacks, which --perf-script prints without frames, aside)

and keeps OUTDIR/speedscope.png and OUTDIR/speedscope.json (the export).
Exit status: 0 when every check passed.
"""
import base64
import json
import os
import re
import sys
import tempfile

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


def tasks(path):
    """'COMM tid: PID' of every event line of a --perf-script file ('COMM'
    alone for pid 0: speedscope's importer leaves out a tid that is 0)."""
    out = set()
    with open(path) as f:
        for line in f:
            m = re.match(r"(\S.+?)\s+(\d+) \[\d+\] ", line)
            if m:
                out.add(m.group(1) + (f" tid: {m.group(2)}" if int(m.group(2)) else ""))
    return out


def load(b, release, perf_script, profile_dir):
    """Open speedscope on PERF_SCRIPT; return the console lines it printed."""
    with open(perf_script, "rb") as f:
        data = base64.b64encode(f.read()).decode()
    loader = os.path.join(profile_dir, "load.js")
    with open(loader, "w") as f:
        f.write(f"speedscope.loadFileFromBase64({json.dumps('recording.txt')}, {json.dumps(data)})\n")
    b.open("file://" + os.path.join(release, "index.html") + "#localProfilePath=" + loader, 1200, 800)
    console = []
    while not any("Importing" in c or "rror" in c for c in console):
        ev = b.wait_event("Runtime.consoleAPICalled")
        console.append(" ".join(str(a.get("value", "")) for a in ev["params"]["args"]))
    return console


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
    with tempfile.TemporaryDirectory() as profile_dir:
        b = Browser(chromium, profile_dir)
        try:
            console = load(b, release, perf_script, profile_dir)
            result("import", "" if any("linux perf script" in c for c in console) else
                   f"speedscope said: {' | '.join(console)[:300]}")
            got = export(b)
            b.screenshot(os.path.join(outdir, "speedscope.png"))
        finally:
            b.close()
    if got is None:
        result("export", "no file came out of speedscope's Export")
        return 1
    with open(os.path.join(outdir, "speedscope.json"), "w") as f:
        json.dump(got, f)
    want_tasks, got_tasks = tasks(perf_script), {p["name"] for p in got["profiles"]}
    result(f"threads ({len(got_tasks)})", "" if got_tasks == want_tasks else
           f"missing {sorted(want_tasks - got_tasks)[:5]}, extra {sorted(got_tasks - want_tasks)[:5]}")
    want, have = folded_paths(folded), export_paths(got)
    result(f"stacks ({len(have)} call paths)", "" if want == have else
           f"{len(want - have)} of --folded's paths missing (e.g. {';'.join(min(want - have, default=()))}), "
           f"{len(have - want)} not in it (e.g. {';'.join(min(have - want, default=()))})")
    print(f"perf-script: {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
