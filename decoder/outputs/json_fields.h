/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode --json: the "fields" member of an event, every field of its
 * format but the common_* ones, in format order, typed as the format says,
 * so that jq can select and group by them (as perf script -F, trace-cmd
 * report -R and bpftrace's args give them):
 *
 *   "fields":{"call_site":"0xffffffffa7a8d24f","ptr":"0xff2b8a6e82758000",
 *             "bytes_req":8488,"bytes_alloc":16384,"gfp_flags":77248,
 *             "node":-1}
 *
 *  - a number is a JSON number, signed when the format says so; a pointer
 *    (a type with '*'), and an unsigned value of 2^53 or more, is a string
 *    of its hex digits, "0x..." (JSON readers such as jq hold numbers as
 *    doubles, exact only below 2^53: kernel addresses are above);
 *  - a string (char[N], __data_loc char[]) is a JSON string, up to its NUL;
 *  - any other array (static or __data_loc) is a JSON array of numbers, one
 *    per element of its element size;
 *  - a field the record is too short for is null.
 * Symbolic values (__print_flags, __print_symbolic) are given raw there, and
 * as the event's format prints them in a "printed" member after "fields",
 * for the events that have such fields (symbolic.h says which):
 *
 *   "printed":{"gfp_flags":"GFP_KERNEL|__GFP_ZERO"}
 *   "printed":{"prev_state":"R+"}
 */
#ifndef FGDECODE_JSON_FIELDS_H
#define FGDECODE_JSON_FIELDS_H

#include <event-parse.h>

/**
 * json_put_fields() - append ,"fields":{...} for the event @record, and
 *	,"printed":{...} when it has symbolic fields
 * @s: the JSON object being built
 * @tep: the trace's handle
 * @record: the event's record; nothing is appended for a record of no
 *	known format or of the stackmap system (its members say it all)
 * @put_string: how the object writes a JSON string
 */
void json_put_fields(struct trace_seq *s, struct tep_handle *tep,
		     struct tep_record *record,
		     void (*put_string)(struct trace_seq *s, const char *str));

#endif /* FGDECODE_JSON_FIELDS_H */
