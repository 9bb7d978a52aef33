// SPDX-License-Identifier: GPL-2.0
/* The one way output files are replaced: see atomic_file.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "report/atomic_file.h"

int atomic_file_write(const char *path, atomic_file_writer write,
		      const void *ctx, char *err, size_t errlen)
{
	size_t len = strlen(path) + sizeof(".tmp");
	char *tmp = malloc(len);
	FILE *f;
	int saved;

	if (!tmp) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	snprintf(tmp, len, "%s.tmp", path);
	f = fopen(tmp, "we");
	if (!f) {
		snprintf(err, errlen, "cannot create %s: %s", tmp, strerror(errno));
		free(tmp);
		return -1;
	}
	errno = 0;
	if (write(f, ctx) || fflush(f) || ferror(f) || fsync(fileno(f))) {
		saved = errno ? errno : EIO;
		fclose(f);
		unlink(tmp);
		snprintf(err, errlen, "cannot write %s: %s", tmp, strerror(saved));
		free(tmp);
		return -1;
	}
	if (fclose(f) || rename(tmp, path)) {
		saved = errno;
		unlink(tmp);
		snprintf(err, errlen, "cannot put %s in place: %s", path,
			 strerror(saved));
		free(tmp);
		return -1;
	}
	free(tmp);
	return 0;
}
