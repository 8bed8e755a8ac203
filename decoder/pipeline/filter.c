// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: which events to show (see filter.h).
 */
#include <ctype.h>
#include <errno.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "sm_err.h"
#include "fault.h"
#include "units.h"

/* Parse a decimal int 0..INT_MAX ending at a ',' or the end; -EINVAL. */
static int parse_int(const char *s, int *val, const char **end)
{
	unsigned long v;
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &e, 10);
	if (errno || v > INT_MAX || (*e && *e != ','))
		return -EINVAL;
	*val = (int)v;
	*end = e;
	return 0;
}

/* "1,2,3" into @vals: -EINVAL, -E2BIG as add_events(). */
static int add_ints(int *vals, size_t *nr, const char *arg)
{
	const char *p = arg;

	for (;;) {
		if (*nr >= FILTER_MAX)
			return -E2BIG;
		if (parse_int(p, &vals[*nr], &p))
			return -EINVAL;
		(*nr)++;
		if (!*p)
			return 0;
		p++;
	}
}

/* Seconds "S[.FFFFFF]" to microseconds; more than 6 decimals is an error (-EINVAL). */
static int parse_time(const char *s, unsigned long long *us)
{
	unsigned long long sec, frac = 0;
	int digits = 0;
	char *e;

	if (!isdigit((unsigned char)*s))
		return -EINVAL;
	errno = 0;
	sec = strtoull(s, &e, 10);
	if (errno || sec > ULLONG_MAX / 1000000)
		return -EINVAL;
	if (*e == '.') {
		for (e++; isdigit((unsigned char)*e) && digits < 6; e++, digits++)
			frac = frac * 10 + (*e - '0');
		if (!digits)
			return -EINVAL;
		for (; digits < 6; digits++)
			frac *= 10;
	}
	if (*e)
		return -EINVAL;
	*us = sec * 1000000 + frac;
	return 0;
}

/*
 * "a,b:c" -> the names "a" and "b:c" into @names and @lens (@nr of them);
 * an empty name is an error (-EINVAL), more than FILTER_MAX -E2BIG.
 */
