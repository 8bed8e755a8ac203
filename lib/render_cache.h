/* SPDX-License-Identifier: GPL-2.0 */
/*
 * render_cache: print a text once rendered, copied afterwards.  The one
 * render-once cache of the plugin (a stack's "=> " lines, kept with the
 * cookie's stack in its stacktab) and of fgdecode (each distinct stack's
 * text and JSON, kept in its stackset entry): symbolizing a stack's frames
 * again for every event that carries it is most of what printing a stack
 * costs.
 */
#ifndef LIBSTACKMAP_RENDER_CACHE_H
#define LIBSTACKMAP_RENDER_CACHE_H

struct trace_seq;

/* Writes the text into @out, from @ctx. */
typedef void (*sm_render_fn)(struct trace_seq *out, const void *ctx);

/**
 * sm_render_once() - append a text to @s, rendered once into @cache
 * @s: output
 * @cache: where the text is kept (a malloc'ed string, NULL until the first
 *	call; the owner frees it), or NULL to render every time
 * @render: writes the text
 * @ctx: passed to @render
 *
 * The first call renders the text, appends it and keeps a copy in *@cache
 * (unless the rendering failed in its trace_seq); later calls append the
 * copy.
 *
 * Return: 0, or -ENOMEM when no copy could be kept (the text is appended
 * anyway, and rendered again next time).
 */
int sm_render_once(struct trace_seq *s, char **cache, sm_render_fn render,
		   const void *ctx);

#endif /* LIBSTACKMAP_RENDER_CACHE_H */
