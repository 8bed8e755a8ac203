// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode's outputs: --flamegraph output (see flamegraph.h).
 *
 * The counted (event, stack) pairs are merged into a tree of frames (node
 * 0 the root, children in linked lists, looked up by name and kind), then
 * laid out depth first, children sorted by name, each frame's x the sum of
 * the widths of the siblings before it, and written as SVG with the script
 * of flamegraph.js.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "array.h"
#include "diff.h"
#include "duration.h"
#include "flamegraph.h"
#include "output.h"
#include "flamegraph.js.h"
#include "folded.h"
#include "format.h"
#include "kallsyms.h"

#define PAD		10	/* left and right margin, px */
#define TOP		64	/* title and buttons, the legend */
#define LEGEND_Y	44	/* the legend's baseline */
#define BOTTOM		36	/* details line */
#define FONT_SIZE	12
/*
 * A character of the label font is this many font sizes wide, on average
 * (flamegraph.pl's 0.59 for Verdana); flamegraph.js fits labels with the
 * same two numbers when it zooms.
 */
#define FONT_WIDTH	0.59

enum fg_kind {
	FG_ROOT, FG_EVENT, FG_LABEL, FG_KERNEL, FG_MODULE, FG_INLINED,
	FG_MARKER, FG_MERGED, FG_DIFF,
};

static const char *const kind_name[] = {
	[FG_ROOT] = "root", [FG_EVENT] = "event", [FG_LABEL] = "label",
	[FG_KERNEL] = "kernel",
	[FG_MODULE] = "module", [FG_INLINED] = "inlined",
	[FG_MARKER] = "marker", [FG_MERGED] = "merged", [FG_DIFF] = "frame",
};

struct fg_node {
	const char *name;	/* points into the symbolizer, the trace's
				 * handle, a static string, @hex or @own */
	char hex[20];		/* "0xADDR" of an address without symbol */
	char *own;		/* a root or diff frame's name (malloc'ed) */
	const char *mod;	/* a module's frame: the module (kallsyms) */
	enum fg_kind kind;
	sm_u64 weight;		/* the width; in a diff, the new weight */
	sm_u64 base;		/* in a diff, the base weight */
	size_t count;		/* events */
	int first, next;	/* first child, next sibling; -1: none */
};

struct fg_tree {
	struct fg_node *nodes;	/* [0] is the root */
	size_t nr, alloc;
	int max_depth;
	sm_u64 total;
	const char *unit;	/* what a weight is: "events", "bytes", ... */
	const char *counted;	/* what a count is: "events", "intervals" */
	bool weighted;
	bool merge;		/* --merge: no event frames */
	bool diff;		/* a differential graph (base and new) */
	sm_u64 max_delta;	/* in a diff: the largest |new - base| */
	double scale;		/* px per unit of weight */
	unsigned int drawn;	/* the kinds drawn (1 << fg_kind), for the
				 * legend */
	size_t selected;	/* events the filters selected; -1: unknown */
};

/* The child of @parent named @name of kind @kind, added when new; -1 nomem. */
static int child(struct fg_tree *t, int parent, const char *name,
		 enum fg_kind kind)
{
	struct fg_node *n;
	int i;

	for (i = t->nodes[parent].first; i >= 0; i = t->nodes[i].next)
		if (t->nodes[i].kind == kind && !strcmp(t->nodes[i].name, name))
			return i;
	if (sm_array_reserve(&t->nodes, &t->alloc, t->nr + 1, sizeof(*n), 1024))
		return -1;
	n = &t->nodes[t->nr];
	memset(n, 0, sizeof(*n));
	n->name = name;
	if (kind == FG_LABEL || kind == FG_DIFF) {
		n->name = n->own = strdup(name);
		if (!n->own)
			return -1;
	} else if (name[0] == '0' && name[1] == 'x') {
		snprintf(n->hex, sizeof(n->hex), "%s", name);
		n->name = n->hex;
	}
	n->kind = kind;
	n->first = -1;
	n->next = t->nodes[parent].first;
	t->nodes[parent].first = t->nr;
	return t->nr++;
}

