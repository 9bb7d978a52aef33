// SPDX-License-Identifier: GPL-2.0
/*
 * The module source against a tree that goes away or turns bad while it is
 * read: the module unloaded between two reads, unloaded and loaded again
 * while a reader loops, value files holding NUL bytes or numbers too large,
 * a directory where a file belongs, a table larger than the bound.  Every
 * read either gives the whole snapshot or fails with a sentence naming
 * what went wrong; none crashes, hangs or returns part of a tree.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "tool_util.h"
#include "topology/source_sysfs.h"
#include "p2pdiag/abi.h"

void test_sysfs_vanish(struct ktap *k);

static void path_of(char *out, size_t len, const char *dir, const char *file)
{
	snprintf(out, len, "%s/%s", dir, file);
}

/*
 * The module unloads right after the reader took the generation: the
 * generation is a FIFO; the "module" waits for the reader to open it,
 * removes every other file, then hands out the number.
 */
struct unloader {
	const char *dir;
	int done;
};

static void *unload_after_generation(void *arg)
{
	static const char *const gone[] = { P2PD_FILE_ABI_VERSION,
		P2PD_FILE_TOPOLOGY, P2PD_FILE_PAIRS };
	struct unloader *u = arg;
	char path[PATH_MAX];
	unsigned int i;
	int fd;

	path_of(path, sizeof(path), u->dir, P2PD_FILE_GENERATION);
	fd = open(path, O_WRONLY);	/* until the reader opens it */
	if (fd < 0)
		return NULL;
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		path_of(path, sizeof(path), u->dir, gone[i]);
		unlink(path);
	}
	if (write(fd, "7\n", 2) == 2)
		u->done = 1;
	close(fd);
	return NULL;
}

static void unloaded_between_reads(struct ktap *k, const struct p2pd_model *m)
{
	char *dir = make_tmpdir(), path[PATH_MAX], err[512] = "";
	struct unloader u = { dir, 0 };
	struct sysfs_snapshot s;
	pthread_t th;
	int rc = 0;

	make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
	path_of(path, sizeof(path), dir, P2PD_FILE_GENERATION);
	if (unlink(path) || mkfifo(path, 0600)) {
		ktap_result(k, 0, strerror(errno), "sysfs: module unloaded between reads (setup)");
		goto out;
	}
	pthread_create(&th, NULL, unload_after_generation, &u);
	rc = sysfs_snapshot_read(dir, &s, err, sizeof(err));
	pthread_join(th, NULL);
	ktap_result(k, rc == -1 && u.done && strstr(err, "unloaded") &&
		       strstr(err, P2PD_FILE_TOPOLOGY), err,
		    "sysfs: the module unloaded between two reads is said so, naming the file");
	if (!rc)
		sysfs_snapshot_free(&s);
out:
	remove_tree(dir);
	free(dir);
}

/*
 * A module loaded and unloaded over and over (the directory renamed away
 * and back, as kernfs removes it at once) under a reader: each read is the
 * whole snapshot or a clear error.
 */
struct loader {
	char *dir, gone[PATH_MAX];
	volatile int stop;
	volatile unsigned int cycles;
};

static void *load_unload(void *arg)
{
	struct loader *l = arg;
	struct timespec pause = { 0, 200 * 1000 };

	while (!l->stop) {
		if (rename(l->dir, l->gone))
			break;
		nanosleep(&pause, NULL);
		if (rename(l->gone, l->dir))
			break;
		nanosleep(&pause, NULL);
		l->cycles++;
	}
	return NULL;
}

