// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer harness: a whole trace.dat through fgdecode's own code paths
 * (fgdecode_report() from decoder/'s libfgdecode.a): open with libtracecmd,
 * read every buffer, resolve cookies, symbolize from the stored kallsyms,
 * format; and through the page walk the plugin reads definitions with
 * (lib/tracedat_pages.c: extents, chunks uncompressed, pages handed on).
 * The input is written to a file because libtracecmd reads files.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "tracedat_pages.h"

/*
 * Leaks that are not fgdecode's: libtracecmd 3.1.6 loses memory on its own
 * error paths, and fgdecode deliberately leaves a half-opened handle unfreed
 * (decoder/pipeline/read.c, open_file()).
 */
const char *__lsan_default_suppressions(void)
{
	return "leak:tracecmd_parse_trace_clock\n"
	       "leak:tracecmd_alloc_fd\n"
	       "leak:open_file\n";
}

static char path[64];

/* stackmap_page_fn: touch every byte of the page (ASan checks its bounds). */
static int touch_page(const char *buffer, unsigned int cpu, const void *page,
		      unsigned int size, void *arg)
{
	const unsigned char *p = page;
	unsigned int i, *sum = arg;

	(void)buffer;
	for (i = 0; i < size; i++)
		*sum += p[i];
	*sum += cpu;
	return 0;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	snprintf(path, sizeof(path), "/tmp/fuzz_tracedat.%d.dat", (int)getpid());
	/* The decoded text is not what is tested; keep it off the terminal. */
	if (!freopen("/dev/null", "w", stdout))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *args[] = { "fgdecode", "--cookies", "--no-summary", path, NULL };
	FILE *f = fopen(path, "wb");

	if (!f)
		abort();
	if (size && fwrite(data, 1, size, f) != size)
		abort();
	fclose(f);
	optind = 1;
	fgdecode_report(4, args);
	{
		struct sm_err err;
		unsigned int sum = 0;

		stackmap_tracedat_pages(path, touch_page, &sum, &err);
	}
	unlink(path);
	return 0;
}
