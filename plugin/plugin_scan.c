// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_stackmap: every stack_define of the trace.dat, read once from its
 * pages (lib/tracedat_pages.h, each read with libtraceevent's kbuffer as
 * libtracecmd's trace-input.c reads them) the first time a cookie does not
 * resolve from the definitions printed before it.  In a flight recorder a
 * cookie can outlive the definition written before it while the module
 * wrote it again later (re-definitions, stackmap(7) redefine_pct): fgdecode
 * reads every definition before it prints anything, and so the plugin finds
 * the same stacks.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <kbuffer.h>

#include "plugin_stackmap.h"
#include "stackmap/events.h"
#include "tracedat_pages.h"

/* One scan: where the definitions go and what could not be read. */
struct scan {
	struct stackmap_ctx *ctx;
	struct kbuffer *kbuf;
	struct tep_event *define;
	unsigned int pages_bad;		/* pages kbuffer would not load */
	unsigned int defines_bad;	/* definitions whose fields did not read */
	struct sm_err first_bad;	/* why the first of those did not */
};

/*
 * A stack_define record of the file into ctx->later; a second stack for a
 * cookie makes it conflicting there, as in fgdecode.
 */
static void scan_define(struct scan *sc, struct tep_record *rec)
{
	struct define_record d;
	struct sm_err err;

	if (read_define(sc->ctx, sc->define, rec, sc->ctx->later, &d, &err) &&
	    !sc->defines_bad++)
		sc->first_bad = err;
}

/* stackmap_page_fn: the stack_define records of one page. */
static int scan_page(const char *buffer, unsigned int cpu, const void *page,
		     unsigned int size, void *arg)
{
	struct scan *sc = arg;
	struct tep_record rec = { .cpu = (int)cpu };
	unsigned long long ts;
	void *data;

	(void)buffer;
	(void)size;
	if (kbuffer_load_subbuffer(sc->kbuf, (void *)page) < 0) {
		sc->pages_bad++;
		return 0;
	}
	for (data = kbuffer_read_event(sc->kbuf, &ts); data;
	     data = kbuffer_next_event(sc->kbuf, &ts)) {
		rec.ts = ts;
		rec.data = data;
		rec.size = kbuffer_event_size(sc->kbuf);
		if (tep_data_type(sc->ctx->tep, &rec) == sc->define->id)
			scan_define(sc, &rec);
	}
	return 0;
}

/* A kbuffer for the file's pages: its byte order and commit size. */
static struct kbuffer *file_kbuffer(struct tep_handle *tep)
{
	struct kbuffer *kbuf;

	kbuf = kbuffer_alloc(tep_get_header_page_size(tep) == 8 ?
			     KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			     tep_is_file_bigendian(tep) ?
			     KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (kbuf && tep_is_old_format(tep))
		kbuffer_set_old_format(kbuf);
	return kbuf;
}

/* What a scan could not read, one line each, on stderr. */
static void scan_report(const struct scan *sc, const char *path)
{
	if (sc->pages_bad)
		fprintf(stderr, "plugin_stackmap: %s: %u pages not readable (their definitions not looked for)\n",
			path, sc->pages_bad);
	if (sc->defines_bad)
		fprintf(stderr, "plugin_stackmap: %s: %u definitions not readable, the first: %s\n",
			path, sc->defines_bad, sc->first_bad.msg);
}

void scan_definitions(struct stackmap_ctx *ctx)
{
	struct scan sc = { .ctx = ctx };
	struct sm_err err;
	bool named;
	char *path;
	int ret;

	ctx->later_state = SNAP_NONE;
	if (!OPT_SET(OPT_SCAN))
		return;
	sc.define = tep_find_event_by_name(ctx->tep, STACKMAP_SYSTEM,
					   STACKMAP_EVENT_DEFINE);
	if (!sc.define)
		return;
	path = trace_file(&named);
	if (!path)
		return;
	ctx->later = stacktab_new();
	sc.kbuf = file_kbuffer(ctx->tep);
	if (!ctx->later || !sc.kbuf) {
		fprintf(stderr, "plugin_stackmap: %s: out of memory (definitions later in the file not read)\n",
			path);
		ret = 0;
	} else {
		ret = stackmap_tracedat_pages(path, scan_page, &sc, &err);
	}
	if (ret && (ret != -ENOENT || named))
		fprintf(stderr, "plugin_stackmap: %s (definitions later in the file not read)\n",
			err.msg);
	scan_report(&sc, path);
	if (sc.kbuf)
		kbuffer_free(sc.kbuf);
	if (ctx->later)
		ctx->later_state = SNAP_LOADED;
	free(path);
}