/* Step from node *@at to its child (@name, @kind), adding @w and @c to it. */
static bool step(struct fg_tree *t, int *at, int depth, const char *name,
		 enum fg_kind kind, sm_u64 w, size_t c)
{
	int i = child(t, *at, name, kind);

	if (i < 0)
		return false;
	t->nodes[i].weight += w;
	t->nodes[i].count += c;
	if (depth > t->max_depth)
		t->max_depth = depth;
	*at = i;
	return true;
}

/* The frames of address @addr, outermost first, onto the path at *@at. */
static bool add_addr(struct fg_tree *t, const struct symbolizer *sz,
		     int *at, int *depth, sm_u64 addr, sm_u64 w, size_t c)
{
	struct sym_frame f[SYM_MAX_FRAMES];
	int n = symbolize_addr(sz, addr, true, f);
	const struct ksym *k;
	enum fg_kind kind;
	char hex[20];
	sm_u64 end;

	k = kallsyms_find(sz->ks, addr, &end);
	snprintf(hex, sizeof(hex), "0x%llx", (unsigned long long)addr);
	while (n-- > 0) {
		kind = f[n].inlined ? FG_INLINED :
		       k && k->mod ? FG_MODULE : FG_KERNEL;
		if (!step(t, at, ++*depth, f[n].name ? f[n].name : hex, kind,
			  w, c))
			return false;
		if (kind == FG_MODULE)
			t->nodes[*at].mod = k->mod;
	}
	return true;
}

/* The root frames of @e (folded_root()), root first, onto *@at. */
static bool add_roots(struct fg_tree *t, const struct symbolizer *sz,
		      struct sset_entry *e, int *at, int *depth, sm_u64 w,
		      size_t c)
{
	const char *root = folded_root(sz, e);
	char *copy, *rest, *part;
	bool ok = true;

	if (!root)
		return false;
	if (!*root)
		return true;
	rest = copy = strdup(root);
	if (!copy)
		return false;
	while (ok && (part = strsep(&rest, ";")))
		ok = step(t, at, ++*depth, part, FG_LABEL, w, c);
	free(copy);
	return ok;
}

/*
 * One (event, stack) pair: root, event (not with --merge), [root frames,]
 * [marker,] frames.
 */
static bool add_pair(struct fg_tree *t, const struct symbolizer *sz,
		     struct sset_entry *e, const char *event,
		     sm_u64 w, size_t c)
{
	int at = 0, depth = t->merge ? 0 : 1;
	sm_u32 i;

	t->nodes[0].weight += w;
	t->nodes[0].count += c;
	if ((!t->merge && !step(t, &at, depth, event, FG_EVENT, w, c)) ||
	    !add_roots(t, sz, e, &at, &depth, w, c))
		return false;
	if (e->status != SSET_FRAMES &&
	    !step(t, &at, ++depth, folded_marker(e->status), FG_MARKER, w, c))
		return false;
	for (i = e->depth; i-- > 0;)
		if (!add_addr(t, sz, &at, &depth, e->frames[i], w, c))
			return false;
	return true;
}

/* An empty tree: its root, "all". */
static int tree_init(struct fg_tree *t)
{
	t->alloc = 1024;
	t->nodes = calloc(t->alloc, sizeof(*t->nodes));
	if (!t->nodes)
		return -ENOMEM;
	t->nr = 1;
	t->nodes[0] = (struct fg_node){ .name = "all", .kind = FG_ROOT,
					.first = -1, .next = -1 };
	return 0;
}

static int build(struct fg_tree *t, const struct symbolizer *sz,
		 struct stackset *set)
{
	const struct sset_pair *pairs;
	struct tep_event *event;
	size_t i, n;

