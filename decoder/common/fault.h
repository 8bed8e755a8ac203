/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fgdecode: a crash inside libtracecmd/libtraceevent while reading records
 * becomes a one-line error instead of a core dump.
 *
 * libtraceevent (1.7 up to at least 1.8.4) trusts the commit size in a data
 * page's header: kbuffer_load_subbuffer() reads the lost-events count and
 * the events at data + commit, wherever that points, so one corrupt page
 * header crashes any reader (trace-cmd report too); libtracecmd 3.1.6 also
 * dereferences NULL in tracecmd_open_head() on some corrupt headers (both
 * found by tests/fuzz).  fgdecode cannot check the file first (libtracecmd
 * parses, decompresses and loads it internally), so it marks the stretches
 * where it is inside the library parsing the file or reading records;
 * a SIGSEGV or SIGBUS there jumps back to the caller of fault_catch().  A
 * fault anywhere else is handed to the handler that was there before (the
 * default one, or a sanitizer's), so fgdecode's own bugs still crash.
 */
#ifndef FGDECODE_FAULT_H
#define FGDECODE_FAULT_H

#include <setjmp.h>
#include <signal.h>

/* Non-zero while a guarded library call runs; the CPU it reads, or -1. */
extern volatile sig_atomic_t fault_in_library;
extern volatile sig_atomic_t fault_cpu;
/*
 * What the guarded call was given that is not the file, when that is what
 * made it fault (FAULT_GUARDED_INPUT()): the message to print; else NULL.
 */
extern const char *volatile fault_input;

/**
 * fault_catch() - catch faults inside guarded library calls from now on
 * @env: set with sigsetjmp(env, 1) by the caller, whose frame must stay live
 *	until fault_release(); a fault siglongjmp()s there with value 1
 *
 * Return: 0, or -errno when the handlers cannot be installed (then nothing
 * is caught).
 */
int fault_catch(sigjmp_buf *env);

/** fault_release() - restore the handlers fault_catch() replaced. */
void fault_release(void);

/* Run @expr (reading CPU @cpu) as a guarded library call. */
#define FAULT_GUARDED(cpu, expr) ({			\
	__typeof__(expr) fault_ret_;			\
	fault_cpu = (cpu);				\
	fault_input = NULL;				\
	fault_in_library = 1;				\
	fault_ret_ = (expr);				\
	fault_in_library = 0;				\
	fault_ret_;					\
})

/*
 * Run @expr as a guarded library call on input of the user's (a -F filter
 * libtraceevent 1.7 crashes on): a fault is reported as @what says.
 */
#define FAULT_GUARDED_INPUT(what, expr) ({		\
	__typeof__(expr) fault_ret_;			\
	fault_cpu = -1;					\
	fault_input = (what);				\
	fault_in_library = 1;				\
	fault_ret_ = (expr);				\
	fault_in_library = 0;				\
	fault_input = NULL;				\
	fault_ret_;					\
})

#endif /* FGDECODE_FAULT_H */
