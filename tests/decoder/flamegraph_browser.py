#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Drive a fgdecode --flamegraph SVG in headless Chromium and check it.

Usage: flamegraph_browser.py SVG FOLDED OUTDIR [CHROMIUM [TERM]]

FOLDED is `fgdecode --folded` of the same trace (the ground truth).  The
script talks to Chromium over the DevTools protocol on a pipe
(--remote-debugging-pipe: NUL-terminated JSON on fds 3 and 4), so it needs
nothing but the standard library.  It checks, printing PASS/FAIL per check:

  structure  the file is XML; the root frame's tooltip weight is the total
             of FOLDED; each event frame weighs what FOLDED gives the event
  load       the page loads, the script runs, labels are filled in
  zoom       a real mouse click on a frame (mid-depth, not full width)
             makes that frame span the whole width, its ancestors too, and
             every other visible frame lies inside the width
  search     clicking "Search" opens the prompt; answering it paints
             exactly the frames whose name matches, and "Matched: N%" is
             the share of FOLDED's weight whose stacks hold a match
  unzoom     "Reset Zoom" puts every frame back at its full-scale place

and keeps OUTDIR/flamegraph.png (the whole graph) and
OUTDIR/flamegraph-zoom-search.png (zoomed and searched).
Exit status: 0 when every check passed.
"""
import json
import os
import re
import sys
import tempfile
import xml.etree.ElementTree as ET

from devtools import Browser

SVG_NS = "{http://www.w3.org/2000/svg}"
TERM = "^p9_|^v9fs_"	# 9p functions: modules, part of the stacks only
failed = 0


def check(name, why):
    global failed
    if why:
        failed += 1
        print(f"FAIL {name}: {why}")
    else:
        print(f"PASS {name}")


def read_folded(path):
    """[(event, [frames root first], weight)] of a --folded file."""
    out = []
    with open(path) as f:
        for line in f:
            stack, w = line.rstrip("\n").rsplit(" ", 1)
            frames = stack.split(";")
            if frames[0].startswith("[orphan"):
                continue
            out.append((frames[0], frames[1:], int(w)))
    return out


def tooltip_weight(g):
    """The weight a frame's tooltip states ("NAME: W UNIT, P%...")."""
    m = re.search(r": (\d+) [^,]*, [\d.]+%", g.find(SVG_NS + "title").text)
    return int(m.group(1)) if m else None


def check_structure(svg_path, folded):
    try:
        root = ET.parse(svg_path).getroot()
    except ET.ParseError as e:
        check("structure", f"not XML: {e}")
        return None
    frames = [g for g in root.iter(SVG_NS + "g") if "f" in g.get("class", "").split()]
    total = sum(w for _, _, w in folded)
    per_event = {}
    for ev, _, w in folded:
        per_event[ev] = per_event.get(ev, 0) + w
    why = ""
    roots = [g for g in frames if "root" in g.get("class").split()]
    if len(roots) != 1 or tooltip_weight(roots[0]) != total:
        why += f"root frame does not weigh the {total} of --folded; "
    got = {g.get("data-n"): tooltip_weight(g) for g in frames if "event" in g.get("class").split()}
    if got != per_event:
        why += f"event frames {got} != --folded {per_event}; "
    if root.find(SVG_NS + "script") is None or root.find(f".//*[@href]") is not None:
        why += "no inline script, or an external reference; "
    check("structure", why)
    return frames


def share_of(folded, term):
    """Share (percent) of the weight whose stack holds a frame matching term."""
    re_ = re.compile(term)
    total = sum(w for _, _, w in folded)
    hit = sum(w for ev, fr, w in folded if any(re_.search(f) for f in [ev] + fr))
    return 100.0 * hit / total


def pick_term(folded, names):
    """A search term for a trace without 9p frames: the drawn frame name
    whose stacks hold the share of the weight nearest 50 %."""
    best, best_gap = None, None
    for n in sorted(set(names)):
        if not n or n.startswith("[") or n in {ev for ev, _, _ in folded}:
            continue
        term = "^" + re.escape(n) + "$"
        gap = abs(share_of(folded, term) - 50.0)
        if best_gap is None or gap < best_gap:
            best, best_gap = term, gap
    return best or TERM


def main():
    svg_path, folded_path, outdir = (os.path.abspath(a) for a in sys.argv[1:4])
    global TERM
    chromium = sys.argv[4] if len(sys.argv) > 4 else "chromium"
    TERM = sys.argv[5] if len(sys.argv) > 5 else TERM
    os.makedirs(outdir, exist_ok=True)
    folded = read_folded(folded_path)
    frames = check_structure(svg_path, folded)
    if frames is None:
        return 1
    height = int(ET.parse(svg_path).getroot().get("height"))
    names = [g.get("data-n") for g in frames]
    # The vm-e2e trace holds 9p module frames wide enough to be drawn in
    # most runs, not all (too few, they are merged into "[N frames]").
    if len(sys.argv) <= 5 and not any(n and re.search(TERM, n) for n in names):
        TERM = pick_term(folded, names)
        print(f"note: no 9p frame drawn for this trace; searching {TERM!r}")
    with tempfile.TemporaryDirectory() as profile:
        b = Browser(chromium, profile)
        try:
            run(b, svg_path, outdir, height, names, folded)
        finally:
            b.close()
    print(f"flamegraph: {failed} failed")
    return 1 if failed else 0


