// SPDX-License-Identifier: GPL-2.0
//
// The script of fgdecode --flamegraph SVGs (flamegraph.h), embedded in each
// file (decoder/Makefile turns it into flamegraph.js.h).  The SVG holds one
// <g class="f"> per frame: data-n its name, data-x and data-w its place and
// width at full scale in px, a <rect> and a <text> whose label fgdecode
// already wrote (so the file reads as an image too, where no script runs);
// the root is at the bottom.  Opened as a document, the graph first widens
// or narrows to the window.  Click a frame to zoom to it (its ancestors span the width,
// faded), click "Reset Zoom" or the root to unzoom; "Search" (or Ctrl-F)
// asks for a regular expression and paints the matching frames, and
// "Matched: N%" says what share of the total weight they hold (nested
// matches counted once).  The functions are global, for tests.
"use strict";
var svg, frames, details, matchedtext, searchbtn, unzoombtn;
var W = 0, PAD = 10, FONT = 12, CHAR = 0.59;
var searching = null;

function init() {
	svg = document.documentElement;
	W = parseFloat(svg.getAttribute("data-width"));
	frames = Array.prototype.slice.call(document.querySelectorAll("g.f"));
	details = document.getElementById("details");
	matchedtext = document.getElementById("matched");
	searchbtn = document.getElementById("search");
	unzoombtn = document.getElementById("unzoom");
	frames.forEach(function (g) {
		g.addEventListener("click", function (e) { zoom(g); e.stopPropagation(); });
		g.addEventListener("mouseover", function () { details.textContent = g.querySelector("title").textContent; });
		g.addEventListener("mouseout", function () { details.textContent = " "; });
	});
	searchbtn.addEventListener("click", function () { search_prompt(); });
	unzoombtn.addEventListener("click", function () { unzoom(); });
	window.addEventListener("keydown", function (e) {
		if (e.ctrlKey && e.key === "f") { e.preventDefault(); search_prompt(); }
		if (e.key === "Escape") { reset_search(); }
	});
	fit_window();
	frames.forEach(function (g) { place(g, num(g, "data-x"), num(g, "data-w")); });
}

// Widen or narrow the graph to the window, frames, title and buttons with it.
function fit_window() {
	var width = Math.floor(window.innerWidth), f, old = parseFloat(svg.getAttribute("width"));
	if (!width || Math.abs(width - old) < 1 || width < 200) return;
	f = (width - 2 * PAD) / W;
	frames.forEach(function (g) {
		g.setAttribute("data-x", (num(g, "data-x") * f).toFixed(3));
		g.setAttribute("data-w", (num(g, "data-w") * f).toFixed(3));
	});
	W = width - 2 * PAD;
	svg.setAttribute("width", width);
	svg.setAttribute("viewBox", "0 0 " + width + " " + svg.getAttribute("height"));
	svg.setAttribute("data-width", W);
	document.getElementById("title").setAttribute("x", width / 2);
	searchbtn.setAttribute("x", width - PAD);
	matchedtext.setAttribute("x", width - PAD);
}

function num(g, a) { return parseFloat(g.getAttribute(a)); }

// Put frame g at x (px from the left margin) with width w, and fit its label.
function place(g, x, w) {
	var r = g.querySelector("rect"), t = g.querySelector("text"), name = g.getAttribute("data-n");
	var fit = Math.floor((w - 6) / (FONT * CHAR));
	r.setAttribute("x", PAD + x);
	r.setAttribute("width", Math.max(w, 0));
	t.setAttribute("x", PAD + x + 3);
	t.textContent = fit < 3 ? "" : name.length <= fit ? name : name.substring(0, fit - 2) + "..";
	g.style.display = "";
}

function zoom(g) {
	var x0 = num(g, "data-x"), w0 = num(g, "data-w"), y0 = parseFloat(g.querySelector("rect").getAttribute("y"));
	var scale = W / w0, eps = 0.0001;
	if (g.classList.contains("root")) { unzoom(); return; }
	frames.forEach(function (e) {
		var ex = num(e, "data-x"), ew = num(e, "data-w"), ey = parseFloat(e.querySelector("rect").getAttribute("y"));
		e.classList.remove("parent");
		if (ey > y0) {	/* below: an ancestor spans it */
			if (ex <= x0 + eps && ex + ew >= x0 + w0 - eps) {
				place(e, 0, W);
				e.classList.add("parent");
			} else {
				e.style.display = "none";
			}
		} else if (ex >= x0 - eps && ex + ew <= x0 + w0 + eps) {
			place(e, (ex - x0) * scale, ew * scale);
		} else {
			e.style.display = "none";
		}
	});
	unzoombtn.classList.remove("hide");
	if (searching) search(searching);
}

function unzoom() {
	frames.forEach(function (e) {
		e.classList.remove("parent");
		place(e, num(e, "data-x"), num(e, "data-w"));
	});
	unzoombtn.classList.add("hide");
	if (searching) search(searching);
}

function search_prompt() {
	if (searching) { reset_search(); return; }
	var term = prompt("Enter a search term (regexp allowed, e.g. ^ext4_)", "");
	if (term) search(term);
}

function reset_search() {
	frames.forEach(function (e) {
		var r = e.querySelector("rect");
		r.setAttribute("fill", r.getAttribute("data-fill"));
		e.classList.remove("match");
	});
	searching = null;
	matchedtext.textContent = "";
	searchbtn.textContent = "Search";
}

// Paint the frames whose name matches the regexp term; return the share
// (0..1) of the total weight they hold, each x range counted once.
function search(term) {
	var re = new RegExp(term), spans = [], total = W, sum = 0, end = -1;
	reset_search();
	frames.forEach(function (e) {
		if (!re.test(e.getAttribute("data-n"))) return;
		e.querySelector("rect").setAttribute("fill", "rgb(230,0,230)");
		e.classList.add("match");
		spans.push([num(e, "data-x"), num(e, "data-w")]);
	});
	spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
	spans.forEach(function (s) {
		if (s[0] >= end) { sum += s[1]; end = s[0] + s[1]; }
		else if (s[0] + s[1] > end) { sum += s[0] + s[1] - end; end = s[0] + s[1]; }
	});
	searching = term;
	searchbtn.textContent = "Reset Search";
	matchedtext.textContent = spans.length ? "Matched: " + (100 * sum / total).toFixed(1) + "%" : "";
	return sum / total;
}

window.addEventListener("load", init);
