/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: counts, weights and their units as people read them, the one
 * rule every stage prints them by (the summary, --top, the flame graph's
 * tooltips, diff's table, the off-CPU totals).
 */
#ifndef FGDECODE_UNITS_H
#define FGDECODE_UNITS_H

#include <stddef.h>
#include <stdio.h>

#include "stackmap/types.h"

/**
 * format_count() - "@sep@n @plural", the noun in the singular when @n is 1
 * @out: stream
 * @sep: printed first ("" for none)
 * @n: the count
 * @plural: the noun in the plural, ending in 's' ("events", "fallback
 *	stacks"): "1 event", "2 events"
 */
void format_count(FILE *out, const char *sep, size_t n, const char *plural);

/* Room for any format_weight() or format_change() text, its NUL included. */
#define FORMAT_WEIGHT_LEN	128

/**
 * format_weight() - a weight as a person reads it
 * @buf: at least FORMAT_WEIGHT_LEN bytes
 * @w: the weight
 * @unit: its unit: "ns" for a time, "" for the bare number
 *
 * "4096 bytes", "4096" (@unit ""), and in ns sm_duration_ns()'s
 * "2.95 s (2948778451 ns)" (a unit longer than the room is cut).
 *
 * Return: @buf.
 */
const char *format_weight(char *buf, sm_u64 w, const char *unit);

/**
 * format_change() - a change of weight, signed: "+200000", "-4096 bytes",
 * "-1.50 s (1500000000 ns)" (the sign, then format_weight() of its size)
 * @buf: at least FORMAT_WEIGHT_LEN bytes
 * @change: the change
 * @unit: as for format_weight()
 *
 * Return: @buf.
 */
const char *format_change(char *buf, long long change, const char *unit);

/**
 * format_bare_unit() - the unit a column of bare numbers keeps: "ns" for
 * @unit "ns" (times read as durations), "" for any other
 * @unit: the weights' unit
 */
const char *format_bare_unit(const char *unit);

/**
 * format_us() - a trace timestamp as fgdecode prints it in every output:
 * in microseconds, rounded to the nearest, as tep_print_event() prints an
 * event's time for trace-cmd report ("941.668004" for 941668003500 ns;
 * print it "%llu.%06llu" of us / 1000000, us % 1000000)
 * @ts_ns: the timestamp, ns of the trace clock
 *
 * Return: the microseconds.
 */
static inline unsigned long long format_us(unsigned long long ts_ns)
{
	return (ts_ns + 500) / 1000;
}

#endif /* FGDECODE_UNITS_H */
