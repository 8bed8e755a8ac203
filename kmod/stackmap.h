/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Module-internal interfaces between the parts of stackmap.ko:
 * stackmap_main.c (load and unload), stackmap_record.c (the hot path:
 * capture, look up, emit), stackmap_events.c (the trace events and the
 * stack_cookie probe), stackmap_window.c (consumers and overwriting
 * buffers), stackmap_attach.c (tracepoints), stackmap_function.c (function
 * entries), stackmap_debugfs.c (files) and stackmap_params.c (module
 * parameters).  The map instance and its reset have a header of their own,
 * stackmap_instance.h.
 */
#ifndef STACKMAP_MODULE_H
#define STACKMAP_MODULE_H

#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/seq_file.h>

#include "stackmap_map.h"

/* Counters, per CPU; summed when the stats file is read. */
struct stackmap_stats {
	u64 lookups;			/* every hit of an attached point */
	u64 hits;			/* found in the map */
	u64 inserts;			/* stored by this lookup */
	u64 fallback[STACKMAP_FALLBACK_MAX];	/* by enum stackmap_fallback_reason */
	u64 defines;			/* definition events written */
	u64 redefines;			/* ... of them again, for a window */
	u64 refreshes;			/* ... of them again, before leaving it */
	u64 refresh_missed;		/* refreshes a buffer of the last missed */
	u64 refresh_overflow;		/* definitions the refresh queue refused */
	u64 epochs;			/* epochs started (consumers came) */
	u64 windows;			/* windows measured (overwriting buffers) */
	u64 truncated;			/* stacks cut at max_depth */
	u64 nested;			/* dropped: nesting deeper than 4 */
	u64 empty;			/* dropped: no frame left after trimming */
	u64 recursion;			/* dropped: a hook recursed, or the capture asked */
	u64 unpinned;			/* hits left migratable: pin table full */
	u64 debts;			/* dropped hits: next records flagged */
	u64 discarded;			/* stack records the commit dropped */
	u64 after_loss;			/* stack records written flagged */
};

DECLARE_PER_CPU(struct stackmap_stats, stackmap_stats);
DECLARE_PER_CPU(u64, stackmap_horizon_age);

extern unsigned int stackmap_max_depth;
extern unsigned int stackmap_redefine_pct;

/**
 * enum stackmap_skip_mode - how stackmap_record() trims a captured stack
 * @SM_SKIP_ONE: after this module's frames, drop one frame inside the range
 *	(a tracepoint's iterator, present when several probes are attached)
 * @SM_SKIP_UNTIL: drop frames until one inside the range and keep it (a
 *	function's own ftrace call site; what precedes is the trampoline)
 */
enum stackmap_skip_mode {
	SM_SKIP_ONE,
	SM_SKIP_UNTIL,
};

/**
 * struct stackmap_skip - a code range that marks where a stack starts
 * @start: first address
 * @size: bytes, 0 for none
 * @mode: what to do with frames around it
 * @stub_start: a typed tracepoint probe's __probestub_NAME (stackmap_attach.c,
 *	"Typed probes"): first, after this module's frames, frames are dropped
 *	up to and including the first one inside it (the ftrace trampoline and
 *	the stub), then @mode applies; nothing is dropped if none is inside it
 * @stub_size: bytes, 0 for none
 */
struct stackmap_skip {
	unsigned long start;
	unsigned long size;
	enum stackmap_skip_mode mode;
	unsigned long stub_start;
	unsigned long stub_size;
};

struct trace_buffer;
struct trace_event_file;

void stackmap_events_init(void);
void stackmap_events_exit(void);
bool stackmap_define_event_is(const void *data);
void stackmap_define_committed(const void *entry);
u16 stackmap_function_owner(void);

bool stackmap_record_unpinned(void);
void stackmap_new_epoch(bool define_now);
void stackmap_stats_sum(struct stackmap_stats *sum);

/*
 * Consumers, as bits of a slot's defined word (sm_map_note_define()): up to
 * SM_CONSUMERS ring buffers tracked one by one (stackmap_window.c), one bit
 * for all those beyond, one for perf users of the events.
 */
#define SM_CONSUMERS		16
#define SM_CONSUMER_UNTRACKED	SM_CONSUMERS
#define SM_CONSUMER_PERF	(SM_CONSUMERS + 1)

void stackmap_cookie_taken(int consumer);
int stackmap_consumer_of(const struct trace_event_file *file);
void stackmap_perf_users(bool on);
void stackmap_consumer_add(struct trace_event_file *file);
void stackmap_consumer_remove(struct trace_event_file *file);
void stackmap_consumer_refused(struct trace_event_file *file,
			       struct trace_buffer *buffer);
