// SPDX-License-Identifier: GPL-2.0
/*
 * duration: nanoseconds for people (duration.h).
 */
#include <stdio.h>

#include "duration.h"

const char *sm_duration(char *buf, sm_u64 ns)
{
	if (ns >= 1000000000ULL)
		snprintf(buf, SM_DURATION_LEN, "%.2f s", ns / 1e9);
	else if (ns >= 1000000ULL)
		snprintf(buf, SM_DURATION_LEN, "%.1f ms", ns / 1e6);
	else if (ns >= 1000ULL)
		snprintf(buf, SM_DURATION_LEN, "%.1f us", ns / 1e3);
	else
		snprintf(buf, SM_DURATION_LEN, "%llu ns", (unsigned long long)ns);
	return buf;
}

const char *sm_duration_ns(char *buf, sm_u64 ns)
{
	char d[SM_DURATION_LEN];

	snprintf(buf, SM_DURATION_NS_LEN, "%s (%llu ns)", sm_duration(d, ns),
		 (unsigned long long)ns);
	return buf;
}
