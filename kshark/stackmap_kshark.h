/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the plugin's data side (plugin_stackmap_kshark.c, C) gives its panel
 * (StackPanel.cpp, C++/Qt).
 */
#ifndef STACKMAP_KSHARK_H
#define STACKMAP_KSHARK_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

struct kshark_entry;

/**
 * stackmap_kshark_row() - the entry of row @row of KernelShark's list view
 * (its "#" column), from the model KernelShark last plotted
 *
 * Return: the entry, or NULL when no model was plotted yet or @row is past
 * its end.
 */
const struct kshark_entry *stackmap_kshark_row(size_t row);

/**
 * stackmap_kshark_text() - the stack of @e as text (kss_text())
 *
 * Return: a malloc'ed text, or NULL when the plugin is not enabled on
 * @e's stream (or out of memory).
 */
char *stackmap_kshark_text(const struct kshark_entry *e);

/** stackmap_kshark_enabled() - is the plugin enabled on stream @sd? */
int stackmap_kshark_enabled(int sd);

#ifdef __cplusplus
}
#endif

#endif /* STACKMAP_KSHARK_H */