bool stackmap_consumer_accepted(struct trace_event_file *file,
				struct trace_buffer *buffer);
unsigned int stackmap_untracked_consumers(void);
unsigned long stackmap_buffer_records(struct trace_buffer *buffer, int cpu);
void stackmap_consumers_debt(void);
void stackmap_unpinned_hit(void);
void stackmap_consumer_discarded(struct trace_event_file *file,
				 struct trace_buffer *refused);
void stackmap_window_note(struct trace_event_file *file,
			  struct trace_buffer *buffer);
void stackmap_window_init(void);
void stackmap_window_remeasure(void);
int stackmap_refresh_init(void);
void stackmap_refresh_exit(void);
void stackmap_refresh_queue(u64 cookie, u64 at);
void stackmap_refresh_sooner(void);
bool stackmap_refresh_one(u64 cookie, u64 at, bool refresh);
void stackmap_window_exit(void);

int stackmap_owner_register(u16 owner, const char *name);
unsigned int stackmap_typed_tracepoints(void);
const char *stackmap_owner_name(u16 owner);

/**
 * struct stackmap_visitor - what stackmap_points.visit calls per name
 * @fn: called with the name and @arg
 * @arg: passed to @fn
 */
struct stackmap_visitor {
	void (*fn)(const char *name, void *arg);
	void *arg;
};

/**
 * struct stackmap_points - one kind of attachment point (tracepoints, or
 * function globs), as the debugfs control files and the module parameters
 * drive it
 * @attach: attach one name; 0 or a negative errno
 * @detach: detach one name; 0 or a negative errno
 * @clear: detach everything (the control file's O_TRUNC), or NULL
 * @visit: call the visitor with each attached name, in attach order,
 *	under the kind's lock (the visitor must not attach or detach)
 * @visit_dropped: the same with each name the kind dropped by itself (a
 *	function glob whose module was unloaded), or NULL
 *
 * Context: process, for every operation.
 */
struct stackmap_points {
	int (*attach)(const char *name);
	int (*detach)(const char *name);
	void (*clear)(void);
	void (*visit)(const struct stackmap_visitor *v);
	void (*visit_dropped)(const struct stackmap_visitor *v);
};

extern const struct stackmap_points stackmap_tracepoint_points;
extern const struct stackmap_points stackmap_function_points;

void stackmap_detach_all(void);
void stackmap_detach_all_functions(void);
void stackmap_function_exit(void);
unsigned int stackmap_functions_dropped(void);

void stackmap_params_init(void);
void stackmap_params_exit(void);

#ifdef STACKMAP_TEST_FAIL_RECURSION
extern atomic_t stackmap_test_fail_recursion;	/* stackmap_attach.c */
#endif

/**
 * enum stackmap_bench_stage - the steps of a tracepoint hit, in order
 * @SM_STAGE_DISPATCH: the probes are called and return at once
 * @SM_STAGE_PIN: + the pin and unpin (kernels whose probes run preemptible)
 * @SM_STAGE_WALK: + stack_trace_save() (stackmap_record() up to its capture)
 * @SM_STAGE_TRIM: + the trim of the module's and the iterator's frames
 * @SM_STAGE_LOOKUP: + the map lookup (the cookie known, nothing emitted)
 * @SM_STAGE_COOKIE: + stack_define and stack_cookie: the whole path
 *
 * Only a bench build stops early (stackmap_bench_stop()).
 */
enum stackmap_bench_stage {
	SM_STAGE_DISPATCH,
	SM_STAGE_PIN,
	SM_STAGE_WALK,
	SM_STAGE_TRIM,
	SM_STAGE_LOOKUP,
	SM_STAGE_COOKIE,
};

#ifdef STACKMAP_BENCH_STAGES
/*
 * BENCH ONLY, never in a normal build (tests/bench/run.sh builds a variant
 * with KCFLAGS=-DSTACKMAP_BENCH_STAGES): the module parameter bench_stage
 * (stackmap_attach.c) makes every hit return after that step, so that B5
 * measures what each step adds.
 */
extern unsigned int stackmap_bench_stage;	/* stackmap_attach.c */

/* Does a hit stop after step @stage? */
static inline bool stackmap_bench_stop(enum stackmap_bench_stage stage)
{
	return READ_ONCE(stackmap_bench_stage) <= stage;
}
#else
static inline bool stackmap_bench_stop(enum stackmap_bench_stage stage)
{
	return false;
}
#endif

int stackmap_debugfs_init(void);
void stackmap_debugfs_exit(void);

#endif /* STACKMAP_MODULE_H */