	if (tree_init(t))
		return -ENOMEM;
	pairs = sset_pairs(set, &n);
	for (i = 0; i < n; i++) {
		/* Orphans: carried by no event, weighing nothing. */
		if (SSET_IS_ORPHAN_ID(pairs[i].event_id) || !pairs[i].weight)
			continue;
		event = tep_find_event(sz->tep, pairs[i].event_id);
		if (!add_pair(t, sz, sset_entry_at(set, pairs[i].stack_id),
			      event ? event->name : "(unknown)",
			      pairs[i].weight, pairs[i].count))
			return -ENOMEM;
	}
	t->total = t->nodes[0].weight;
	return 0;
}

/* ---- SVG ---- */

/* The XML entity of @c, or NULL when @c stands for itself. */
static const char *xml_entity(char c)
{
	switch (c) {
	case '<':
		return "&lt;";
	case '>':
		return "&gt;";
	case '&':
		return "&amp;";
	case '"':
		return "&quot;";
	case '\'':
		return "&apos;";
	}
	return NULL;
}

/* @s with XML's five special characters escaped. */
static void put_xml(FILE *out, const char *s)
{
	const char *e;

	for (; *s; s++) {
		e = xml_entity(*s);
		if (e)
			fputs(e, out);
		else
			fputc(*s, out);
	}
}

/*
 * fgdiff_foreach(): the folded stack @stack ("EVENT;outermost;...") under
 * the root, its new weight the width.  Return: 0 or -ENOMEM.
 */
static int add_diff(void *ctx, const char *stack, long long base,
		    long long new)
{
	struct fg_tree *t = ctx;
	char *copy = strdup(stack), *rest = copy, *part;
	int at = 0, depth = 0, i;

	if (!copy)
		return -ENOMEM;
	t->nodes[0].weight += new;
	t->nodes[0].base += base;
	while ((part = strsep(&rest, ";"))) {
		i = child(t, at, part, FG_DIFF);
		if (i < 0)
			break;
		t->nodes[i].weight += new;
		t->nodes[i].base += base;
		if (++depth > t->max_depth)
			t->max_depth = depth;
		at = i;
	}
	free(copy);
	return part ? -ENOMEM : 0;
}

static int build_diff(struct fg_tree *t, const struct fgdiff *d,
		      bool normalize)
{
	long long delta;
	size_t i;
	int ret;

	if (tree_init(t))
		return -ENOMEM;
	ret = fgdiff_foreach(d, normalize, add_diff, t);
	for (i = 1; !ret && i < t->nr; i++) {
		delta = (long long)(t->nodes[i].weight - t->nodes[i].base);
		if ((sm_u64)llabs(delta) > t->max_delta)
			t->max_delta = llabs(delta);
	}
	t->total = t->nodes[0].weight;
	return ret;
}

/* FNV-1a of @s, cut into three shades in [0, 1). */
static void shades(const char *s, double v[3])
{
	sm_u64 h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	v[0] = (h & 0xffff) / 65536.0;
	v[1] = ((h >> 16) & 0xffff) / 65536.0;
	v[2] = ((h >> 32) & 0xffff) / 65536.0;
}

/*
 * The fill of a frame in a diff: red for growth, blue for shrinkage, the
 * deeper the more it changed (against the largest change), white unchanged.
 */
static void put_diff_fill(FILE *out, const struct fg_tree *t,
			  const struct fg_node *n)
{
	long long delta = (long long)(n->weight - n->base);
	double ratio = t->max_delta ? (double)llabs(delta) / t->max_delta : 0;
	int c = 250 - (int)(200 * ratio);

	if (n->kind == FG_ROOT || n->kind == FG_MERGED || !delta)
		fprintf(out, "rgb(%d,%d,%d)", 245, 245, 245);
	else if (delta > 0)
		fprintf(out, "rgb(255,%d,%d)", c, c);
	else
		fprintf(out, "rgb(%d,%d,255)", c, c);
}

/*
 * The hue of each kind: channel = base + span * shade[which], the shades
 * coming from the name (flamegraph.pl's palettes for the first three).
 * Kinds without one (the root, merged frames) are light grey.
 */