def run(b, svg_path, outdir, height, names, folded):
    b.open("file://" + svg_path, 1200, height)
    b.wait_event("Page.loadEventFired")
    state = b.eval("JSON.stringify({n: frames.length, W: W, labels: frames.filter("
                   "function (g) { return g.querySelector('text').textContent; }).length})")
    state = json.loads(state)
    check("load", "" if state["n"] == len(names) and state["labels"] > 0 else
          f"script saw {state['n']} of {len(names)} frames, {state['labels']} labels")
    b.screenshot(os.path.join(outdir, "flamegraph.png"))
    W, PAD = state["W"], 10

    # The frame to click: mid-depth, from a fiftieth to 95 % of the width.
    pick = json.loads(b.eval("""JSON.stringify((function () {
        var c = frames.filter(function (g) { var w = num(g, 'data-w');
            return !g.classList.contains('root') && !g.classList.contains('event') &&
                   w > W / 50 && w < W * 0.95; });
        c.sort(function (a, b) { return parseFloat(a.querySelector('rect').getAttribute('y')) -
                                         parseFloat(b.querySelector('rect').getAttribute('y')); });
        var g = c[Math.floor(c.length / 2)], r = g.querySelector('rect').getBoundingClientRect();
        window.picked = g;
        return {name: g.getAttribute('data-n'), x: r.x + r.width / 2, y: r.y + r.height / 2};
    })())"""))
    b.click(pick["x"], pick["y"])
    z = json.loads(b.eval("""JSON.stringify((function () {
        var r = picked.querySelector('rect'), out = 0, anc = 0, bad = 0;
        frames.forEach(function (g) {
            if (g.style.display === 'none') return;
            var x = parseFloat(g.querySelector('rect').getAttribute('x')),
                w = parseFloat(g.querySelector('rect').getAttribute('width'));
            if (g.classList.contains('parent')) { anc++; if (Math.abs(w - W) > 0.01) bad++; }
            if (x < PAD - 0.01 || x + w > PAD + W + 0.01) out++;
        });
        return {x: parseFloat(r.getAttribute('x')), w: parseFloat(r.getAttribute('width')),
                out: out, anc: anc, bad: bad,
                unzoom: !document.getElementById('unzoom').classList.contains('hide')};
    })())"""))
    why = ""
    if abs(z["x"] - PAD) > 0.01 or abs(z["w"] - W) > 0.01:
        why += f"clicked frame {pick['name']} is at x {z['x']} width {z['w']}, not {PAD} {W}; "
    if z["anc"] < 2 or z["bad"]:
        why += f"{z['anc']} ancestors shown, {z['bad']} not full width; "
    if z["out"]:
        why += f"{z['out']} visible frames outside the width; "
    if not z["unzoom"]:
        why += "no Reset Zoom button; "
    check(f"zoom ({pick['name']})", why)

    # Search through the real button and prompt.
    box = json.loads(b.eval("JSON.stringify(document.getElementById('search').getBoundingClientRect())"))
    release = b.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, wait=False)
    b.wait_event("Page.javascriptDialogOpening")
    b.call("Page.handleJavaScriptDialog", {"accept": True, "promptText": TERM})
    b.reply(release)
    got = json.loads(b.eval("""JSON.stringify({
        painted: frames.filter(function (g) { return g.querySelector('rect').getAttribute('fill') === 'rgb(230,0,230)'; })
                       .map(function (g) { return g.getAttribute('data-n'); }),
        matched: document.getElementById('matched').textContent})"""))
    want = [n for n in names if re.search(TERM, n)]
    why = ""
    if sorted(got["painted"]) != sorted(want) or not want:
        why += f"painted {len(got['painted'])} frames, {len(want)} match {TERM!r}; "
    m = re.match(r"Matched: ([\d.]+)%$", got["matched"])
    share = share_of(folded, TERM)
    if not m or abs(float(m.group(1)) - share) > 0.5:
        why += f"'{got['matched']}' shown, stacks with a match hold {share:.1f}%; "
    check(f"search ({len(want)} frames, {share:.1f}%)", why)
    b.screenshot(os.path.join(outdir, "flamegraph-zoom-search.png"))

    box = json.loads(b.eval("JSON.stringify(document.getElementById('unzoom').getBoundingClientRect())"))
    b.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    moved = b.eval("""frames.filter(function (g) {
        var r = g.querySelector('rect');
        return g.style.display === 'none' ||
               Math.abs(parseFloat(r.getAttribute('x')) - PAD - num(g, 'data-x')) > 0.01 ||
               Math.abs(parseFloat(r.getAttribute('width')) - num(g, 'data-w')) > 0.01; }).length""")
    check("unzoom", f"{moved} frames not back in place" if moved else "")


if __name__ == "__main__":
    sys.exit(main())
