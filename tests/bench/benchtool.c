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
 *   benchtool loop-nr              print the number of the syscall loop makes
 *                                  (getppid's, 110 on x86-64, 173 on arm64: the
 *                                  guest's sys_enter filter)
 *   benchtool xattr N SIZE         N fgetxattr(2) of SIZE bytes on "/" (each
 *                                  a kmalloc of SIZE bytes; the call fails,
 *                                  no such attribute), print ns per call
 *   benchtool idle N READYFILE     start N idle threads (64 KiB stacks),
 *                                  create READYFILE, then wait to be killed
 *   benchtool slab N DIR[:FILES]...  N rounds of file-system and network
 *                                  work (B9s, the slab workload; cmd_slab)
 *
 * Exit: 0, or 1 with a message on stderr when anything fails.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
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

/*
 * B9s, the slab workload: what a kernel engineer traces kmalloc, kfree and
 * kmem_cache_alloc for, file-system and network work, in one process (the
 * shell loop around it adds fork and exec).  Each round:
 *   - in each DIR: a directory made; FILES files (default SLAB_FILES)
 *     created, written (sizes 512 B to 16 KiB), stat'ed, read back; the
 *     directory listed; each file renamed, given a symlink that is read,
 *     and removed; the directory removed (dentries, inodes, file structs,
 *     names, and on the 9p share the client's requests: a 9p file costs
 *     more than ten times the allocations of a tmpfs one);
 *   - SLAB_CONNS TCP connections over loopback: connect, accept,
 *     SLAB_EXCHANGES requests of 1 KiB answered with 2 KiB, close (socks,
 *     skbs, request socks, timers);
 *   - SLAB_DGRAMS UDP datagrams over loopback;
 *   - an AF_UNIX stream socketpair: SLAB_DGRAMS writes and reads.
 * The guest has no network set up: lo is brought up first when it is down
 * (the kernel gives it 127.0.0.1 then).
 */
#define SLAB_FILES	8
#define SLAB_CONNS	4
#define SLAB_EXCHANGES	8
#define SLAB_DGRAMS	16

static char slab_buf[16384];

static int lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM, 0);

	if (s < 0)
		return fail("socket", "AF_INET");
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	if (ioctl(s, SIOCGIFFLAGS, &ifr))
		return fail("SIOCGIFFLAGS", "lo");
	if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(s, SIOCSIFFLAGS, &ifr))
			return fail("SIOCSIFFLAGS", "lo");
	}
	close(s);
	return 0;
}

/* Write or read exactly len bytes of slab_buf on fd. */
static int full_io(int fd, size_t len, int writing, const char *what)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = writing ? write(fd, slab_buf + done, len - done) :
				      read(fd, slab_buf + done, len - done);

		if (n <= 0) {
			if (n == 0)
				errno = EPIPE;
			return fail(writing ? "write" : "read", what);
		}
		done += (size_t)n;
	}
	return 0;
}

/* full_io() on @fd, then close it; one error line either way. */
static int slab_file_io(int fd, size_t len, int writing, const char *what)
{
	if (full_io(fd, len, writing, what)) {
		close(fd);
		return 1;
	}
	return close(fd) ? fail("close", what) : 0;
}