static const struct fg_hue {
	int base[3], span[3], which[3];
} hues[] = {
	[FG_KERNEL] = { { 205, 0, 0 }, { 50, 230, 55 }, { 2, 0, 1 } },	/* hot */
	[FG_MODULE] = { { 50, 165, 165 }, { 60, 55, 55 }, { 0, 0, 0 } },	/* aqua */
	[FG_INLINED] = { { 50, 200, 50 }, { 60, 55, 60 }, { 1, 0, 1 } },	/* green */
	[FG_MARKER] = { { 150, 150, 150 }, { 40, 40, 40 }, { 0, 0, 0 } },
	[FG_EVENT] = { { 180, 110, 220 }, { 40, 40, 35 }, { 0, 0, 0 } },
	[FG_LABEL] = { { 120, 150, 230 }, { 40, 40, 25 }, { 0, 0, 0 } },
};

/* The fill of a frame: the hue of its kind, the shade of its name. */
static void put_fill(FILE *out, const struct fg_tree *t,
		     const struct fg_node *n)
{
	const struct fg_hue *h = n->kind < sizeof(hues) / sizeof(hues[0]) ?
				 &hues[n->kind] : NULL;
	int c[3] = { 220, 220, 220 }, i;
	double v[3];

	if (t->diff) {
		put_diff_fill(out, t, n);
		return;
	}
	shades(n->name, v);
	for (i = 0; h && h->base[0] && i < 3; i++)
		c[i] = h->base[i] + h->span[i] * v[h->which[i]];
	fprintf(out, "rgb(%d,%d,%d)", c[0], c[1], c[2]);
}

/*
 * "NAME: W UNIT, P%[, N events]" for the tooltip (in ns "2.95 s (2948778451
 * ns)", and --off-cpu counts intervals); in a diff "NAME: W UNIT, P% (base
 * B, +C)".
 */
static void put_tooltip(FILE *out, const struct fg_tree *t,
			const struct fg_node *n)
{
	const char *bare = format_bare_unit(t->unit);
	char w[FORMAT_WEIGHT_LEN], c[FORMAT_WEIGHT_LEN];

	put_xml(out, n->name);
	fputs(": ", out);
	put_xml(out, format_weight(w, n->weight, t->unit));
	fprintf(out, ", %.2f%%",
		t->total ? 100.0 * n->weight / t->total : 0.0);
	if (t->diff)
		fprintf(out, " (base %s, %s)", format_weight(w, n->base, bare),
			format_change(c, (long long)(n->weight - n->base),
				      bare));
	else if (t->weighted)
		format_count(out, ", ", n->count, t->counted);
	if (n->kind == FG_INLINED)
		fputs(" (inlined)", out);
	else if (n->kind == FG_MODULE && n->mod) {
		fputs(" [", out);
		put_xml(out, n->mod);
		fputc(']', out);
	}
}

/*
 * The label of a frame @w px wide, as flamegraph.pl and flamegraph.js fit
 * it: the name, cut to what fits with ".." after it, or nothing when fewer
 * than 3 characters would fit.
 */
static void put_label(FILE *out, const char *name, double w)
{
	int fit = (int)((w - 6) / (FONT_SIZE * FONT_WIDTH));
	size_t len = strlen(name), i;
	const char *e;

	if (fit < 3)
		return;
	if (len > (size_t)fit)
		len = fit - 2;
	for (i = 0; i < len; i++) {
		e = xml_entity(name[i]);
		if (e)
			fputs(e, out);
		else
			fputc(name[i], out);
	}
	if (len < strlen(name))
		fputs("..", out);
}