static int add_names(const char **names, size_t *lens, size_t *nr,
		     const char *arg)
{
	const char *p = arg, *comma;
	size_t len;

	for (;;) {
		comma = strchr(p, ',');
		len = comma ? (size_t)(comma - p) : strlen(p);
		if (!len)
			return -EINVAL;
		if (*nr >= FILTER_MAX)
			return -E2BIG;
		names[*nr] = p;
		lens[(*nr)++] = len;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

/* --from, --to: "S.F" or "+S.F" (after the first record). */
static int add_time(bool *has, bool *rel, unsigned long long *us,
		    const char *arg)
{
	*has = true;
	*rel = *arg == '+';
	return parse_time(arg + *rel, us);
}

int filter_add(struct filter *f, const char *opt, const char *arg)
{
	if (!strcmp(opt, "event"))
		return add_names(f->events, f->event_len, &f->nr_events, arg);
	if (!strcmp(opt, "comm"))
		return add_names(f->comms, f->comm_len, &f->nr_comms, arg);
	if (!strcmp(opt, "pid"))
		return add_ints(f->pids, &f->nr_pids, arg);
	if (!strcmp(opt, "cpu"))
		return add_ints(f->cpus, &f->nr_cpus, arg);
	if (!strcmp(opt, "from"))
		return add_time(&f->has_from, &f->from_rel, &f->from_us, arg);
	if (!strcmp(opt, "to"))
		return add_time(&f->has_to, &f->to_rel, &f->to_us, arg);
	if (!strcmp(opt, "filter")) {
		if (f->nr_fstrings >= FILTER_MAX)
			return -E2BIG;
		f->fstrings[f->nr_fstrings++] = arg;
		return 0;
	}
	return -EINVAL;
}

bool filter_active(const struct filter *f)
{
	return f->nr_events || f->nr_pids || f->nr_comms || f->nr_cpus ||
	       f->has_from || f->has_to || f->nr_fstrings;
}

/* Is @s exactly the @len bytes at @p? */
static bool same(const char *s, const char *p, size_t len)
{
	return s && strlen(s) == len && !strncmp(s, p, len);
}

/* Does the shell glob of the @len bytes at @glob match @s? */
static bool glob_matches(const char *glob, size_t len, const char *s)
{
	char pattern[256];

	if (!s || len >= sizeof(pattern))
		return false;
	memcpy(pattern, glob, len);
	pattern[len] = '\0';
	return !fnmatch(pattern, s, 0);
}

/*
 * Does @want (@len bytes: "NAME", a SYSTEM whole, or "SYSTEM:NAME", each
 * part a glob, as trace-cmd record -e reads them) name @event?
 */
static bool names_event(const char *want, size_t len,
			const struct tep_event *event)
{
	const char *colon = memchr(want, ':', len);

	if (!colon)
		return glob_matches(want, len, event->name) ||
		       glob_matches(want, len, event->system);
	return glob_matches(want, colon - want, event->system) &&
	       glob_matches(colon + 1, len - (colon - want) - 1, event->name);
}

static bool match_event(const struct filter *f, struct tep_handle *tep,
			struct tep_record *record)
{
	struct tep_event *event;
	size_t i;

	if (!f->nr_events)
		return true;
	event = tep_find_event_by_record(tep, record);
	if (!event)
		return false;
	for (i = 0; i < f->nr_events; i++)
		if (names_event(f->events[i], f->event_len[i], event))
			return true;
	return false;
}

void filter_set_origin(struct filter *f, unsigned long long first_ns)
{
	unsigned long long first = format_us(first_ns);

	if (f->from_rel)
		f->from_us += first;
	if (f->to_rel)
		f->to_us += first;
	f->from_rel = f->to_rel = false;
}

/* Is @val one of @vals?  Noted in @seen, when given. */
static bool has_int(const int *vals, bool *seen, size_t nr, int val)
{
	bool found = false;
	size_t i;

	for (i = 0; i < nr; i++)
		if (vals[i] == val) {
			found = true;
			if (seen)
				seen[i] = true;
		}
	return found;
}

/* Is @comm one of @f's --comm names?  Noted in @f->comm_seen. */
static bool has_comm(struct filter *f, const char *comm)
{
	bool found = false;
	size_t i;

	for (i = 0; i < f->nr_comms; i++)
		if (same(comm, f->comms[i], f->comm_len[i]))
			found = f->comm_seen[i] = true;
	return found;
}

bool filter_match(struct filter *f, struct tep_handle *tep,
		  struct tep_record *record)
{
	unsigned long long us = format_us(record->ts);
	int pid = f->nr_pids || f->nr_comms ? tep_data_pid(tep, record) : 0;
	/* Both noted for the record, whatever the other filters say. */
	bool pid_ok = !f->nr_pids ||
		      has_int(f->pids, f->pid_seen, f->nr_pids, pid);
	bool comm_ok = !f->nr_comms ||
		       has_comm(f, tep_data_comm_from_pid(tep, pid));

	if (f->has_from && us < f->from_us)
		return false;
	if (f->has_to && us > f->to_us)
		return false;
	if (f->nr_cpus && !has_int(f->cpus, NULL, f->nr_cpus, record->cpu))
		return false;
	if (!pid_ok || !comm_ok)
		return false;
	if (f->tep_filter &&
	    tep_filter_match(f->tep_filter, record) != TEP_ERRNO__FILTER_MATCH)
		return false;
	return match_event(f, tep, record);
}

/* Does the trace define an event @want (@len bytes) names? */
static bool trace_has_event(struct tep_handle *tep, const char *want,
			    size_t len)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
	size_t i;

	for (i = 0; events && events[i]; i++)
		if (names_event(want, len, events[i]))
			return true;
	return false;
}

/* "system:name, ..." of the trace's events into @buf, at most @len bytes. */
static void list_events(struct tep_handle *tep, char *buf, size_t len)
{
	struct tep_event **events = tep_list_events(tep, TEP_EVENT_SORT_SYSTEM);
	size_t n = 0, i;

	buf[0] = '\0';
	for (i = 0; events && events[i] && n < len; i++) {
		/* ftrace's own formats (function, kernel_stack, ...) are always there */
		if (!strcmp(events[i]->system, "ftrace"))
			continue;
		n += snprintf(buf + n, len - n, "%s%s:%s", n ? ", " : "",
			      events[i]->system, events[i]->name);
	}
	if (n >= len && len > 4)
		strcpy(buf + len - 4, "...");
}

/* "S.UUUUUU" of a time in microseconds, as the event lines print it. */
#define US_FMT		"%llu.%06llu"
#define US_ARG(us)	(us) / 1000000, (us) % 1000000

int filter_check(const struct filter *f, struct tep_handle *tep, int nr_cpus,
		 struct sm_err *err)
{
	char have[400];
	size_t i;

	if (f->has_from && f->has_to && f->from_rel == f->to_rel &&
	    f->from_us > f->to_us)
		return sm_err_code(err, -EINVAL, "--from " US_FMT " is after --to " US_FMT ": no time is in that range",
				   US_ARG(f->from_us), US_ARG(f->to_us));
	for (i = 0; i < f->nr_cpus; i++)
		if (f->cpus[i] >= nr_cpus)
			return sm_err_code(err, -EINVAL, "--cpu %d: the trace has CPUs 0-%d",
					   f->cpus[i], nr_cpus - 1);
	for (i = 0; i < f->nr_events; i++) {
		if (trace_has_event(tep, f->events[i], f->event_len[i]))
			continue;
		list_events(tep, have, sizeof(have));
		return sm_err_code(err, -ENOENT, "--event %.*s: the trace has no such event (it has %s)",
				   (int)f->event_len[i], f->events[i], have);
	}
	return 0;
}

int filter_check_span(const struct filter *f, unsigned long long first_ns,
		      unsigned long long last_ns, struct sm_err *err)
{
	unsigned long long first = format_us(first_ns);
	unsigned long long last = format_us(last_ns);

	if (f->has_to && f->to_us < first)
		return sm_err_code(err, -ERANGE, "--to " US_FMT ": the trace begins at " US_FMT " (its events lie in " US_FMT "-" US_FMT ")",
				   US_ARG(f->to_us), US_ARG(first),
				   US_ARG(first), US_ARG(last));
	if (f->has_from && f->from_us > last)
		return sm_err_code(err, -ERANGE, "--from " US_FMT ": the trace ends at " US_FMT " (its events lie in " US_FMT "-" US_FMT ")",
				   US_ARG(f->from_us), US_ARG(last),
				   US_ARG(first), US_ARG(last));
	return 0;
}

int filter_check_tasks(const struct filter *f, struct sm_err *err)
{
	size_t i;

	for (i = 0; i < f->nr_pids; i++)
		if (!f->pid_seen[i])
			return sm_err_code(err, -ENOENT, "--pid %d: no record of the trace is by that task",
					   f->pids[i]);
	for (i = 0; i < f->nr_comms; i++)
		if (!f->comm_seen[i])
			return sm_err_code(err, -ENOENT, "--comm %.*s: no record of the trace is by a task of that name",
					   (int)f->comm_len[i], f->comms[i]);
	return 0;
}

/*
 * @in in libtraceevent's syntax, SYSTEM/EVENT: a leading "SYSTEM:EVENT:"
 * (fgdecode's --event spelling) becomes "SYSTEM/EVENT:".
 */
static const char *tep_spelling(const char *in, char *buf, size_t size)
{
	size_t a = strspn(in, "abcdefghijklmnopqrstuvwxyz0123456789_*?");
	size_t b;

	if (in[a] != ':')
		return in;
	b = strspn(in + a + 1, "abcdefghijklmnopqrstuvwxyz0123456789_*?");
	if (!b || in[a + 1 + b] != ':' || strlen(in) >= size)
		return in;
	snprintf(buf, size, "%s", in);
	buf[a] = '/';
	return buf;
}

/*
 * libtraceevent's "EXPR\n   ^\nWHY" as one line: "WHY at column N of
 * 'EXPR'" (or WHY alone); rewritten in place.
 */
static const char *one_line(char *why)
{
	char *nl1 = strchr(why, '\n'), *nl2, *caret, out[512];

	if (!nl1 || !(nl2 = strchr(nl1 + 1, '\n')))
		return why;
	*nl1 = *nl2 = '\0';
	caret = strchr(nl1 + 1, '^');
	if (caret)
		snprintf(out, sizeof(out), "%s at column %d of '%s'", nl2 + 1,
			 (int)(caret - (nl1 + 1)), why + strspn(why, " "));
	else
		snprintf(out, sizeof(out), "%s", nl2 + 1);
	strcpy(why, out);
	return why;
}

/*
 * Expressions libtraceevent 1.7.1's filter parser crashes on: one that
 * ends with an operator, or holds an open string.  NULL, or what is wrong.
 */
static const char *cut_short(const char *filter)
{
	const char *expr = strchr(filter, ':'), *p;
	size_t len, quotes = 0;

	expr = expr ? expr + 1 : filter;
	len = strlen(expr);
	while (len && isspace((unsigned char)expr[len - 1]))
		len--;
	for (p = expr; p < expr + len; p++)
		quotes += *p == '"';
	if (quotes % 2)
		return "a string is not closed";
	if (len && strchr("=<>!&|~", expr[len - 1]))
		return "it ends with an operator";
	return NULL;
}

int filter_compile(struct filter *f, struct tep_handle *tep,
		   struct sm_err *err)
{
	const char *wrong;
	static char crash[1100];
	char why[512], spelled[1024];
	enum tep_errno ret;
	size_t i;

	if (!f->nr_fstrings)
		return 0;
	f->tep_filter = tep_filter_alloc(tep);
	if (!f->tep_filter)
		return sm_err_code(err, -ENOMEM, "out of memory");
	for (i = 0; i < f->nr_fstrings; i++) {
		wrong = cut_short(f->fstrings[i]);
		if (wrong)
			return sm_err_code(err, -EINVAL, "-F '%s': %s",
					   f->fstrings[i], wrong);
		/* Any other shape it crashes on: one line too. */
		snprintf(crash, sizeof(crash), "-F '%s': libtraceevent crashed parsing it (an expression cut short, such as a last operator or an open string?)",
			 f->fstrings[i]);
		ret = FAULT_GUARDED_INPUT(crash,
			tep_filter_add_filter_str(f->tep_filter,
				tep_spelling(f->fstrings[i], spelled,
					     sizeof(spelled))));
		if (ret == TEP_ERRNO__SUCCESS)
			continue;
		if (tep_filter_strerror(f->tep_filter, ret, why, sizeof(why)))
			snprintf(why, sizeof(why), "libtraceevent error %d",
				 (int)ret);
		return sm_err_code(err, -EINVAL, "-F '%s': %s", f->fstrings[i],
				   one_line(why));
	}
	return 0;
}

void filter_free(struct filter *f)
{
	if (f->tep_filter)
		tep_filter_free(f->tep_filter);
	f->tep_filter = NULL;
}
