// SPDX-License-Identifier: GPL-2.0
/*
 * Linked into a guest program whose output goes to a file: stdout by lines,
 * as on a terminal, so that a line is out before the program forks (a
 * child's exit would print a copy of a full buffer again).
 */
#include <stdio.h>

static void __attribute__((constructor)) stdout_lines(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
}