static void put_frame(FILE *out, struct fg_tree *t,
		      const struct fg_node *n, double x, double w, int depth)
{
	int y = TOP + (t->max_depth - depth) * FLAMEGRAPH_FRAME_HEIGHT;
	char ws[32];

	/* The width flamegraph.js reads back, so that both fit one label. */
	snprintf(ws, sizeof(ws), "%.3f", w);
	w = strtod(ws, NULL);
	fprintf(out, "<g class=\"f %s%s\" data-x=\"%.3f\" data-w=\"%s\" data-n=\"",
		kind_name[n->kind], n->kind == FG_ROOT ? " root" : "", x, ws);
	put_xml(out, n->name);
	fputs("\"><title>", out);
	put_tooltip(out, t, n);
	fprintf(out, "</title><rect x=\"%.3f\" y=\"%d\" width=\"%s\" height=\"%d\" rx=\"2\" fill=\"",
		PAD + x, y, ws, FLAMEGRAPH_FRAME_HEIGHT - 1);
	put_fill(out, t, n);
	fputs("\" data-fill=\"", out);
	put_fill(out, t, n);
	fprintf(out, "\"/><text x=\"%.3f\" y=\"%d\">", PAD + x + 3,
		y + FLAMEGRAPH_FRAME_HEIGHT - 4);
	put_label(out, n->name, w);
	fputs("</text></g>\n", out);
	t->drawn |= 1u << n->kind;
}

static int cmp_child(const void *a, const void *b, void *nodes)
{
	const struct fg_node *n = nodes;
	const struct fg_node *x = &n[*(const int *)a], *y = &n[*(const int *)b];
	int c = strcmp(x->name, y->name);

	return c ? c : (int)x->kind - (int)y->kind;
}

/*
 * Node @i at @x px (full scale) and @depth, then its children sorted by
 * name, those narrower than FLAMEGRAPH_MIN_WIDTH merged into one frame
 * after the others.  Return: 0 or -ENOMEM.
 */
