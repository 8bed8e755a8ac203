// SPDX-License-Identifier: GPL-2.0
/*
 * Static helper for the benchmarks that run in the qemu guest (busybox has
 * no nanosecond clock and no way to time a single write).  All times are
 * CLOCK_MONOTONIC nanoseconds of the guest.
 *
 *   benchtool now                  print the clock
 *   benchtool write FILE STRING    open FILE for appending (no O_TRUNC), time
 *                                  one write(2) of STRING, print the ns
 *   benchtool loop N               N getppid(2) syscalls, print ns per call
 *   benchtool xattr N SIZE         N fgetxattr(2) of SIZE bytes on "/" (each
 *                                  a kmalloc of SIZE bytes; the call fails,
 *                                  no such attribute), print ns per call
 *   benchtool idle N READYFILE     start N idle threads (64 KiB stacks),
 *                                  create READYFILE, then wait to be killed
 *
 * Exit: 0, or 1 with a message on stderr when anything fails.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#define IDLE_STACK	(64 * 1024)

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "benchtool: %s %s: %s\n", what, arg, strerror(errno));
	return 1;
}

static int cmd_write(const char *path, const char *text)
{
	size_t len = strlen(text);
	long long t0;
	ssize_t n;
	int fd = open(path, O_WRONLY | O_APPEND);

	if (fd < 0)
		return fail("open", path);
	t0 = now_ns();
	n = write(fd, text, len);
	t0 = now_ns() - t0;
	if (n != (ssize_t)len)
		return fail("write to", path);
	if (close(fd))
		return fail("close", path);
	printf("%lld\n", t0);
	return 0;
}

static int cmd_loop(long n)
{
	long long t0 = now_ns();

	for (long i = 0; i < n; i++)
		syscall(SYS_getppid);
	printf("%.1f\n", (double)(now_ns() - t0) / n);
	return 0;
}

/*
 * The kernel allocates the value buffer (kvzalloc(SIZE): a kmalloc under a
 * page) before it asks the file system, so every call hits kmem:kmalloc with
 * bytes_req == SIZE whatever the answer (ENODATA, EOPNOTSUPP).
 */
static int cmd_xattr(long n, long size)
{
	static char buf[4096];
	long long t0;
	int fd = open("/", O_RDONLY | O_DIRECTORY);

	if (fd < 0)
		return fail("open", "/");
	if (size > (long)sizeof(buf)) {
		fprintf(stderr, "benchtool: xattr size %ld over %zu\n", size, sizeof(buf));
		return 1;
	}
	t0 = now_ns();
	for (long i = 0; i < n; i++)
		fgetxattr(fd, "user.stackmap_bench", buf, size);
	printf("%.1f\n", (double)(now_ns() - t0) / n);
	close(fd);
	return 0;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

static int cmd_idle(long n, const char *ready)
{
	pthread_attr_t attr;
	int fd;

	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, IDLE_STACK);
	for (long i = 0; i < n; i++) {
		pthread_t t;
		int err = pthread_create(&t, &attr, idle_thread, NULL);

		if (err) {
			errno = err;
			fprintf(stderr, "benchtool: thread %ld of %ld: %s\n", i, n,
				strerror(errno));
			return 1;
		}
	}
	fd = open(ready, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		return fail("create", ready);
	close(fd);
	for (;;)
		pause();
}

static int usage(void)
{
	fprintf(stderr, "usage: benchtool now | write FILE STRING | loop N | xattr N SIZE | idle N READYFILE\n");
	return 1;
}

int main(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "now")) {
		printf("%lld\n", now_ns());
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "write"))
		return cmd_write(argv[2], argv[3]);
	if (argc == 3 && !strcmp(argv[1], "loop") && atol(argv[2]) > 0)
		return cmd_loop(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "xattr") && atol(argv[2]) > 0 && atol(argv[3]) > 0)
		return cmd_xattr(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "idle") && atol(argv[2]) > 0)
		return cmd_idle(atol(argv[2]), argv[3]);
	return usage();
}
