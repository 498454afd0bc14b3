// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * bench-spawn ARGV...: run ARGV once; print "<exit> <wall ns> <max RSS KiB> <CPU ns>".
 * A small launcher, because Linux keeps the pre-exec RSS high-water mark: a
 * child forked from a big interpreter would report the interpreter's size.
 */
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	struct timespec a, b;
	struct rusage ru;
	int status;
	pid_t pid;

	if (argc < 2)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &a);
	pid = fork();
	if (pid == 0) {
		execv(argv[1], argv + 1);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &status, 0, &ru) < 0)
		return 2;
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%d %lld %ld %lld\n", WIFEXITED(status) ? WEXITSTATUS(status) : 128,
	       (long long)(b.tv_sec - a.tv_sec) * 1000000000LL + (b.tv_nsec - a.tv_nsec), ru.ru_maxrss,
	       (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
		       (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL);
	return 0;
}
