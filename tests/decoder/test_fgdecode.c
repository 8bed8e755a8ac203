// SPDX-License-Identifier: GPL-2.0
/*
 * End-to-end tests of fgdecode: write small trace.dat files with mktrace,
 * run the (sanitized) fgdecode binary on them and compare its exact stdout,
 * stderr and exit status.  One file per test case (fgdecode_CASE.c), their
 * fixture in fgdecode_fixture.c.
 */
#include <check.h>
#include <stdlib.h>

#include "fgdecode_fixture.h"

/* The test cases, in the order they run. */
static TCase *(*const tcases[])(void) = {
	attach_tcase,
	owners_tcase,
	unresolved_tcase,
	bad_input_tcase,
	sources_tcase,
	outputs_tcase,
	off_cpu_tcase,
	diff_tcase,
	snapshot_tcase,
	map_tcase,
	options_tcase,
};

int main(void)
{
	Suite *s = suite_create("fgdecode");
	SRunner *sr;
	size_t i;
	int failed;

	for (i = 0; i < sizeof(tcases) / sizeof(tcases[0]); i++)
		suite_add_tcase(s, tcases[i]());
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
