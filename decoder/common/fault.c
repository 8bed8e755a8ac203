// SPDX-License-Identifier: GPL-2.0
/*
 * fgdecode: faults inside guarded library calls (see fault.h).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "fault.h"

volatile sig_atomic_t fault_in_library;
volatile sig_atomic_t fault_cpu;
const char *volatile fault_input;

static sigjmp_buf *fault_env;
static struct sigaction old_segv, old_bus;
static int installed;

static void on_fault(int sig, siginfo_t *info, void *uctx)
{
	(void)info;
	(void)uctx;
	if (fault_in_library && fault_env) {
		fault_in_library = 0;
		siglongjmp(*fault_env, 1);
	}
	/*
	 * Not a guarded call: put the previous handler back and return, so
	 * the faulting instruction runs again and faults into it.
	 */
	sigaction(sig, sig == SIGSEGV ? &old_segv : &old_bus, NULL);
}

int fault_catch(sigjmp_buf *env)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_fault;
	sa.sa_flags = SA_SIGINFO;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &old_segv))
		return -errno;
	if (sigaction(SIGBUS, &sa, &old_bus)) {
		int err = errno;

		sigaction(SIGSEGV, &old_segv, NULL);
		return -err;
	}
	fault_env = env;
	fault_in_library = 0;
	installed = 1;
	return 0;
}

void fault_release(void)
{
	if (!installed)
		return;
	sigaction(SIGSEGV, &old_segv, NULL);
	sigaction(SIGBUS, &old_bus, NULL);
	fault_env = NULL;
	fault_in_library = 0;
	installed = 0;
}
