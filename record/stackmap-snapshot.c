// SPDX-License-Identifier: GPL-2.0
/*
 * stackmap-snapshot: store the module's stack_map listing in a trace.dat as a
 * map snapshot (include/stackmap/snapshot.h), or print the one a trace holds.
 *
 *   stackmap-snapshot write TRACE.dat LISTING   append the snapshot option
 *   stackmap-snapshot tgids TRACE.dat FILE      append FILE, a copy of tracefs's
 *                                               saved_tgids, as the tgids
 *                                               option (snapshot.h)
 *   stackmap-snapshot show TRACE.dat            "generation G entries N hits H"
 *                                               then one line per entry:
 *                                               "slot S hits H depth D"
 *
 * write and tgids parse their input completely before touching TRACE.dat, refuse a
 * version 6 file (its options precede the data), appends through
 * libtracecmd's own option writer (tracecmd_private.h) and reads the result
 * back to check it.  Exit status: 0 on success, 1 on any error (one line on
 * stderr naming the file and field), 2 on usage errors.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "listing.h"
#include "payload.h"
#include "stdout_aside.h"
#include "tgids.h"
#include "tracecmd_private.h"
#include "tracedat_options.h"

#define PROG	"stackmap-snapshot"

static int usage(void)
{
	fprintf(stderr, "usage: " PROG " write TRACE.dat LISTING\n"
			"       " PROG " tgids TRACE.dat SAVED_TGIDS\n"
			"       " PROG " show TRACE.dat\n");
	return 2;
}

/*
 * Long size recorded in @path (tracecmd_open_head); 0 when unreadable.
 * The HOOK lines libtracecmd prints go to stderr (stdout_aside.h): `show`
 * prints to stdout.
 */
static int trace_long_size(const char *path)
{
	struct tracecmd_input *in;
	int size, saved = sm_stdout_aside();

	in = tracecmd_open_head(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	sm_stdout_back(saved);
	if (!in)
		return 0;
	size = tep_get_long_size(tracecmd_get_tep(in));
	tracecmd_close(in);
	return size;
}

static int parse_listing(const char *listing, int long_size,
			 struct stackmap_snapshot *snap)
{
	struct sm_err err;
	FILE *f;
	int ret;

	f = fopen(listing, "r");
	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", listing, strerror(errno));
		return -1;
	}
	ret = stackmap_snapshot_parse_listing(f, listing, long_size, snap, &err);
	fclose(f);
	if (ret)
		fprintf(stderr, PROG ": %s\n", err.msg);
	return ret ? -1 : 0;
}

/* Append @len bytes of @buf as option @id (named @what in errors) of @path. */
static int append_option(const char *path, unsigned short id,
			 const char *what, const void *buf, size_t len)
{
	struct tracecmd_output *out;
	int fd;

	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		return -1;
	}
	out = tracecmd_get_output_handle_fd(fd);
	if (!out) {
		fprintf(stderr, PROG ": %s: libtracecmd cannot append to it\n", path);
		close(fd);
		return -1;
	}
	if (tracecmd_get_out_file_version(out) < 7) {
		fprintf(stderr, PROG ": %s: file version %lu keeps its options before the data; record with --file-version 7 or run trace-cmd convert first\n",
			path, tracecmd_get_out_file_version(out));
		tracecmd_output_free(out);
		close(fd);
		return -1;
	}
	if (!tracecmd_add_option(out, id, (int)len, buf) ||
	    tracecmd_append_options(out)) {
		fprintf(stderr, PROG ": %s: appending the %s option failed\n", path, what);
		tracecmd_output_free(out);
		close(fd);
		return -1;
	}
	tracecmd_output_close(out);
	return 0;
}

/* Read the snapshot back and compare it with what was written. */
static int verify(const char *path, const struct stackmap_snapshot *want)
{
	struct stackmap_snapshot got;
	struct sm_err err;
	int ret;

	ret = stackmap_snapshot_read_tracedat(path, &got, &err);
	if (ret) {
		fprintf(stderr, PROG ": reading back: %s\n", err.msg);
		return -1;
	}
	ret = got.generation != want->generation || got.nr != want->nr ||
	      got.map_id != want->map_id;
	if (ret)
		fprintf(stderr, PROG ": %s: read back generation %u / %u entries / map id 0x%016llx, wrote %u / %u / 0x%016llx\n",
			path, got.generation, got.nr,
			(unsigned long long)got.map_id, want->generation,
			want->nr, (unsigned long long)want->map_id);
	stackmap_snapshot_free(&got);
	return ret ? -1 : 0;
}

