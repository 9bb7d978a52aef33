// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the module source: sysfs_snapshot_read() over a
 * fake /sys/kernel/p2pdiag whose topology and pairs files are the input,
 * split at its first form feed (\f): topology before it, pairs after it.
 * abi_version is this tool's and generation 7, as in the seeds.  This covers the
 * header and trailer checks of both files, the retry on a generation that
 * does not match and the topology parser as the tool meets it.  Any input
 * is either refused with a message, leaving nothing behind, or gives a
 * sorted model the engine judges on every pair, with both texts
 * NUL-terminated at their lengths.  Anything else aborts.
 */
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"
#include "p2pdiag/verdict.h"
#include "tool_util.h"
#include "topology/source_sysfs.h"

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char root[PATH_MAX];

static void put(const char *name, const void *data, size_t size)
{
	char path[PATH_MAX];
	size_t done = 0;
	int fd;

	snprintf(path, sizeof(path), "%s/%s", root, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		perror(path);
		abort();
	}
	while (done < size) {
		ssize_t n = write(fd, (const char *)data + done, size - done);

		if (n <= 0)
			abort();
		done += (size_t)n;
	}
	close(fd);
}

static void remove_root(void)
{
	static const char *const files[] = { P2PD_FILE_ABI_VERSION,
		P2PD_FILE_GENERATION, P2PD_FILE_TOPOLOGY, P2PD_FILE_PAIRS };
	char path[PATH_MAX];
	unsigned int i;

	for (i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, files[i]);
		unlink(path);
	}
	rmdir(root);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *tmp = access("/dev/shm", W_OK) ? getenv("TMPDIR") : "/dev/shm";

	(void)argc;
	(void)argv;
	snprintf(root, sizeof(root), "%s/p2pdiag-fuzz-sysfs-XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(root)) {
		perror(root);
		abort();
	}
	atexit(remove_root);
	put(P2PD_FILE_ABI_VERSION, CURRENT_ABI_TEXT, sizeof(CURRENT_ABI_TEXT) - 1);
	put(P2PD_FILE_GENERATION, "7\n", 2);
	return 0;
}

static void check_snapshot(const struct sysfs_snapshot *s)
{
	int x = P2PD_NO_INDEX, y = P2PD_NO_INDEX;
	struct p2pd_pair p;
	struct p2pd_buf b;

	if (s->generation != 7 || s->attempts != 1 ||
	    s->topology[s->topology_len] || s->pairs[s->pairs_len]) {
		fprintf(stderr, "snapshot of another generation, or texts not terminated\n");
		abort();
	}
	if (p2pd_model_check(&s->model)) {
		fprintf(stderr, "model not sorted, or an address twice\n");
		abort();
	}
	while (p2pd_next_pair(&s->model, &x, &y))
		if (p2pd_judge(&s->model, x, y, &p)) {
			fprintf(stderr, "the engine refused a pair of a parsed model\n");
			abort();
		}
	p2pd_buf_init(&b, NULL, 0);
	p2pd_format_pairs(&b, &s->model);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *split = memchr(data, '\f', size);
	size_t tlen = split ? (size_t)(split - data) : size;
	struct sysfs_snapshot s;
	char err[1024];

	put(P2PD_FILE_TOPOLOGY, data, tlen);
	put(P2PD_FILE_PAIRS, split ? split + 1 : data, split ? size - tlen - 1 : 0);
	err[0] = '\0';
	if (sysfs_snapshot_read(tool_live_root(), tool_tree_root(root), &s, err, sizeof(err))) {
		if (!err[0] || s.topology || s.pairs || s.model.fn) {
			fprintf(stderr, "refused without a reason, or left buffers behind\n");
			abort();
		}
		return 0;
	}
	check_snapshot(&s);
	sysfs_snapshot_free(&s);
	return 0;
}
