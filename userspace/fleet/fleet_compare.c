// SPDX-License-Identifier: GPL-2.0
/*
 * The fleet comparison's inputs and exit status.  Reports are read one at
 * a time and reduced to a fingerprint before the next is read, so memory
 * holds one parsed document, whatever the fleet's size.
 *
 * An input that cannot be read (missing, not a regular file in a
 * directory, not JSON, not a report, over 64 MiB) does not stop the run:
 * among thousands of reports one bad file should not hide the others'
 * outliers.  It is said on stderr when met, listed in the result, and
 * makes the exit status 3, so that a health check never mistakes a
 * partial comparison for a whole one; but a broken pair found among the
 * others keeps exit status 2, so that one bad file never hides a node to
 * drain.  --skip-unreadable leaves unreadable inputs out of the status
 * (they are still listed and said); no input read at all is still 3.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fleet/fleet.h"
#include "fleet/fleet_priv.h"
#include "judge/outcome.h"
#include "platform/safe_text.h"
#include "report/report_file.h"

static int bad_add(struct fleet_state *st, FILE *errout, const char *name,
		   const char *why)
{
	struct fleet_unreadable *b;

	fprintf(errout, "p2pdiag-check: ");
	safe_fputs(why, errout);
	fputc('\n', errout);
	if (fleet_grow(&st->bad, &st->alloc_bad, st->nr_bad, sizeof(*st->bad), 16))
		return -1;
	b = &st->bad[st->nr_bad];
	b->name = strdup(name);
	b->why = strdup(why);
	if (!b->name || !b->why) {
		free(b->name);
		free(b->why);
		return -1;
	}
	st->nr_bad++;
	return 0;
}

static int read_report(struct fleet_state *st, FILE *errout, const char *path)
{
	char err[1024], *text;
	size_t len;
	int rc;

	err[0] = '\0';
	if (report_file_load(path, "report", &text, &len, err, sizeof(err)))
		return bad_add(st, errout, path, err);
	rc = fleet_fingerprint(st, path, text, len, err, sizeof(err));
	free(text);
	if (rc > 0)
		return bad_add(st, errout, path, err);
	return rc;
}

static int cmp_name(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static bool ends_json(const char *name)
{
	size_t n = strlen(name);

	return n > 5 && !strcmp(name + n - 5, ".json");
}

/* A directory's *.json files in name order; others are not looked at. */
static int read_dir(struct fleet_state *st, FILE *errout, const char *dir, DIR *d)
{
	char **names = NULL, *path, why[1200];
	size_t nr = 0, alloc = 0, i;
	struct dirent *e;
	int rc = -1;

	errno = 0;
	while ((e = readdir(d))) {
		if (e->d_name[0] == '.' || !ends_json(e->d_name))
			continue;
		if (fleet_grow(&names, &alloc, nr, sizeof(*names), 256))
			goto free_names;
		if (asprintf(&names[nr], "%s/%s", dir, e->d_name) < 0)
			goto free_names;
		nr++;
	}
	if (errno) {
		snprintf(why, sizeof(why), "cannot read the directory %s: %s", dir,
			 strerror(errno));
		rc = bad_add(st, errout, dir, why);
		goto free_names;
	}
	if (!nr) {
		snprintf(why, sizeof(why), "%s holds no .json report", dir);
		rc = bad_add(st, errout, dir, why);
		goto free_names;
	}
	qsort(names, nr, sizeof(*names), cmp_name);
	for (i = 0; i < nr; i++) {
		struct stat sb;

		path = names[i];
		/* a FIFO among the reports would block the run: regular files only */
		if (stat(path, &sb) || !S_ISREG(sb.st_mode)) {
			snprintf(why, sizeof(why), "cannot read report %s: %s", path,
				 access(path, F_OK) ? strerror(errno) :
				 "not a regular file");
			if (bad_add(st, errout, path, why))
				goto free_names;
			continue;
		}
		if (read_report(st, errout, path))
			goto free_names;
	}
	rc = 0;
free_names:
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int read_input(struct fleet_state *st, FILE *errout, const char *path)
{
	struct stat sb;
	DIR *d;
	int rc;

	if (!stat(path, &sb) && S_ISDIR(sb.st_mode)) {
		d = opendir(path);
		if (!d) {
			char why[1200];

			snprintf(why, sizeof(why), "cannot read the directory %s: %s",
				 path, strerror(errno));
			return bad_add(st, errout, path, why);
		}
		rc = read_dir(st, errout, path, d);
		closedir(d);
		return rc;
	}
	/* a file named on the command line may be a pipe: read to its end, bounded */
	return read_report(st, errout, path);
}

void fleet_state_free(struct fleet_state *st)
{
	uint32_t i;

	for (i = 0; i < st->nr_server; i++) {
		free((char *)st->server[i].name);
		free(st->server[i].fig);
	}
	free(st->server);
	for (i = 0; i < st->nr_group; i++)
		free(st->group[i].ref);
	free(st->group);
	for (i = 0; i < st->nr_outlier; i++)
		free(st->outlier[i].diff);
	free(st->outlier);
	for (i = 0; i < st->nr_bad; i++) {
		free(st->bad[i].name);
		free(st->bad[i].why);
	}
	free(st->bad);
	for (i = 0; i < st->nr_model; i++)
		free(st->model[i].ref);
	free(st->model);
	for (i = 0; i < st->nr_gdiff; i++)
		free(st->gdiff[i].diff);
	free(st->gdiff);
	free(st->inote);
	intern_free(&st->words);
	intern_free(&st->keys);
	intern_free(&st->facts);
}

/* The exit status a finding of @severity gives. */
static int severity_status(uint8_t severity)
{
	return severity == SEV_ERROR ? EXIT_P2P_BROKEN :
	       severity == SEV_WARNING ? EXIT_WARNINGS : EXIT_ALL_GOOD;
}

static void worse(int *status, int s)
{
	if (s > *status)
		*status = s;
}

int fleet_status(const struct fleet_state *st)
{
	uint32_t i;
	int status = EXIT_ALL_GOOD;

	if (!st->nr_server)
		return EXIT_USAGE;
	for (i = 0; i < st->nr_outlier; i++)
		worse(&status, severity_status(st->outlier[i].worst));
	for (i = 0; i < st->nr_gdiff; i++)
		worse(&status, severity_status(st->gdiff[i].worst));
	for (i = 0; i < st->nr_group; i++)
		if (st->group[i].nr_servers > 1 && st->group[i].nr_split)
			worse(&status, severity_status(st->group[i].split_worst));
	for (i = 0; i < st->nr_model; i++)
		if (st->model[i].nr_split)
			worse(&status, severity_status(st->model[i].split_worst));
	if (st->nr_inote)
		worse(&status, EXIT_WARNINGS);
	/* a partial comparison is no verdict, but never hides a broken pair */
	if (st->nr_bad && !st->skip_unreadable && status != EXIT_P2P_BROKEN)
		status = EXIT_USAGE;
	return status;
}

int fleet_compare(char *const *paths, unsigned int nr_paths, double tolerance,
		  bool skip_unreadable, bool json, FILE *out, FILE *errout)
{
	struct fleet_state st;
	unsigned int i;
	int status, rc;

	memset(&st, 0, sizeof(st));
	st.tolerance = tolerance;
	st.skip_unreadable = skip_unreadable;
	for (i = 0; i < nr_paths; i++)
		if (read_input(&st, errout, paths[i]))
			goto oom;
	if (!st.nr_server)
		fprintf(errout, "p2pdiag-check: no report could be read: nothing to compare\n");
	if (fleet_analyse(&st) || fleet_analyse_models(&st) || fleet_identity_check(&st))
		goto oom;
	status = fleet_status(&st);
	/* a reader that went away is a write error said, not death by SIGPIPE */
	signal(SIGPIPE, SIG_IGN);
	rc = json ? fleet_print_json(out, &st, status) : fleet_print_text(out, &st, status);
	if (rc || fflush(out) || ferror(out)) {
		fprintf(errout, "p2pdiag-check: cannot write the fleet comparison: %s\n",
			strerror(errno ? errno : EIO));
		status = EXIT_USAGE;
	}
	fleet_state_free(&st);
	return status;
oom:
	fprintf(errout, "p2pdiag-check: out of memory comparing the fleet\n");
	fleet_state_free(&st);
	return EXIT_USAGE;
}