/* One round in DIR[:FILES]. */
static int slab_files(const char *spec, long round)
{
	char d[4096], f[4200], g[4200], l[4200], target[4200];
	const char *colon = strrchr(spec, ':');
	int files = colon ? atoi(colon + 1) : SLAB_FILES;
	struct stat st;
	DIR *dh;

	snprintf(d, sizeof(d), "%.*s/r%ld", colon ? (int)(colon - spec) : (int)strlen(spec), spec, round);
	if (mkdir(d, 0755))
		return fail("mkdir", d);
	for (int i = 0; i < files; i++) {
		size_t len = (size_t)512 << (i % 6);
		int fd;

		snprintf(f, sizeof(f), "%s/f%d", d, i);
		fd = open(f, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return fail("create", f);
		if (slab_file_io(fd, len, 1, f))
			return 1;
		if (stat(f, &st))
			return fail("stat", f);
		fd = open(f, O_RDONLY);
		if (fd < 0)
			return fail("open", f);
		if (slab_file_io(fd, len, 0, f))
			return 1;
	}
	dh = opendir(d);
	if (!dh)
		return fail("opendir", d);
	while (readdir(dh))
		;
	closedir(dh);
	for (int i = 0; i < files; i++) {
		snprintf(f, sizeof(f), "%s/f%d", d, i);
		snprintf(g, sizeof(g), "%s/g%d", d, i);
		snprintf(l, sizeof(l), "%s/l%d", d, i);
		if (rename(f, g))
			return fail("rename", f);
		if (symlink(g, l) || readlink(l, target, sizeof(target)) < 0)
			return fail("symlink", l);
		if (unlink(l) || unlink(g))
			return fail("unlink", g);
	}
	if (rmdir(d))
		return fail("rmdir", d);
	return 0;
}

static int slab_tcp(int listener, const struct sockaddr_in *addr)
{
	int c = socket(AF_INET, SOCK_STREAM, 0), a;

	if (c < 0 || connect(c, (const struct sockaddr *)addr, sizeof(*addr)))
		return fail("connect", "127.0.0.1");
	a = accept(listener, NULL, NULL);
	if (a < 0)
		return fail("accept", "127.0.0.1");
	for (int i = 0; i < SLAB_EXCHANGES; i++)
		if (full_io(c, 1024, 1, "tcp") || full_io(a, 1024, 0, "tcp") ||
		    full_io(a, 2048, 1, "tcp") || full_io(c, 2048, 0, "tcp"))
			return 1;
	close(c);
	close(a);
	return 0;
}

static int slab_udp(void)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(addr);
	int r = socket(AF_INET, SOCK_DGRAM, 0), s = socket(AF_INET, SOCK_DGRAM, 0);

	if (r < 0 || s < 0 || bind(r, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(r, (struct sockaddr *)&addr, &alen))
		return fail("udp socket", "127.0.0.1");
	for (int i = 0; i < SLAB_DGRAMS; i++) {
		if (sendto(s, slab_buf, 512, 0, (struct sockaddr *)&addr, sizeof(addr)) != 512 ||
		    recv(r, slab_buf, sizeof(slab_buf), 0) != 512)
			return fail("udp datagram", "127.0.0.1");
	}
	close(r);
	close(s);
	return 0;
}

static int slab_unix(void)
{
	int sv[2];

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
		return fail("socketpair", "AF_UNIX");
	for (int i = 0; i < SLAB_DGRAMS; i++)
		if (full_io(sv[0], 1024, 1, "unix") || full_io(sv[1], 1024, 0, "unix"))
			return 1;
	close(sv[0]);
	close(sv[1]);
	return 0;
}

static int cmd_slab(long n, int ndirs, char **dirs)
{
	struct sockaddr_in addr = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t alen = sizeof(addr);
	int listener;

	memset(slab_buf, 'x', sizeof(slab_buf));
	if (lo_up())
		return 1;
	listener = socket(AF_INET, SOCK_STREAM, 0);
	if (listener < 0 || bind(listener, (struct sockaddr *)&addr, sizeof(addr)) ||
	    getsockname(listener, (struct sockaddr *)&addr, &alen) || listen(listener, 4))
		return fail("listen", "127.0.0.1");
	for (long r = 0; r < n; r++) {
		for (int i = 0; i < ndirs; i++)
			if (slab_files(dirs[i], r))
				return 1;
		for (int i = 0; i < SLAB_CONNS; i++)
			if (slab_tcp(listener, &addr))
				return 1;
		if (slab_udp() || slab_unix())
			return 1;
	}
	close(listener);
	return 0;
}

static int usage(void)
{
	fprintf(stderr, "usage: benchtool now | write FILE STRING | loop N | loop-nr | xattr N SIZE | idle N READYFILE | slab N DIR[:FILES]...\n");
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
	if (argc == 2 && !strcmp(argv[1], "loop-nr")) {
		printf("%d\n", SYS_getppid);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "loop") && atol(argv[2]) > 0)
		return cmd_loop(atol(argv[2]));
	if (argc == 4 && !strcmp(argv[1], "xattr") && atol(argv[2]) > 0 && atol(argv[3]) > 0)
		return cmd_xattr(atol(argv[2]), atol(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "idle") && atol(argv[2]) > 0)
		return cmd_idle(atol(argv[2]), argv[3]);
	if (argc >= 4 && !strcmp(argv[1], "slab") && atol(argv[2]) > 0)
		return cmd_slab(atol(argv[2]), argc - 3, argv + 3);
	return usage();
}
