// SPDX-License-Identifier: GPL-2.0
/*
 * The module source against a tree that goes away or turns bad while it is
 * read: the module unloaded between two reads, unloaded and loaded again
 * while a reader loops, value files holding NUL bytes or numbers too large,
 * a directory, FIFO, socket or device node where a file belongs, a table
 * larger than the bound.  Every
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
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "open_hook.h"
#include "tool_util.h"
#include "topology/source_sysfs.h"
#include "uapi/p2pdiag/abi.h"

void test_sysfs_vanish(struct ktap *k);

static void path_of(char *out, size_t len, const char *dir, const char *file)
{
	snprintf(out, len, "%s/%s", dir, file);
}

/*
 * The module unloads right after the reader took the generation: as the
 * reader opens generation, the hook removes every other file.
 */
struct unloader {
	const char *dir;
	int done;
};

static void unload_at_generation(const char *path, void *arg)
{
	static const char *const gone[] = { P2PD_FILE_ABI_VERSION,
		P2PD_FILE_TOPOLOGY, P2PD_FILE_PAIRS };
	struct unloader *u = arg;
	char want[PATH_MAX];
	unsigned int i;

	path_of(want, sizeof(want), u->dir, P2PD_FILE_GENERATION);
	if (u->done || strcmp(path, want))
		return;
	for (i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		path_of(want, sizeof(want), u->dir, gone[i]);
		unlink(want);
	}
	u->done = 1;
}

static void unloaded_between_reads(struct ktap *k, const struct p2pd_model *m)
{
	char *dir = make_tmpdir(), err[512] = "";
	struct unloader u = { dir, 0 };
	struct sysfs_snapshot s;
	int rc;

	make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
	open_hook_set(unload_at_generation, &u);
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	open_hook_set(NULL, NULL);
	ktap_result(k, rc == -1 && u.done && strstr(err, "unloaded") &&
		       strstr(err, P2PD_FILE_TOPOLOGY), err,
		    "sysfs: the module unloaded between two reads is said so, naming the file");
	if (!rc)
		sysfs_snapshot_free(&s);
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
		if (!sysfs_snapshot_read(tool_live_root(), tool_tree_root(l.dir), &s, err, sizeof(err))) {
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
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
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
	rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
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
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
	ktap_result(k, rc == -1 && strstr(err, "larger than 64 MiB") &&
		       strstr(err, P2PD_FILE_TOPOLOGY), err,
		    "sysfs: a topology file past 64 MiB is refused, not read on");
	remove_tree(dir);
	free(dir);
}

/*
 * A FIFO, a socket or a device node where the module has a regular file:
 * refused at once, naming the file and what it is.  A releaser opens a
 * FIFO's other end if the reader blocks in open() (as it did before the
 * guard), so a reader that blocks fails the test instead of hanging it.
 */
struct releaser {
	const char *path;
	volatile int stop;
};

static void *release_fifo(void *arg)
{
	struct releaser *r = arg;
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	unsigned int i;

	for (i = 0; i < 300 && !r->stop; i++) {
		int fd = open(r->path, O_WRONLY | O_NONBLOCK);

		if (fd >= 0) {
			close(fd);	/* a reader was waiting: it sees EOF */
			break;
		}
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static int make_socket(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	if (fd < 0 || strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		close(fd);
		return -1;
	}
	return fd;
}

static void special_files(struct ktap *k, const struct p2pd_model *m)
{
	static const struct {
		const char *file;
		char kind;	/* 'p' FIFO, 's' socket, 'c' the null device */
		const char *want, *what;
	} cases[] = {
		{ P2PD_FILE_ABI_VERSION, 'p', "a FIFO, not a regular file", "a FIFO" },
		{ P2PD_FILE_GENERATION, 'p', "a FIFO, not a regular file", "a FIFO" },
		{ P2PD_FILE_TOPOLOGY, 'p', "a FIFO, not a regular file", "a FIFO" },
		{ P2PD_FILE_PAIRS, 's', "a socket, not a regular file", "a socket" },
		{ P2PD_FILE_TOPOLOGY, 'c', "a character device, not a regular file",
		  "a device node" },
		{ P2PD_FILE_PAIRS, 'l', "leads out of the tree: not followed",
		  "a link to /dev/null" },
	};
	char *dir = make_tmpdir(), path[PATH_MAX], err[512];
	struct sysfs_snapshot s;
	unsigned int i;
	int rc;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct releaser r = { path, 0 };
		pthread_t th;
		int sock = -1, made;

		make_sysfs_tree(dir, m, CURRENT_ABI_TEXT);
		path_of(path, sizeof(path), dir, cases[i].file);
		unlink(path);
		if (cases[i].kind == 'p')
			made = !mkfifo(path, 0600);
		else if (cases[i].kind == 's')
			made = (sock = make_socket(path)) >= 0;
		else if (cases[i].kind == 'c')
			made = !make_null_device(path);
		else
			made = !symlink("/dev/null", path);
		if (!made && errno == EPERM) {
			ktap_skip(k, "not root: no device node can be made",
				  "sysfs: %s as %s", cases[i].what, cases[i].file);
			continue;
		}
		if (!made) {
			ktap_result(k, 0, strerror(errno), "sysfs: %s as %s (setup)",
				    cases[i].what, cases[i].file);
			continue;
		}
		pthread_create(&th, NULL, release_fifo, &r);
		err[0] = '\0';
		rc = sysfs_snapshot_read(tool_live_root(), tool_tree_root(dir), &s, err, sizeof(err));
		r.stop = 1;
		pthread_join(th, NULL);
		ktap_result(k, rc == -1 && strstr(err, path) && strstr(err, cases[i].want),
			    err, "sysfs: %s as %s is refused at once, naming it and what it is",
			    cases[i].what, cases[i].file);
		if (!rc)
			sysfs_snapshot_free(&s);
		if (sock >= 0)
			close(sock);
		unlink(path);
	}
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
	special_files(k, &m);
	free(m.fn);
}