static int cmd_write(const char *path, const char *listing)
{
	struct stackmap_snapshot snap;
	struct sm_err err;
	void *buf = NULL;
	size_t len;
	int long_size, ret;

	long_size = trace_long_size(path);
	if (long_size != 4 && long_size != 8) {
		fprintf(stderr, PROG ": %s: not a readable trace.dat\n", path);
		return 1;
	}
	if (parse_listing(listing, long_size, &snap))
		return 1;
	ret = stackmap_snapshot_encode(&snap, &buf, &len, &err);
	if (ret)
		fprintf(stderr, PROG ": %s: %s\n", listing, err.msg);
	else if (len > INT_MAX)
		ret = -E2BIG;
	if (!ret)
		ret = append_option(path, STACKMAP_SNAPSHOT_OPTION, "snapshot",
				    buf, len);
	if (!ret)
		ret = verify(path, &snap);
	if (!ret)
		printf(PROG ": %s: generation %u, %u stacks, %zu bytes\n", path,
		       snap.generation, snap.nr, len);
	free(buf);
	stackmap_snapshot_free(&snap);
	return ret ? 1 : 0;
}

static int cmd_show(const char *path)
{
	struct stackmap_snapshot snap;
	struct sm_err err;
	unsigned long long hits = 0;
	sm_u32 i;

	if (stackmap_snapshot_read_tracedat(path, &snap, &err)) {
		fprintf(stderr, PROG ": %s\n", err.msg);
		return 1;
	}
	for (i = 0; i < snap.nr; i++)
		hits += snap.entries[i].hits;
	printf("generation %u entries %u hits %llu\n", snap.generation,
	       snap.nr, hits);
	for (i = 0; i < snap.nr; i++)
		printf("slot %u hits %u depth %u\n", snap.entries[i].slot,
		       snap.entries[i].hits, snap.entries[i].depth);
	stackmap_snapshot_free(&snap);
	return 0;
}

/* Read all of @path (at most @max bytes) into a NUL-terminated buffer. */
static char *read_file(const char *path, size_t max, size_t *len)
{
	char *buf = malloc(max + 1);
	size_t n = 0;
	FILE *f;

	f = buf ? fopen(path, "r") : NULL;
	if (!f) {
		fprintf(stderr, PROG ": %s: %s\n", path, strerror(errno));
		free(buf);
		return NULL;
	}
	n = fread(buf, 1, max + 1, f);
	if (ferror(f) || n > max) {
		fprintf(stderr, PROG ": %s: %s\n", path,
			n > max ? "larger than the tgids option may be" : "read error");
		fclose(f);
		free(buf);
		return NULL;
	}
	fclose(f);
	buf[n] = '\0';
	*len = n;
	return buf;
}

static int cmd_tgids(const char *path, const char *file)
{
	struct sm_tgids tg = { 0 };
	struct sm_err err;
	size_t len;
	char *buf;
	int ret;

	buf = read_file(file, STACKMAP_TGIDS_MAX_SIZE, &len);
	if (!buf)
		return 1;
	ret = sm_tgids_parse(&tg, buf, len, &err);
	if (ret)
		fprintf(stderr, PROG ": %s: %s\n", file, err.msg);
	if (!ret)
		ret = append_option(path, STACKMAP_TGIDS_OPTION, "tgids", buf, len);
	if (!ret) {
		struct sm_tgids back = { 0 };

		ret = sm_tgids_read_tracedat(&back, path, &err);
		if (ret)
			fprintf(stderr, PROG ": reading back: %s\n", err.msg);
		else if (sm_tgids_count(&back) != sm_tgids_count(&tg))
			fprintf(stderr, PROG ": %s: read back %zu tgids, wrote %zu\n",
				path, sm_tgids_count(&back),
				sm_tgids_count(&tg)), ret = -1;
		sm_tgids_fini(&back);
	}
	if (!ret)
		printf(PROG ": %s: tgids of %zu task%s, %zu bytes\n", path,
		       sm_tgids_count(&tg), sm_tgids_count(&tg) == 1 ? "" : "s",
		       len);
	sm_tgids_fini(&tg);
	free(buf);
	return ret ? 1 : 0;
}

int main(int argc, char **argv)
{
	/* libtracecmd warns about our own option ("unknown option 21332"). */
	tracecmd_set_loglevel(TEP_LOG_ERROR);
	if (argc == 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3]);
	if (argc == 4 && !strcmp(argv[1], "tgids"))
		return cmd_tgids(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "show"))
		return cmd_show(argv[2]);
	return usage();
}
