// SPDX-License-Identifier: GPL-2.0
/* The topology generators' command line and output (topology_out.h). */
#include <stdio.h>
#include <stdlib.h>

#include "p2pdiag/format.h"
#include "topology/format_text.h"
#include "topology_out.h"

unsigned int arg_number(const char *prog, const char *s, const char *what,
			unsigned long max)
{
	char *end;
	unsigned long v = strtoul(s, &end, 10);

	if (!*s || *end || v > max) {
		fprintf(stderr, "%s: %s '%s' is not a number from 0 to %lu\n",
			prog, what, s, max);
		exit(2);
	}
	return (unsigned int)v;
}

int write_topology(const char *prog, const struct p2pd_model *m)
{
	size_t len;
	char *text = format_text(p2pd_format_topology_file, m, &len);

	if (!text || fwrite(text, 1, len, stdout) != len || fflush(stdout)) {
		perror(prog);
		free(text);
		return 1;
	}
	free(text);
	return 0;
}
