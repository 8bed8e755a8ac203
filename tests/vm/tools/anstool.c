// SPDX-License-Identifier: GPL-2.0
/*
 * Static guest helper of the "answers" VM test (test_answers.sh): work of
 * a known cost, so fgdecode's --weight and --off-cpu sums can be checked
 * against what was asked for.
 *
 *   anstool msg N LEN      N System V messages of LEN bytes: each msgsnd(2)
 *                          kmallocs one struct msg_msg of 48 + LEN bytes in
 *                          load_msg() (LEN <= 4048, so in one piece), then
 *                          msgrcv(2) frees it; the queue is created once
 *                          (one kmalloc in newque()) and removed at the end
 *   anstool sleep N MS     N nanosleep(2)s of MS milliseconds each
 *
 * Exit: 0, or 1 with a message on stderr.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <time.h>

#define MSG_MAX	4048		/* DATALEN_MSG: PAGE_SIZE - sizeof(struct msg_msg) */

struct message {
	long type;
	char text[MSG_MAX];
};

static int fail(const char *what)
{
	fprintf(stderr, "anstool: %s: %s\n", what, strerror(errno));
	return 1;
}

static int do_msg(long n, long len)
{
	static struct message m;
	int q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	long i;

	if (q < 0)
		return fail("msgget");
	m.type = 1;
	memset(m.text, 'x', sizeof(m.text));
	for (i = 0; i < n; i++) {
		if (msgsnd(q, &m, len, 0))
			return fail("msgsnd");
		if (msgrcv(q, &m, sizeof(m.text), 0, 0) != len)
			return fail("msgrcv");
	}
	if (msgctl(q, IPC_RMID, NULL))
		return fail("msgctl");
	return 0;
}

static int do_sleep(long n, long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	long i;

	for (i = 0; i < n; i++)
		if (nanosleep(&ts, NULL))
			return fail("nanosleep");
	return 0;
}

int main(int argc, char **argv)
{
	long a, b;

	if (argc != 4) {
		fprintf(stderr, "usage: anstool msg N LEN | anstool sleep N MS\n");
		return 1;
	}
	a = strtol(argv[2], NULL, 10);
	b = strtol(argv[3], NULL, 10);
	if (!strcmp(argv[1], "msg") && b > 0 && b <= MSG_MAX)
		return do_msg(a, b);
	if (!strcmp(argv[1], "sleep") && b > 0)
		return do_sleep(a, b);
	fprintf(stderr, "anstool: bad arguments\n");
	return 1;
}
