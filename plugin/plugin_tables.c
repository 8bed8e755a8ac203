// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: the stacks a cookie is resolved from besides the
 * definitions printed before it: those later in the file (plugin_scan.c),
 * the map snapshot stored in the trace and the stack_map option's listing,
 * each loaded on first need, the last two used only while they are of the
 * trace's map (map_id.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "listing.h"
#include "plugin_stackmap.h"
#include "snapshot_table.h"
#include "tracedat_options.h"

/*
 * Load the snapshot into ctx->snap, once.  A missing snapshot is silent when
 * the file was guessed; every other problem is one line on stderr.
 */
static void load_snapshot(struct stackmap_ctx *ctx)
{
	struct stackmap_snapshot snap;
	struct sm_err err;
	bool named;
	char *path;
	int ret;

	ctx->snap_state = SNAP_NONE;
	if (!OPT_SET(OPT_SNAPSHOT))
		return;
	path = trace_file(&named);
	if (!path)
		return;
	ret = stackmap_snapshot_read_tracedat(path, &snap, &err);
	if (ret) {
		if (ret != -ENOENT || named)
			fprintf(stderr, "plugin_stackmap: %s\n", err.msg);
		free(path);
		return;
	}
	if (stackmap_map_id_check(&ctx->map_ids, 0, "map snapshot",
				  snap.map_id, &err)) {
		fprintf(stderr, "plugin_stackmap: %s: %s (not used)\n", path,
			err.msg);
		stackmap_snapshot_free(&snap);
		free(path);
		return;
	}
	ctx->snap = stackmap_snapshot_table(&snap, &ret);
	if (!ctx->snap)
		fprintf(stderr, "plugin_stackmap: %s: snapshot not usable (out of memory or a slot listed twice)\n",
			path);
	else
		ctx->snap_state = SNAP_LOADED;
	ctx->snap_map_id = snap.map_id;
	stackmap_snapshot_free(&snap);
	free(path);
}

/* Load the stack_map option's listing into ctx->listing, once. */
static void load_listing(struct stackmap_ctx *ctx)
{
	const char *opt = TEP_PLUGIN_OPTIONS[OPT_STACK_MAP].value;
	const char *path = opt && !strcmp(opt, "live") ? LIVE_STACK_MAP : opt;
	struct stackmap_snapshot snap;
	struct sm_err err;
	FILE *f;
	int ret;

	ctx->listing_state = SNAP_NONE;
	if (!path || !*path)
		return;
	f = fopen(path, "r");
	if (!f) {
		fprintf(stderr, "plugin_stackmap: %s: %s\n", path, strerror(errno));
		return;
	}
	ret = stackmap_snapshot_parse_listing(f, path, 8, &snap, &err);
	fclose(f);
	if (!ret)
		ret = stackmap_map_id_check(&ctx->map_ids, ctx->snap_map_id,
					    path, snap.map_id, &err);
	if (ret) {
		fprintf(stderr, "plugin_stackmap: %s\n", err.msg);
		if (ret == -ESTALE)
			stackmap_snapshot_free(&snap);
		return;
	}
	ctx->listing_map_id = snap.map_id;
	ctx->listing = stackmap_snapshot_table(&snap, &ret);
	if (!ctx->listing)
		fprintf(stderr, "plugin_stackmap: %s: listing not usable (out of memory or a slot listed twice)\n",
			path);
	else
		ctx->listing_state = SNAP_LOADED;
	stackmap_snapshot_free(&snap);
}

/*
 * A definition of map @id: a snapshot or listing loaded already that is of
 * another map stops resolving cookies from then on (one line on stderr).
 */
void note_map_id(struct stackmap_ctx *ctx, sm_u64 id)
{
	unsigned int nr = ctx->map_ids.nr;
	struct sm_err err;

	stackmap_map_ids_add(&ctx->map_ids, id);
	if (ctx->map_ids.nr == nr)
		return;
	if (ctx->snap && stackmap_map_id_check(&ctx->map_ids, 0, "map snapshot",
					       ctx->snap_map_id, &err)) {
		fprintf(stderr, "plugin_stackmap: %s (no longer used)\n", err.msg);
		stacktab_free(ctx->snap);
		ctx->snap = NULL;
		ctx->snap_state = SNAP_NONE;
	}
	if (ctx->listing &&
	    stackmap_map_id_check(&ctx->map_ids, 0, TEP_PLUGIN_OPTIONS[OPT_STACK_MAP].value,
				  ctx->listing_map_id, &err)) {
		fprintf(stderr, "plugin_stackmap: %s (no longer used)\n", err.msg);
		stacktab_free(ctx->listing);
		ctx->listing = NULL;
		ctx->listing_state = SNAP_NONE;
	}
}

/*
 * Resolve @cookie: the definitions printed before it, then every definition
 * of the file (plugin_scan.c) and the snapshot by the rule fgdecode applies
 * (stackmap_snapshot_resolve(), the file's definitions first), then the
 * stack_map option's listing (each loaded on need), each for exactly the
 * same generation and slot; "stale" from a later source only where the
 * earlier ones know nothing of the slot.  A definition printed before the
 * cookie wins over a conflicting one later in the file.
 */
enum stacktab_result resolve(struct stackmap_ctx *ctx, sm_u64 cookie,
			     struct stacktab_stack *out)
{
	enum stacktab_result printed, res, lres;

	printed = stacktab_lookup(ctx->tab, cookie, out);
	if (printed == STACKTAB_FOUND || printed == STACKTAB_CONFLICT)
		return printed;
	if (ctx->later_state == SNAP_UNTRIED)
		scan_definitions(ctx);
	if (ctx->snap_state == SNAP_UNTRIED)
		load_snapshot(ctx);
	res = stackmap_snapshot_resolve(ctx->later ? ctx->later : ctx->tab,
					ctx->snap, cookie, out, NULL);
	if (res == STACKTAB_FOUND || res == STACKTAB_CONFLICT)
		return res;
	/* A scan that stopped early may not hold a slot printed already. */
	if (res == STACKTAB_UNKNOWN)
		res = printed;
	if (ctx->listing_state == SNAP_UNTRIED)
		load_listing(ctx);
	if (!ctx->listing)
		return res;
	lres = stacktab_lookup(ctx->listing, cookie, out);
	if (lres == STACKTAB_FOUND ||
	    (lres == STACKTAB_STALE && res == STACKTAB_UNKNOWN))
		return lres;
	return res;
}
