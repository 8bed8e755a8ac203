// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: counts, weights and their units as people read them (see
 * units.h).
 */
#include <stdio.h>
#include <string.h>

#include "duration.h"
#include "units.h"

void format_count(FILE *out, const char *sep, size_t n, const char *plural)
{
	fprintf(out, "%s%zu %.*s", sep, n, (int)strlen(plural) - (n == 1),
		plural);
}

/* format_weight() into @size bytes at @buf. */
static void put_weight(char *buf, size_t size, sm_u64 w, const char *unit)
{
	char d[SM_DURATION_NS_LEN];

	if (!strcmp(unit, "ns"))
		snprintf(buf, size, "%s", sm_duration_ns(d, w));
	else
		snprintf(buf, size, "%llu%s%s", (unsigned long long)w,
			 *unit ? " " : "", unit);
}

const char *format_weight(char *buf, sm_u64 w, const char *unit)
{
	put_weight(buf, FORMAT_WEIGHT_LEN, w, unit);
	return buf;
}

const char *format_change(char *buf, long long change, const char *unit)
{
	/* -(sm_u64): the size of LLONG_MIN, 2^63, is no long long. */
	buf[0] = change < 0 ? '-' : '+';
	put_weight(buf + 1, FORMAT_WEIGHT_LEN - 1,
		   change < 0 ? -(sm_u64)change : (sm_u64)change, unit);
	return buf;
}

const char *format_bare_unit(const char *unit)
{
	return strcmp(unit, "ns") ? "" : "ns";
}
