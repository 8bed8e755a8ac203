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
  labels     the file itself holds each frame's label (an image shows it,
             where no script runs), the title counts the events with a
             stack, and the legend names each kind of frame drawn
  load       the page loads, the script runs, and the labels it fits are
             exactly those the file holds
  zoom       a real mouse click on a frame (mid-depth, not full width)
             makes that frame span the whole width, its ancestors too, and
             every other visible frame lies inside the width
  search     clicking "Search" opens the prompt; answering it paints
             exactly the frames whose name matches, and "Matched: N%" is
             the share of FOLDED's weight whose stacks hold a match
  unzoom     "Reset Zoom" puts every frame back at its full-scale place
  image      the file shown as an <img> in an HTML page (no script runs)
             renders pixel for pixel as the page did before the clicks
  fit        opened in a narrower window, the graph spans that width and
             its labels are fitted anew, none wider than its frame

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


def label_of(g):
    """The label the file (or the page) holds for frame g."""
    t = g.find(SVG_NS + "text")
    return "".join(t.itertext()) if t is not None else ""


def check_labels(root, frames):
    """Labels written by fgdecode, the title's counts, the legend."""
    why = ""
    labels = [label_of(g) for g in frames]
    wide = [g for g in frames if float(g.get("data-w")) >= 6 + 12 * 0.59 * len(g.get("data-n"))]
    bad = [g.get("data-n") for g in wide if label_of(g) != g.get("data-n")]
    if not wide or bad:
        why += f"{len(bad)} of {len(wide)} frames wide enough for their name lack it: {bad[:3]}; "
    if any(label and not (g.get("data-n") == label or
                          (label.endswith("..") and g.get("data-n").startswith(label[:-2])))
           for g, label in zip(frames, labels)):
        why += "a label is not its frame's name or its start; "
    title = "".join(root.find(f".//{SVG_NS}text[@id='title']").itertext())
    if not re.search(r"\(\d+ events? with a stack, of \d+\)$", title):
        why += f"title '{title}' does not count the events with a stack; "
    legend = root.find(f".//{SVG_NS}g[@id='legend']")
    kinds = {c for g in frames for c in g.get("class").split()} - {"f", "root"}
    shown = {"".join(t.itertext()) for t in legend.iter(SVG_NS + "text")} if legend is not None else set()
    names = {"event": "event", "kernel": "kernel function", "module": "module function",
             "inlined": "inlined", "marker": "unresolved or truncated", "merged": "narrow frames merged",
             "label": "task or state"}
    if {names[k] for k in kinds} != shown:
        why += f"legend {sorted(shown)} for frames of kinds {sorted(kinds)}; "
    check(f"labels ({sum(1 for x in labels if x)} of {len(frames)} frames)", why)
    return labels


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
    return frames, check_labels(root, frames)


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
    got = check_structure(svg_path, folded)
    if got is None:
        return 1
    frames, labels = got
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
            run(b, svg_path, outdir, height, names, folded, labels)
        finally:
            b.close()
    print(f"flamegraph: {failed} failed")
    return 1 if failed else 0


def run(b, svg_path, outdir, height, names, folded, labels):
    b.open("file://" + svg_path, 1200, height)
    b.wait_event("Page.loadEventFired")
    state = b.eval("JSON.stringify({n: frames.length, W: W, labels: frames.map("
                   "function (g) { return g.querySelector('text').textContent; })})")
    state = json.loads(state)
    differ = sum(1 for a, b_ in zip(state["labels"], labels) if a != b_)
    check("load", "" if state["n"] == len(names) and not differ else
          f"script saw {state['n']} of {len(names)} frames, fitted {differ} labels unlike the file's")
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
    check_image(b, svg_path, outdir, height)
    check_fit(b, svg_path, height)


def check_image(b, svg_path, outdir, height):
    """The SVG as an <img>: no script runs, yet it shows what the page did."""
    html = os.path.join(outdir, "flamegraph-img.html")
    with open(html, "w") as f:
        f.write('<!DOCTYPE html><html><body style="margin:0">'
                f'<img src="{os.path.basename(svg_path)}" width="1200" height="{height}" '
                'style="display:block"></body></html>\n')
    if os.path.dirname(svg_path) != outdir:
        check("image", f"the SVG must be in {outdir}")
        return
    b.open("file://" + html, 1200, height)
    b.wait_event("Page.loadEventFired")
    shot = os.path.join(outdir, "flamegraph-img.png")
    b.screenshot(shot)
    with open(shot, "rb") as f, open(os.path.join(outdir, "flamegraph.png"), "rb") as g:
        same = f.read() == g.read()
    check("image", "" if same else f"{shot} differs from flamegraph.png, the page with its script")


def check_fit(b, svg_path, height):
    """Opened 800 px wide: frames and labels fitted to the window."""
    b.open("file://" + svg_path, 800, height)
    b.wait_event("Page.loadEventFired")
    got = json.loads(b.eval("""JSON.stringify((function () {
        var root = frames.filter(function (g) { return g.classList.contains('root'); })[0], over = 0;
        frames.forEach(function (g) {
            var t = g.querySelector('text'), r = g.querySelector('rect');
            if (t.textContent && t.getComputedTextLength() > parseFloat(r.getAttribute('width')) + 1) over++;
        });
        return {w: parseFloat(root.querySelector('rect').getAttribute('width')),
                svg: document.documentElement.getBoundingClientRect().width, over: over};
    })())"""))
    why = ""
    if abs(got["w"] - 780) > 0.01 or abs(got["svg"] - 800) > 0.5:
        why += f"root frame {got['w']} px wide in a {got['svg']} px graph, not 780 in 800; "
    if got["over"]:
        why += f"{got['over']} labels wider than their frames; "
    check("fit (800 px window)", why)


if __name__ == "__main__":
    sys.exit(main())
