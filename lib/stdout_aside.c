// SPDX-License-Identifier: GPL-2.0
/*
 * Standard output set aside around a library call (see stdout_aside.h).
 */
#include <stdio.h>
#include <unistd.h>

#include "stdout_aside.h"

int sm_stdout_aside(void)
{
	int saved;

	fflush(stdout);
	saved = dup(STDOUT_FILENO);
	if (saved < 0)
		return -1;
	if (dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
		close(saved);
		return -1;
	}
	return saved;
}

int sm_stdout_back(int saved)
{
	int ret = 0;

	if (saved < 0)
		return 0;
	fflush(stdout);
	if (dup2(saved, STDOUT_FILENO) < 0)
		ret = -1;
	close(saved);
	return ret;
}
