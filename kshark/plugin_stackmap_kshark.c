// SPDX-License-Identifier: GPL-2.0
/*
 * plugin-stackmap.so for KernelShark 2.x: the data side (libkshark's plugin
 * API, libkshark-plugin.h; its own sched_events and latency_plot plugins
 * are the models).  The panel that shows a selected event's stack is
 * StackPanel.cpp.
 *
 * For each trace.dat (data stream) the plugin is enabled on, it registers
 * an event handler for every event of the stream: libkshark calls it for
 * each record while it loads the file, and kss (kss.h) notes the record.
 * The stacks are paired and resolved on the first question, once every
 * definition of the file is known (as fgdecode does).  A draw handler keeps
 * the model KernelShark plots (its data array is the rows of the list view,
 * which the panel turns into entries).
 */
#include <stdlib.h>

#include "libkshark.h"
#include "libkshark-model.h"
#include "libkshark-plugin.h"
#include "libkshark-tepdata.h"

#include "stackmap/version.h"
#include "kss.h"
#include "stackmap_kshark.h"

#define KS_EXPORT	__attribute__((visibility("default")))

/* The version the plugin was built from, as plugin_stackmap.so has it. */
KS_EXPORT const char stackmap_kshark_plugin_version[] =
	"stackmap kernelshark plugin " STACKMAP_VERSION;

struct stackmap_kshark_ctx {
	struct kss *kss;
	int *ids;		/* the event ids a handler is registered for */
	int nr_ids;
};

static void free_ctx(struct stackmap_kshark_ctx *ctx)
{
	if (!ctx)
		return;
	kss_free(ctx->kss);
	free(ctx->ids);
	free(ctx);
}

/* __init(), __get_context(), __close(): one context per stream. */
KS_DEFINE_PLUGIN_CONTEXT(struct stackmap_kshark_ctx, free_ctx);

static struct kshark_trace_histo *last_histo;

static void on_record(struct kshark_data_stream *stream, void *rec,
		      struct kshark_entry *entry)
{
	struct stackmap_kshark_ctx *ctx = __get_context(stream->stream_id);

	(void)entry;
	if (ctx && rec)
		kss_add(ctx->kss, rec);
}

/* Draws nothing: keeps the model whose data are the list view's rows. */
static void on_draw(struct kshark_cpp_argv *argv, int sd, int val,
		    int draw_action)
{
	(void)sd;
	(void)val;
	(void)draw_action;
	if (argv && argv->histo)
		last_histo = argv->histo;
}

/** Enable the plugin on @stream: 1 on success, 0 when it does not apply. */
KS_EXPORT int KSHARK_PLOT_PLUGIN_INITIALIZER(struct kshark_data_stream *stream)
{
	struct stackmap_kshark_ctx *ctx;
	int i;

	if (!kshark_is_tep(stream))
		return 0;
	ctx = __init(stream->stream_id);
	if (!ctx)
		return 0;
	ctx->kss = kss_new(kshark_get_tep(stream), stream->file);
	ctx->ids = kshark_get_all_event_ids(stream);
	if (!ctx->kss || !ctx->ids) {
		__close(stream->stream_id);
		return 0;
	}
	ctx->nr_ids = stream->n_events;
	for (i = 0; i < ctx->nr_ids; i++)
		kshark_register_event_handler(stream, ctx->ids[i], on_record);
	kshark_register_draw_handler(stream, on_draw);
	return 1;
}

/** Disable the plugin on @stream. */
KS_EXPORT int KSHARK_PLOT_PLUGIN_DEINITIALIZER(struct kshark_data_stream *stream)
{
	struct stackmap_kshark_ctx *ctx = __get_context(stream->stream_id);
	int i;

	if (!ctx)
		return 0;
	for (i = 0; i < ctx->nr_ids; i++)
		kshark_unregister_event_handler(stream, ctx->ids[i], on_record);
	kshark_unregister_draw_handler(stream, on_draw);
	__close(stream->stream_id);
	last_histo = NULL;
	return 1;
}

const struct kshark_entry *stackmap_kshark_row(size_t row)
{
	if (!last_histo || row >= last_histo->data_size)
		return NULL;
	return last_histo->data[row];
}

char *stackmap_kshark_text(const struct kshark_entry *e)
{
	struct stackmap_kshark_ctx *ctx = __get_context(e->stream_id);

	return ctx ? kss_text(ctx->kss, (sm_u64)e->offset) : NULL;
}

int stackmap_kshark_enabled(int sd)
{
	return __get_context(sd) != NULL;
}
