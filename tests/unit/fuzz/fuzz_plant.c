// SPDX-License-Identifier: GPL-2.0
/* A planted tree's scratch directory and lines (fuzz_plant.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_plant.h"

static char scratch[PATH_MAX];

static void remove_scratch(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", scratch);
	if (system(cmd))
		fprintf(stderr, "cannot remove %s\n", scratch);
}

void fuzz_plant_scratch(const char *what, char *out, size_t len)
{
	const char *tmp = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";

	snprintf(scratch, sizeof(scratch), "%s/p2pdiag-fuzz-%s-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp", what);
	if (!mkdtemp(scratch))
		abort();
	atexit(remove_scratch);
	/* as descriptors will say it: no link on the way */
	if (!realpath(scratch, out) || strlen(out) >= len)
		abort();
}

void fuzz_plant_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "wx");

	if (!f || fputs(text, f) < 0 || fclose(f))
		abort();
}

void fuzz_plant_lines(const uint8_t *data, size_t size, fuzz_plant_fn each,
		      void *arg)
{
	char *text = malloc(size + 1), *line, *save = NULL;

	if (!text)
		return;
	memcpy(text, data, size);
	text[size] = '\0';
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *name, *target;

		if (strlen(line) < 3 || line[1] != ' ')
			continue;
		name = line + 2;
		target = strchr(name, ' ');
		if (target)
			*target++ = '\0';
		each(line[0], name, target, arg);
	}
	free(text);
}
