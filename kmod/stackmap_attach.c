// SPDX-License-Identifier: GPL-2.0
/*
 * Attaching stackmap to tracepoints by "system:event" name.  The probe is
 * registered below the default priority so that it runs after the event's
 * own probe, and stack_cookie lands right after the event it belongs to on
 * the same CPU.
 */
#include <linux/kallsyms.h>
#include <linux/list.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/tracepoint.h>

#include "stackmap.h"

#define SM_NAME_MAX	64
#define SM_PROBE_PRIO	(TRACEPOINT_DEFAULT_PRIO - 1)

struct stackmap_attached {
	struct list_head list;
	struct tracepoint *tp;
	struct stackmap_skip skip;
	char name[SM_NAME_MAX];
};

/* Protects stackmap_attached_list; process context only. */
static DEFINE_MUTEX(stackmap_attach_lock);
static LIST_HEAD(stackmap_attached_list);

/*
 * Tracepoint probe.  Called with the tracepoint's own arguments after @data;
 * it uses none of them, so one probe serves every tracepoint prototype
 * (the calling convention passes them in registers the probe ignores).
 */
static void stackmap_probe(void *data)
{
	struct stackmap_attached *a = data;

	stackmap_record(&a->skip);
}

struct stackmap_tp_search {
	const char *event;
	struct tracepoint *found;
};

static void stackmap_tp_match(struct tracepoint *tp, void *priv)
{
	struct stackmap_tp_search *s = priv;

	if (!s->found && !strcmp(tp->name, s->event))
		s->found = tp;
}

/* The event part of "system:event" (or the whole name without a colon). */
static const char *stackmap_event_part(const char *name)
{
	const char *colon = strchr(name, ':');

	return colon ? colon + 1 : name;
}

/*
 * The range of the tracepoint's iterator function, whose frame sits between
 * the probe and the traced code when more than one probe is attached.
 * Its size comes from kallsyms ("name+0x0/0xSIZE").
 */
static void stackmap_iterator_range(struct tracepoint *tp,
				    struct stackmap_skip *skip)
{
	char sym[KSYM_SYMBOL_LEN];
	unsigned long size;
	char *slash;

	skip->start = (unsigned long)tp->iterator;
	skip->size = 0;
	skip->mode = SM_SKIP_ONE;
	if (!tp->iterator)
		return;
	sprint_symbol(sym, skip->start);
	slash = strrchr(sym, '/');
	if (slash && !kstrtoul(slash + 1, 16, &size))
		skip->size = size;
}

static struct stackmap_attached *stackmap_find_attached(const char *name)
{
	struct stackmap_attached *a;

	list_for_each_entry(a, &stackmap_attached_list, list)
		if (!strcmp(a->name, name))
			return a;
	return NULL;
}

/**
 * stackmap_attach_tracepoint() - record stacks at a tracepoint
 * @name: "system:event" (the event name is what identifies the tracepoint)
 *
 * Context: process.
 * Return: 0; -EINVAL for an over-long name or stackmap's own events;
 * -EEXIST if attached already; -ENOENT if no core-kernel tracepoint has that
 * name; -ENOMEM; or the error of tracepoint_probe_register_prio().
 */
int stackmap_attach_tracepoint(const char *name)
{
	struct stackmap_tp_search s = { .event = stackmap_event_part(name) };
	struct stackmap_attached *a;
	int ret;

	if (strlen(name) >= SM_NAME_MAX || !*s.event ||
	    !strncmp(name, STACKMAP_SYSTEM ":", strlen(STACKMAP_SYSTEM) + 1))
		return -EINVAL;
	mutex_lock(&stackmap_attach_lock);
	ret = -EEXIST;
	if (stackmap_find_attached(name))
		goto out;
	ret = -ENOENT;
	for_each_kernel_tracepoint(stackmap_tp_match, &s);
	if (!s.found)
		goto out;
	ret = -ENOMEM;
	a = kzalloc(sizeof(*a), GFP_KERNEL);
	if (!a)
		goto out;
	strscpy(a->name, name, sizeof(a->name));
	a->tp = s.found;
	stackmap_iterator_range(a->tp, &a->skip);
	ret = tracepoint_probe_register_prio(a->tp, stackmap_probe, a,
					     SM_PROBE_PRIO);
	if (ret) {
		kfree(a);
		goto out;
	}
	list_add_tail(&a->list, &stackmap_attached_list);
out:
	mutex_unlock(&stackmap_attach_lock);
	return ret;
}

static void stackmap_detach_one(struct stackmap_attached *a)
{
	tracepoint_probe_unregister(a->tp, stackmap_probe, a);
	list_del(&a->list);
	/* No probe may still use @a once every CPU left its tracepoint call. */
	tracepoint_synchronize_unregister();
	kfree(a);
}

/**
 * stackmap_detach_tracepoint() - stop recording stacks at a tracepoint
 * @name: as given to stackmap_attach_tracepoint()
 *
 * Context: process, sleeps for a grace period.
 * Return: 0, or -ENOENT if @name is not attached.
 */
int stackmap_detach_tracepoint(const char *name)
{
	struct stackmap_attached *a;
	int ret = -ENOENT;

	mutex_lock(&stackmap_attach_lock);
	a = stackmap_find_attached(name);
	if (a) {
		stackmap_detach_one(a);
		ret = 0;
	}
	mutex_unlock(&stackmap_attach_lock);
	return ret;
}

/** stackmap_detach_all() - detach every tracepoint; no probe runs after. */
void stackmap_detach_all(void)
{
	struct stackmap_attached *a, *tmp;

	mutex_lock(&stackmap_attach_lock);
	list_for_each_entry_safe(a, tmp, &stackmap_attached_list, list)
		stackmap_detach_one(a);
	mutex_unlock(&stackmap_attach_lock);
}

/** stackmap_show_attached() - one "system:event" line per attached point. */
void stackmap_show_attached(struct seq_file *m)
{
	struct stackmap_attached *a;

	mutex_lock(&stackmap_attach_lock);
	list_for_each_entry(a, &stackmap_attached_list, list)
		seq_printf(m, "%s\n", a->name);
	mutex_unlock(&stackmap_attach_lock);
}
