/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the test cases of test_fgdecode share (fgdecode_fixture.c): each test
 * writes a small trace.dat with mktrace in a directory of its own (setup()
 * makes it, teardown() removes it), runs the sanitized fgdecode binary on it
 * with run() and compares its exact stdout, stderr and exit status (res).
 * The expected text of the fixture's events and stacks is built from the
 * macros below.  One file per test case (fgdecode_CASE.c) holds its tests and
 * the function that returns its TCase; test_fgdecode.c runs them all.
 */
#ifndef TESTS_DECODER_FGDECODE_FIXTURE_H
#define TESTS_DECODER_FGDECODE_FIXTURE_H

#include <check.h>

#include "mktrace.h"
#include "stackmap/cookie.h"
#include "stackmap/events.h"
#include "tep_fixture.h"

#define SEC	1000000000ULL

/*
 * The latency flags fgdecode prints after the CPU when built against
 * libtracecmd 1.5.0 or later, as trace-cmd 3.3's report does
 * (decoder/dirs.mk FG_REPORT_LATENCY): the fixture's records set no flag
 * and have a preempt count of 0.
 */
#if FG_REPORT_LATENCY
#define LAT " ....."
#define LAT_HARDIRQ " ..h.."
#else
#define LAT ""
#define LAT_HARDIRQ ""
#endif

#define TICK_LINE(cpu, time, n) \
	"          worker-42    [00" #cpu "]" LAT "     " time ": tick:                 n=" #n "\n"
#define STACK3 \
	"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n" \
	"    => schedule+0x5a/0xb0 (ffffffff83252e2a)\n" \
	"    => kthread+0xda/0x120 (ffffffff828cd41a)\n"
/* The header of a stack record shown on its own (its owner is not before it). */
#define ORPHAN_OF_TICK	"    <orphan stack of test:tick>\n"
/* Under an event of an owner type that ends its stream with no stack. */
#define CUT_LINE \
	"    <no stack: the recording of this CPU ends here>\n"

#define STACK2 \
	"    => __schedule+0x4f8/0xa00 (ffffffff832528c8)\n" \
	"    => p9_client_rpc+0x14a/0x480 [9pnet] (ffffffffc03e3cca)\n"

#define PERF_TICK(cpu, sec, n) \
	"worker      42 [00" cpu "]     " sec ".000000: test:tick: n=" n "\n"
#define PERF_STACK3 \
	"\tffffffff832528c8 __schedule+0x4f8 ([kernel.kallsyms])\n" \
	"\tffffffff83252e2a schedule+0x5a ([kernel.kallsyms])\n" \
	"\tffffffff828cd41a kthread+0xda ([kernel.kallsyms])\n"

#define FX_ID_KSTACK	4	/* fmt_kernel_stack's */
#define ID_SWITCH	319	/* fmt_switch's */

struct result {
	int status;
	char *out;
	char *err;
};

/* The test's directory, its trace.dat, the trace being written, a payload. */
extern char dir[64];
extern char trace_path[128];
extern struct mktrace *mt;
extern struct fx_buf buf;
/* What the last run() printed and returned. */
extern struct result res;
/* The absolute path of stackmap-snapshot. */
extern char snaptool[4096];

/* The trace's kallsyms (the FX_* symbols of tep_fixture.h) and comms. */
extern const char kallsyms[];
extern const char cmdlines[];
/* test:tick and the stackmap events. */
extern const struct mkt_format all_formats[];
/* The stacks STACK3 and STACK2 print. */
extern const sm_u64 frames3[];
extern const sm_u64 frames2[];
/* all_formats and ftrace:kernel_stack. */
extern const char fmt_kernel_stack[];
extern const struct mkt_format kstack_formats[];
/* sched:sched_switch and the stackmap events. */
extern const char fmt_switch[];
extern const struct mkt_format switch_formats[];
/* A stack_map listing of generation 7: frames3 in slot 3, frames2 in 4. */
extern const char listing7[];

/* A test case whose tests each run in a new dir, @timeout s at most. */
TCase *fgd_tcase(const char *name, double timeout);

/* Running fgdecode and the shell in dir, reading and writing its files. */
char *slurp(const char *path);
__attribute__((format(printf, 1, 2)))
void run(const char *fmt, ...);
__attribute__((format(printf, 1, 2)))
int shell(const char *fmt, ...);
void write_file(const char *name, const char *text);
int count_of(const char *hay, const char *needle);
int count_lines(const char *text);
void write_listing7_of(const char *map_id);

/* mt written to trace_path and set to NULL (write_trace(): all_formats). */
void write_trace_with(const struct mkt_format *formats);
void write_trace(void);
void write_mixed_trace(void);
void write_switch_trace(void);

/* Records built in buf and appended to mt; set_pid(), put_comm() edit buf. */
void tick(int cpu, unsigned long long ts, int n);
void define(int cpu, unsigned long long ts, sm_u64 cookie,
	    const sm_u64 *frames, sm_u32 depth);
void cookie(int cpu, unsigned long long ts, sm_u64 ck);
void fallback(int cpu, unsigned long long ts, sm_u32 reason,
	      const sm_u64 *frames, sm_u32 depth, sm_u32 nframes);
void set_pid(int pid);
void cookie_from(int cpu, unsigned long long ts, int pid, sm_u64 ck);
void tick_from(int cpu, unsigned long long ts, int pid, int n);
void tock_in(int cpu, unsigned long long ts, int n, int ctx);
void define_owned(int cpu, unsigned long long ts, sm_u64 ck,
		  const sm_u64 *frames, sm_u32 depth, int owner, int flags);
void put_comm(const char *comm);
void sched_switch(int cpu, unsigned long long ts, const char *comm,
		  int prev, long state, int next);

/* The test cases, in fgdecode_CASE.c. */
TCase *attach_tcase(void);
TCase *owners_tcase(void);
TCase *unresolved_tcase(void);
TCase *bad_input_tcase(void);
TCase *sources_tcase(void);
TCase *outputs_tcase(void);
TCase *off_cpu_tcase(void);
TCase *diff_tcase(void);
TCase *snapshot_tcase(void);
TCase *map_tcase(void);
TCase *options_tcase(void);

#endif /* TESTS_DECODER_FGDECODE_FIXTURE_H */
