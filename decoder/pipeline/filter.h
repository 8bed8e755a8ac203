/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: which events to show (--event, --pid, --comm, --cpu, --from,
 * --to).  An event is selected when it passes every filter that is set: its
 * name is one of the --event names (NAME, a SYSTEM whole, or SYSTEM:NAME,
 * each part a shell glob as trace-cmd record -e takes them: "sched",
 * "sched:*", "*:sched_switch", "kmem:kmalloc*"), its pid one of the --pid
 * values, its task's comm one of the --comm names, its CPU one of the --cpu
 * values, and its time, rounded to the microsecond as printed, lies in
 * [--from, --to] ("+S" is S seconds after the trace's first record); with
 * -F FILTER, in trace-cmd report -F's syntax ("kmem/kmalloc: bytes_alloc >
 * 4096", or "kmem:kmalloc: ..." as --event spells it), libtraceevent's filter (tep_filter_add_filter_str()) must match
 * it too: an event no -F names is not selected, as trace-cmd report -F
 * shows only what its filters name.  The stack record that follows an
 * event goes with it.
 */
#ifndef FGDECODE_FILTER_H
#define FGDECODE_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include <event-parse.h>

#define FILTER_MAX	64	/* values per repeatable option */

struct sm_err;

struct filter {
	const char *events[FILTER_MAX];		/* into the option values */
	size_t event_len[FILTER_MAX];
	size_t nr_events;
	int pids[FILTER_MAX];
	size_t nr_pids;
	const char *comms[FILTER_MAX];		/* into the option values */
	size_t comm_len[FILTER_MAX];
	size_t nr_comms;
	int cpus[FILTER_MAX];
	size_t nr_cpus;
	bool has_from, has_to;
	bool from_rel, to_rel;			/* "+S": after the first record */
	unsigned long long from_us, to_us;	/* microseconds */
	/* Set by filter_match(): a record of that --pid, --comm was read. */
	bool pid_seen[FILTER_MAX], comm_seen[FILTER_MAX];
	const char *fstrings[FILTER_MAX];	/* -F, as given */
	size_t nr_fstrings;
	struct tep_event_filter *tep_filter;	/* filter_compile() */
};

/**
 * filter_add() - add one filter option's value
 * @f: the filters
 * @opt: "event", "pid", "comm", "cpu", "from", "to" or "filter" (-F)
 * @arg: the value: event names or globs, decimal pids, comms or CPUs (each
 *	a comma-separated list), or a time in seconds as printed ("9.104211"),
 *	"+" before it for a time after the first record ("+0.5"); names point
 *	into @arg, which must outlive @f
 *
 * Return: 0; -EINVAL when @opt is not one of these or @arg is not a valid
 * value; -E2BIG when more than FILTER_MAX values were given.
 */
int filter_add(struct filter *f, const char *opt, const char *arg);

/**
 * filter_compile() - the -F filters for the trace's events
 * @f: the filters
 * @tep: the trace's handle (its event formats)
 * @err: on failure: "-F 'kmem:kmalloc: x > 1': WHY", as libtraceevent's
 *	tep_filter_strerror() says why
 * Return: 0 (nothing to do without -F); -EINVAL after setting @err;
 * -ENOMEM.  Free with filter_free().
 */
int filter_compile(struct filter *f, struct tep_handle *tep,
		   struct sm_err *err);

/** filter_free() - free what filter_compile() made (NULL-safe). */
void filter_free(struct filter *f);

/** filter_active() - is any filter set? */
bool filter_active(const struct filter *f);

/**
 * filter_set_origin() - the time of the trace's first record, which the
 * relative times ("+S") count from
 * @f: the filters
 * @first_ns: that time, ns of the trace clock
 */
void filter_set_origin(struct filter *f, unsigned long long first_ns);

/**
 * filter_match() - is @record's event selected?
 * @f: the filters (@f->pid_seen and @f->comm_seen noted)
 * @tep: the trace's handle
 * @record: the event's record
 */
bool filter_match(struct filter *f, struct tep_handle *tep,
		  struct tep_record *record);

/**
 * filter_check() - can the filters select anything in this trace?
 * @f: the filters
 * @tep: the trace's handle (its event formats)
 * @nr_cpus: the trace's CPUs
 * @err: set when not: "--from A is after --to B ...", "--cpu N: the trace
 *	has CPUs 0-M", or "--event NAME: the trace has no such event (it has
 *	system:name, ...)"
 *
 * Return: 0, or after setting @err: -EINVAL for --from after --to or a
 * --cpu the trace does not have; -ENOENT for an --event it does not have.
 */
int filter_check(const struct filter *f, struct tep_handle *tep, int nr_cpus,
		 struct sm_err *err);

/**
 * filter_check_span() - does the time range meet the trace's?
 * @f: the filters
 * @first_ns: the time of the trace's first record (the trace clock's units,
 *	ns with the default clocks)
 * @last_ns: the time of its last record
 * @err: set when not: "--to T: the trace begins at F (its events lie in
 *	F-L)" or "--from T: the trace ends at L (...)", times in seconds
 *	rounded to the microsecond as the event lines print them
 *
 * Known only after the pass has read every record; called when no event was
 * selected.
 *
 * Return: 0, or -ERANGE after setting @err.
 */
int filter_check_span(const struct filter *f, unsigned long long first_ns,
		      unsigned long long last_ns, struct sm_err *err);

/**
 * filter_check_tasks() - did the trace have a record of each --pid and
 * --comm?  Known only after the pass; called when no event was selected.
 * @f: the filters, after the pass
 * @err: set when not: "--pid 999999: no record of the trace is by that
 *	task", "--comm foo: no record of the trace is by a task of that name"
 * Return: 0, or -ENOENT after setting @err.
 */
int filter_check_tasks(const struct filter *f, struct sm_err *err);

#endif /* FGDECODE_FILTER_H */