static void load_unload_under_reader(struct ktap *k, const struct p2pd_model *m)
{
	struct loader l = { .dir = make_tmpdir() };
	unsigned int i, whole = 0, refused = 0, unclear = 0, partial = 0;
	char err[512], why[600] = "";
	time_t deadline;
	struct sysfs_snapshot s;
	pthread_t th;

	snprintf(l.gone, sizeof(l.gone), "%s.unloaded", l.dir);
	make_sysfs_tree(l.dir, m, CURRENT_ABI_TEXT);
	pthread_create(&th, NULL, load_unload, &l);
	deadline = time(NULL) + 20;
	/* 2000 reads and 50 load cycles at least, 20 s at most */
	for (i = 0; (i < 2000 || l.cycles < 50) && time(NULL) < deadline; i++) {
		err[0] = '\0';
		if (!sysfs_snapshot_read(l.dir, &s, err, sizeof(err))) {
			if (s.model.nr_fn == m->nr_fn &&
			    s.generation == m->generation)
				whole++;
			else
				partial++;
			sysfs_snapshot_free(&s);
		} else if (err[0] && strstr(err, l.dir)) {
			refused++;
		} else {
			if (!unclear++)
				snprintf(why, sizeof(why), "unclear error: '%s'", err);
		}
	}
	l.stop = 1;
	pthread_join(th, NULL);
	if (access(l.dir, F_OK))
		rename(l.gone, l.dir);
	ktap_result(k, !partial && !unclear && whole + refused == i, why,
		    "sysfs: %u reads while the module loads and unloads (%u cycles): %u whole, %u refused naming the tree, none partial",
		    i, l.cycles, whole, refused);
	remove_tree(l.dir);
	free(l.dir);
}

/* Values a broken or foreign tree may hold: each refused, naming the file. */
static void bad_values(struct ktap *k, const struct p2pd_model *m)
{
	static const struct {
		const char *file, *text;
		size_t len;
		const char *want, *what;
	} cases[] = {
		{ P2PD_FILE_ABI_VERSION, CURRENT_ABI_TEXT "\0junk\n",
		  sizeof(CURRENT_ABI_TEXT) + 5, "NUL",
		  "this ABI's abi_version followed by a NUL byte" },
		{ P2PD_FILE_GENERATION, "7\0\n", 3, "NUL",
		  "a generation with a NUL byte" },
		{ P2PD_FILE_GENERATION, "18446744073709551616\n", 21,
		  "not a generation number", "a generation past 2^64" },
		{ P2PD_FILE_GENERATION, "-7\n", 3, "not a generation number",
		  "a negative generation" },
		{ P2PD_FILE_GENERATION, "", 0, "not a generation number",
		  "an empty generation" },
	};
	char *dir = make_tmpdir(), path[PATH_MAX], err[512];
	struct sysfs_snapshot s;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
		path_of(path, sizeof(path), dir, cases[i].file);
		write_file(path, cases[i].text, cases[i].len);
		err[0] = '\0';
		rc = sysfs_snapshot_read(dir, &s, err, sizeof(err));
		ktap_result(k, rc == -1 && strstr(err, cases[i].want) &&
			       strstr(err, cases[i].file), err,
			    "sysfs: %s is refused, naming the file", cases[i].what);
		if (!rc)
			sysfs_snapshot_free(&s);
	}

	/* a directory where the topology file belongs */
	make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
	path_of(path, sizeof(path), dir, P2PD_FILE_TOPOLOGY);
	unlink(path);
	mkdir(path, 0755);
	rc = sysfs_snapshot_read(dir, &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, P2PD_FILE_TOPOLOGY) &&
		       strstr(err, "directory"), err,
		    "sysfs: a directory in place of topology is refused");
	rmdir(path);

	/* a topology past the bound: a sparse file of 64 MiB + 1 */
	make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
	{
		int fd = open(path, O_WRONLY | O_TRUNC);

		rc = fd < 0 || ftruncate(fd, (off_t)SYSFS_TABLE_MAX + 1);
		if (fd >= 0)
			close(fd);
	}
	if (!rc)
		rc = sysfs_snapshot_read(dir, &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "larger than 64 MiB") &&
		       strstr(err, P2PD_FILE_TOPOLOGY), err,
		    "sysfs: a topology file past 64 MiB is refused, not read on");
	remove_tree(dir);
	free(dir);
}

void test_sysfs_vanish(struct ktap *k)
{
	struct p2pd_model m;

	switch_model(&m, 0, 0x8086);
	unloaded_between_reads(k, &m);
	load_unload_under_reader(k, &m);
	bad_values(k, &m);
	free(m.fn);
}
