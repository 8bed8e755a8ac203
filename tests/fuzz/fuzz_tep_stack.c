// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: stackmap event records, as fgdecode and the plugin read
 * them (lib/tep_stack.c), from arbitrary bytes.
 *
 * Input: byte 0 selects the trace (bit 0: long size 8 or 4, bit 1: big
 * endian) and the event (bits 2-3: stack_define, stack_fallback,
 * stack_cookie, or stack_define as modules before the packed frames wrote
 * it, with an ips[] array); the rest is the record payload, parsed against
 * the event format text the 6.1 kernel prints for the module's events.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "tep_stack.h"
#include "tep_fixture.h"

struct variant {
	struct tep_handle *tep;
	struct tep_handle *tep_ips;	/* stack_define with ips[] */
	struct tepstack_fields fields[4];
};

static struct variant variants[4];

static const int event_ids[3] = { FX_ID_DEFINE, FX_ID_FALLBACK, FX_ID_COOKIE };

static void variant_init(struct variant *v, int long_size, bool big_endian)
{
	struct sm_err err;

	v->tep = fx_tep_new(long_size, big_endian);
	for (int i = 0; i < 3; i++) {
		struct tep_event *ev = tep_find_event(v->tep, event_ids[i]);

		if (!ev || tepstack_fields_init(&v->fields[i], ev, &err))
			abort();
	}
	v->tep_ips = tep_alloc();
	if (!v->tep_ips)
		abort();
	tep_set_long_size(v->tep_ips, long_size);
	tep_set_file_bigendian(v->tep_ips, big_endian ? TEP_BIG_ENDIAN :
							TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(v->tep_ips, TEP_LITTLE_ENDIAN);
	if (!fx_parse(v->tep_ips, fx_fmt_stack_define_ips, STACKMAP_SYSTEM) ||
	    tepstack_fields_init(&v->fields[3],
				 tep_find_event(v->tep_ips, FX_ID_DEFINE), &err))
		abort();
}

static void exercise(struct variant *v, int kind, struct tep_record *rec)
{
	const struct tepstack_fields *f = &v->fields[kind];
	struct tep_handle *tep = kind == 3 ? v->tep_ips : v->tep;
	struct tepstack_stack stack;
	struct sm_err err;
	struct trace_seq s;
	sm_u32 reason, owner, flags;
	char name[80];
	sm_u64 cookie;

	trace_seq_init(&s);
	trace_seq_printf(&s, "%x", tepstack_context(tep, rec));
	/* Kind 3 is stack_define too, in the older layout. */
	if (kind == 3)
		kind = 0;
	if (kind != 2 && !tepstack_read_owner(f, rec, &owner, &flags, &err)) {
		trace_seq_puts(&s, tepstack_owner_name(tep, owner, name,
						       sizeof(name)));
		if (flags & STACKMAP_FLAG_TRUNCATED)
			tepstack_print_truncated(&s, "  ");
	}
	if (kind != 1 && !tepstack_read_cookie(f, rec, &cookie, &err))
		trace_seq_printf(&s, "%llx", (unsigned long long)cookie);
	if (kind == 1 && !tepstack_read_reason(f, rec, &reason, &err))
		trace_seq_printf(&s, "%u", reason);
	if (kind != 2 && !tepstack_read_stack(f, rec, &stack, &err))
		tepstack_print_stack(&s, tep, stack.frames, stack.depth, "  ");
	trace_seq_destroy(&s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_record rec;
	struct variant *v;
	unsigned char *copy;
	int kind;

	if (size < 1)
		return 0;
	v = &variants[data[0] & 3];
	if (!v->tep)
		variant_init(v, data[0] & 1 ? 4 : 8, data[0] & 2);
	kind = (data[0] >> 2) & 3;
	/* An exact-size heap copy, so ASan sees any read past the record. */
	copy = malloc(size - 1 ? size - 1 : 1);
	memcpy(copy, data + 1, size - 1);
	memset(&rec, 0, sizeof(rec));
	rec.data = copy;
	rec.size = size - 1;
	exercise(v, kind, &rec);
	free(copy);
	return 0;
}
