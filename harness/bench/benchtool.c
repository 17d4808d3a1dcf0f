// SPDX-License-Identifier: GPL-2.0
/*
 * slqb-benchtool: the guest's macro benchmarks (harness/guest/tests/bench.sh).
 * Each mode runs for SECS seconds and prints one number, operations per second:
 *   slqb-benchtool tcp_rr|tcp_crr|udp_rr SERVER_CPU CLIENT_CPU SECS
 *       loopback request/response (64 bytes each way) between a server and a
 *       client pinned to the given CPUs; tcp_crr connects for every request
 *   slqb-benchtool forkexec SECS      fork + exec /bin/true + wait
 *   slqb-benchtool files DIR SECS     create + write + stat + unlink a file in DIR
 *   slqb-benchtool mkfiles DIR N      create N files (for memory at a peak); prints N
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <arpa/inet.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MSG 64

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static int full_io(int fd, char *buf, int len, int out)
{
	int done = 0, n;

	while (done < len) {
		n = out ? write(fd, buf + done, len - done) : read(fd, buf + done, len - done);
		if (n <= 0)
			return -1;
		done += n;
	}
	return 0;
}

static void nodelay(int fd)
{
	int one = 1;

	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

/* The server: answers every request with a response of the same size. */
static void serve(const char *mode, int lfd)
{
	char buf[MSG];

	if (!strcmp(mode, "udp_rr")) {
		struct sockaddr_in peer;
		socklen_t len;

		for (;;) {
			len = sizeof(peer);
			if (recvfrom(lfd, buf, MSG, 0, (struct sockaddr *)&peer, &len) != MSG)
				continue;
			sendto(lfd, buf, MSG, 0, (struct sockaddr *)&peer, len);
		}
	}
	for (;;) {
		int fd = accept(lfd, NULL, NULL);

		if (fd < 0)
			continue;
		nodelay(fd);
		while (!full_io(fd, buf, MSG, 0) && !full_io(fd, buf, MSG, 1))
			;
		close(fd);
	}
}

static int connect_to(struct sockaddr_in *sa)
{
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	struct linger lg = { 1, 0 };	/* RST at close: no TIME_WAIT pile-up */

	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	if (connect(fd, (struct sockaddr *)sa, sizeof(*sa)))
		die("connect");
	nodelay(fd);
	return fd;
}

static double net(const char *mode, int scpu, int ccpu, double secs)
{
	int udp = !strcmp(mode, "udp_rr"), crr = !strcmp(mode, "tcp_crr");
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	char buf[MSG] = { 0 };
	long n = 0;
	double t0, t;
	int lfd, fd, one = 1;
	pid_t pid;

	if (!udp && !crr && strcmp(mode, "tcp_rr")) {
		fprintf(stderr, "unknown mode %s\n", mode);
		exit(2);
	}
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, udp ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (lfd < 0)
		die("socket");
	setsockopt(lfd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || getsockname(lfd, (struct sockaddr *)&sa, &len))
		die("bind");
	if (!udp && listen(lfd, 128))
		die("listen");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (pid == 0) {
		pin(scpu);
		serve(mode, lfd);
		_exit(0);
	}
	close(lfd);	/* the server has it */
	pin(ccpu);
	if (udp) {
		fd = socket(AF_INET, SOCK_DGRAM, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			die("udp connect");
	} else {
		fd = crr ? -1 : connect_to(&sa);
	}
	t0 = now();
	do {
		if (crr)
			fd = connect_to(&sa);
		if (full_io(fd, buf, MSG, 1) || full_io(fd, buf, MSG, 0))
			die("request/response");
		if (crr)
			close(fd);
		n++;
		t = now();
	} while (t - t0 < secs);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return n / (t - t0);
}

static double forkexec(double secs)
{
	double t0 = now(), t;
	long n = 0;
	pid_t pid;

	do {
		pid = fork();
		if (pid < 0)
			die("fork");
		if (pid == 0) {
			execl("/bin/true", "true", (char *)NULL);
			_exit(127);
		}
		if (waitpid(pid, NULL, 0) != pid)
			die("waitpid");
		n++;
		t = now();
	} while (t - t0 < secs);
	return n / (t - t0);
}

static double files(const char *dir, double secs)
{
	char path[256], data[100] = "slab churn";
	double t0 = now(), t;
	struct stat st;
	long n = 0;
	int fd;

	do {
		snprintf(path, sizeof(path), "%s/f%ld", dir, n % 64);
		fd = open(path, O_CREAT | O_WRONLY | O_TRUNC, 0644);
		if (fd < 0 || write(fd, data, sizeof(data)) != sizeof(data) || close(fd))
			die(path);
		if (stat(path, &st) || unlink(path))
			die(path);
		n++;
		t = now();
	} while (t - t0 < secs);
	return n / (t - t0);
}

static long mkfiles(const char *dir, long count)
{
	char path[256];
	long i;
	int fd;

	for (i = 0; i < count; i++) {
		snprintf(path, sizeof(path), "%s/m%ld", dir, i);
		fd = open(path, O_CREAT | O_WRONLY, 0644);
		if (fd < 0)
			die(path);
		close(fd);
	}
	return count;
}

int main(int argc, char **argv)
{
	const char *usage = "usage: slqb-benchtool tcp_rr|tcp_crr|udp_rr SCPU CCPU SECS | forkexec SECS | files DIR SECS | mkfiles DIR N\n";

	if (argc == 5) {
		printf("%.1f\n", net(argv[1], atoi(argv[2]), atoi(argv[3]), atof(argv[4])));
	} else if (argc == 3 && !strcmp(argv[1], "forkexec")) {
		printf("%.1f\n", forkexec(atof(argv[2])));
	} else if (argc == 4 && !strcmp(argv[1], "files")) {
		printf("%.1f\n", files(argv[2], atof(argv[3])));
	} else if (argc == 4 && !strcmp(argv[1], "mkfiles")) {
		printf("%ld\n", mkfiles(argv[2], atol(argv[3])));
	} else {
		fputs(usage, stderr);
		return 2;
	}
	return 0;
}