static int put_tree(FILE *out, struct fg_tree *t, int i, double x, int depth)
{
	struct fg_node merged = { .kind = FG_MERGED };
	int *kids, c, nr = 0, k, nr_merged = 0, ret = 0;
	char name[48];

	put_frame(out, t, &t->nodes[i], x, t->nodes[i].weight * t->scale,
		  depth);
	for (c = t->nodes[i].first; c >= 0; c = t->nodes[c].next)
		nr++;
	if (!nr)
		return 0;
	kids = malloc(nr * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	for (k = 0, c = t->nodes[i].first; c >= 0; c = t->nodes[c].next)
		kids[k++] = c;
	qsort_r(kids, nr, sizeof(*kids), cmp_child, t->nodes);
	for (k = 0; k < nr && !ret; k++) {
		struct fg_node *n = &t->nodes[kids[k]];

		if (n->weight * t->scale < FLAMEGRAPH_MIN_WIDTH) {
			merged.weight += n->weight;
			merged.base += n->base;
			merged.count += n->count;
			nr_merged++;
			continue;
		}
		ret = put_tree(out, t, kids[k], x, depth + 1);
		x += n->weight * t->scale;
	}
	if (!ret && merged.weight * t->scale >= FLAMEGRAPH_MIN_WIDTH) {
		snprintf(name, sizeof(name), "[%d frames]", nr_merged);
		merged.name = name;
		put_frame(out, t, &merged, x, merged.weight * t->scale,
			  depth + 1);
	}
	free(kids);
	return ret;
}

static const char svg_style[] =
	"<style>\n"
	"text { font-family: Verdana, sans-serif; font-size: 12px; fill: rgb(0,0,0); }\n"
	"g.f text { pointer-events: none; }\n"
	"g.f:hover rect { stroke: rgb(0,0,0); stroke-width: 0.5; cursor: pointer; }\n"
	"g.parent { opacity: 0.5; }\n"
	".button { cursor: pointer; fill: rgb(0,0,160); }\n"
	".hide { display: none; }\n"
	"#title { font-size: 17px; }\n"
	"#legend text { font-size: 11px; }\n"
	"</style>\n";

/*
 * After the title, what the graph holds: " (2428 events with a stack, of
 * 2569)", " (409600 bytes over 2428 events with a stack, of 2569)", in ns
 * the time for people too " (2.95 s, 2948778451 ns over 812 intervals)";
 * a diff's " (302400 bytes)".  "of M": the events the filters selected,
 * with a stack or not.
 */
static void put_title_counts(FILE *out, const struct fg_tree *t)
{
	bool events = !strcmp(t->counted ? t->counted : "", "events");
	char d[SM_DURATION_LEN];

	fputs(" (", out);
	if (!strcmp(t->unit, "ns"))
		fprintf(out, "%s, ", sm_duration(d, t->total));
	if (t->diff || t->weighted)
		fprintf(out, "%llu %s", (unsigned long long)t->total, t->unit);
	if (!t->diff) {
		format_count(out, t->weighted ? " over " : "",
			     t->nodes[0].count, t->counted);
		if (events)
			fputs(" with a stack", out);
		if (events && t->selected != (size_t)-1)
			fprintf(out, ", of %zu", t->selected);
	}
	fputc(')', out);
}

static void put_header(FILE *out, const struct fg_tree *t, const char *title,
		       int height)
{
	fprintf(out, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" data-width=\"%d\">\n",
		FLAMEGRAPH_WIDTH, height, FLAMEGRAPH_WIDTH, height,
		FLAMEGRAPH_WIDTH - 2 * PAD);
	fputs(svg_style, out);
	fputs("<script><![CDATA[\n", out);
	fputs(flamegraph_js, out);
	fputs("]]></script>\n", out);
	fprintf(out, "<rect width=\"100%%\" height=\"100%%\" fill=\"rgb(245,245,240)\"/>\n"
		"<text id=\"title\" x=\"%d\" y=\"24\" text-anchor=\"middle\">",
		FLAMEGRAPH_WIDTH / 2);
	put_xml(out, title);
	put_title_counts(out, t);
	fputs("</text>\n", out);
	fprintf(out, "<text id=\"unzoom\" class=\"button hide\" x=\"%d\" y=\"24\">Reset Zoom</text>\n"
		"<text id=\"search\" class=\"button\" x=\"%d\" y=\"24\" text-anchor=\"end\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\" text-anchor=\"end\"></text>\n",
		PAD, FLAMEGRAPH_WIDTH - PAD, PAD, height - 12,
		FLAMEGRAPH_WIDTH - PAD, height - 12);
}

/* What each colour of the legend stands for, in the order shown. */
static const struct {
	enum fg_kind kind;
	const char *what;
} legend[] = {
	{ FG_EVENT, "event" },
	{ FG_LABEL, "task or state" },
	{ FG_KERNEL, "kernel function" },
	{ FG_MODULE, "module function" },
	{ FG_INLINED, "inlined" },
	{ FG_MARKER, "unresolved or truncated" },
	{ FG_MERGED, "narrow frames merged" },
};

/* One swatch of the legend at *@x, its label after it. */
static void put_swatch(FILE *out, double *x, const char *fill,
		       const char *what)
{
	fprintf(out, "<rect x=\"%.1f\" y=\"%d\" width=\"10\" height=\"10\" rx=\"2\" fill=\"%s\"/>"
		"<text x=\"%.1f\" y=\"%d\">%s</text>\n",
		*x, LEGEND_Y - 9, fill, *x + 14, LEGEND_Y, what);
	*x += 14 + strlen(what) * 11 * FONT_WIDTH + 12;
}

/*
 * The legend under the title: a swatch of each kind of frame drawn, in a
 * shade of its hue; in a diff, the colours of growth and shrinkage.
 */
static void put_legend(FILE *out, const struct fg_tree *t)
{
	double x = PAD;
	char fill[32];
	size_t i;
	FILE *f;

	fputs("<g id=\"legend\">\n", out);
	if (t->diff) {
		put_swatch(out, &x, "rgb(255,50,50)", "grew");
		put_swatch(out, &x, "rgb(50,50,255)", "shrank");
		put_swatch(out, &x, "rgb(245,245,245)", "unchanged");
	}
	for (i = 0; !t->diff && i < sizeof(legend) / sizeof(legend[0]); i++) {
		if (!(t->drawn & 1u << legend[i].kind))
			continue;
		f = fmemopen(fill, sizeof(fill), "w");
		if (!f)
			continue;
		put_fill(f, t, &(struct fg_node){ .name = legend[i].what,
						  .kind = legend[i].kind });
		fclose(f);
		put_swatch(out, &x, fill, legend[i].what);
	}
	fputs("</g>\n", out);
}

static void free_tree(struct fg_tree *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		free(t->nodes[i].own);
	free(t->nodes);
}

/* Write the built tree @t (freed here) to @path. */
static int write_svg(struct fg_tree *t, int ret, const char *path,
		     const char *title, struct sm_err *err)
{
	bool to_stdout = !strcmp(path, "-");
	FILE *out;
	int height;

	if (ret) {
		free_tree(t);
		sm_err_set(err, "%s: out of memory", path);
		return ret;
	}
	t->scale = t->total ? (double)(FLAMEGRAPH_WIDTH - 2 * PAD) / t->total : 0;
	height = TOP + (t->max_depth + 1) * FLAMEGRAPH_FRAME_HEIGHT + BOTTOM;
	out = to_stdout ? stdout : fopen(path, "w");
	if (!out) {
		free_tree(t);
		sm_err_set(err, "%s: cannot open for writing: %s", path,
			   strerror(errno));
		return -EIO;
	}
	put_header(out, t, title, height);
	ret = put_tree(out, t, 0, 0, 0);
	put_legend(out, t);
	fputs("</svg>\n", out);
	free_tree(t);
	if (ret)
		sm_err_set(err, "%s: out of memory", path);
	if (fflush(out) || ferror(out))
		ret = ret ?: -EIO;
	if (!to_stdout && fclose(out))
		ret = ret ?: -EIO;
	if (ret == -EIO)
		sm_err_set(err, "%s: cannot write the flame graph", path);
	return ret;
}

int flamegraph_write(const char *path, const struct symbolizer *sz,
		     struct stackset *set, bool merge, const char *title,
		     size_t selected, struct sm_err *err)
{
	struct fg_tree t = { .weighted = sset_weighted(set), .merge = merge,
			     .selected = selected };

	t.unit = !t.weighted ? "events" : *sset_weight_unit(set) ?
		 sset_weight_unit(set) : sset_weight_name(set);
	t.counted = sset_count_name(set);
	return write_svg(&t, build(&t, sz, set), path, title, err);
}

int flamegraph_write_diff(const char *path, const struct fgdiff *d,
			  bool normalize, const char *unit, const char *title,
			  struct sm_err *err)
{
	struct fg_tree t = { .diff = true, .unit = unit,
			     .selected = (size_t)-1 };

	return write_svg(&t, build_diff(&t, d, normalize), path, title, err);
}

/* fgdecode report --flamegraph FILE: the counted stacks, titled by the trace. */
static int flamegraph_end(void *state, const struct output_env *env,
			  sm_u64 span_ns)
{
	struct sm_err err;

	(void)state;
	(void)span_ns;
	return output_failed(flamegraph_write(env->args->arg, env->sz,
					      env->set, env->args->merge,
					      env->path, *env->selected, &err),
			     env->args->arg, &err);
}

const struct output_ops flamegraph_output = {
	.option = "flamegraph",
	.arg = "FILE",
	.help = "  --flamegraph FILE  an interactive SVG flame graph of the stacks (zoom on\n"
		"                  click, search); FILE - is standard output\n",
	.flags = OUTPUT_WEIGHS | OUTPUT_OFF_CPU | OUTPUT_MERGES |
		 OUTPUT_WRITES_ARG | OUTPUT_STACKS_ONLY,
	.end = flamegraph_end,
};
