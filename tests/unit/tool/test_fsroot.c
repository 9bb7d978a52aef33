// SPDX-License-Identifier: GPL-2.0
/*
 * The root of system reads: paths land under it, links and resolved
 * paths map back to live-machine names, a path that resolves outside it
 * is refused, and unreadable, oversized or FIFO files are errors, not
 * hangs.
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
#include "platform/confined_path.h"
#include "platform/fsroot.h"
#include "platform/system_file.h"
#include "topology/source_pci.h"
#include "topology/iommu_type.h"

void test_fsroot(struct ktap *k);

static void mkdirs(const char *root, const char *rel)
{
	char path[PATH_MAX], *p;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (p = path + strlen(root) + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	mkdir(path, 0755);
}

static void put(const char *root, const char *rel, const char *text)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (write_file(path, text, strlen(text)))
		fprintf(stderr, "# cannot write %s\n", path);
}

static void link_at(const char *root, const char *target, const char *rel)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	if (symlink(target, path))
		fprintf(stderr, "# cannot link %s\n", path);
}

static volatile int renames_stop;

/* Renames a file back and forth in @arg's directory until told to stop. */
static void *renames(void *arg)
{
	const char *dir = arg;
	char a[PATH_MAX], b[PATH_MAX];

	snprintf(a, sizeof(a), "%s/r1", dir);
	snprintf(b, sizeof(b), "%s/r2", dir);
	while (!renames_stop) {
		rename(a, b);
		rename(b, a);
	}
	return NULL;
}

/*
 * A path with ".." under a root while another thread renames files
 * elsewhere: openat2(2) may say EAGAIN for each such race, which must not
 * read as a file that does not open.
 */
static void renames_elsewhere(struct ktap *k, const char *top)
{
	char root[PATH_MAX], ren[PATH_MAX];
	unsigned int i, failed = 0, n = 20000;
	struct timespec start, now;
	pthread_t thread;
	int e = 0;

	snprintf(root, sizeof(root), "%s/race-root", top);
	snprintf(ren, sizeof(ren), "%s/race-renames", top);
	mkdir(root, 0755);
	mkdirs(root, "a/b");
	put(root, "a/f", "x\n");
	mkdir(ren, 0755);
	put(ren, "r1", "x\n");
	renames_stop = 0;
	if (pthread_create(&thread, NULL, renames, ren)) {
		CHECK(k, 0, "fsroot: a thread renames beside the reads");
		return;
	}
	/* 20000 reads, or as many as 2 s allow where each is slow (valgrind) */
	clock_gettime(CLOCK_MONOTONIC, &start);
	for (i = 0; i < n; i++) {
		int fd;

		if (!(i % 256)) {
			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec - start.tv_sec >= 2)
				break;
		}
		fd = confined_open(root, "/a/b/../f", O_RDONLY);
		if (fd >= 0) {
			close(fd);
		} else {
			failed++;
			e = errno;
		}
	}
	renames_stop = 1;
	pthread_join(thread, NULL);
	CHECK(k, !failed,
	      "fsroot: a path with \"..\" opens while renames run elsewhere (%u of %u failed%s%s)",
	      failed, i, failed ? ": " : "", failed ? strerror(e) : "");
}

void test_fsroot(struct ktap *k)
{
	char *dir = make_tmpdir(), err[256], buf[64], path[PATH_MAX];
	char big[FSROOT_VALUE_MAX + 16];
	struct fsroot root;
	struct fsroot_refusal refused = { { 0 } }, other;
	unsigned int cpu = 0;
	bool null_made;
	int rc;

	mkdirs(dir, "proc");
	mkdirs(dir, "sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0");
	mkdirs(dir, "sys/bus/pci/devices");
	mkdirs(dir, "sys/bus/pci/drivers/mlx5_core");
	mkdirs(dir, "sys/kernel/iommu_groups/5");
	mkdirs(dir, "sys/kernel/iommu_groups/6");
	mkdirs(dir, "sys/kernel/iommu_groups/7");
	put(dir, "sys/kernel/iommu_groups/5/type", "DMA-FQ\n");
	put(dir, "sys/kernel/iommu_groups/6/type", "identity\n");
	put(dir, "sys/kernel/iommu_groups/7/type", "something-new\n");
	put(dir, "proc/cmdline", "BOOT_IMAGE=/vmlinuz pci=noacs\n");
	put(dir, "proc/cpuinfo",
	    "processor\t: 0\nvendor_id\t: AuthenticAMD\ncpu family\t: 25\n\n");
	link_at(dir, "../../../devices/pci0000:00/0000:00:01.0/0000:01:00.0",
		"sys/bus/pci/devices/0000:01:00.0");
	link_at(dir, "../../../bus/pci/drivers/mlx5_core",
		"sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0/driver");
	link_at(dir, "/etc", "sys/bus/pci/devices/escape");
	memset(big, 'x', sizeof(big) - 1);
	big[sizeof(big) - 1] = '\0';
	put(dir, "proc/big", big);
	snprintf(path, sizeof(path), "%s/proc/nul", dir);
	{
		static const char nul_value[] = "pci=noacs\0 iommu=off\n";
		FILE *f = fopen(path, "w");

		if (f) {
			fwrite(nul_value, 1, sizeof(nul_value) - 1, f);
			fclose(f);
		}
	}
	snprintf(path, sizeof(path), "%s/proc/fifo", dir);
	mkfifo(path, 0600);
	snprintf(path, sizeof(path), "%s/proc/null", dir);
	null_made = !make_null_device(path);
	link_at(dir, "/dev/null", "proc/devnull");
	link_at(dir, "../../outside", "proc/dotdot");
	link_at(dir, "../proc/cmdline", "sys/cmdline-inside");

	CHECK(k, fsroot_init(&root, dir, err, sizeof(err)) == 0 && !fsroot_is_live(&root),
	      "fsroot: a directory becomes the root");
	CHECK(k, !fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/cmdline") &&
	      !strcmp(buf, "BOOT_IMAGE=/vmlinuz pci=noacs"),
	      "fsroot: /proc/cmdline is read under the root, without its newline");
	CHECK(k, !fsroot_path(&root, path, sizeof(path), "/proc/cpuinfo") &&
	      !cpu_flags_from_cpuinfo(path, &cpu) && (cpu & P2PD_CPU_ROUTES_P2P),
	      "fsroot: the root's cpuinfo gives its CPU (AMD Zen)");
	CHECK(k, !fsroot_link_name(&root, buf, sizeof(buf),
				   "/sys/bus/pci/devices/%s/driver", "0000:01:00.0") &&
	      !strcmp(buf, "mlx5_core"),
	      "fsroot: a device's driver link names its driver");
	CHECK(k, !fsroot_realpath(&root, path, sizeof(path), "/sys/bus/pci/devices/0000:01:00.0") &&
	      !strcmp(path, "/sys/devices/pci0000:00/0000:00:01.0/0000:01:00.0"),
	      "fsroot: a resolved path comes back as a live-machine path");
	errno = 0;
	CHECK(k, fsroot_realpath(&root, path, sizeof(path), "/sys/bus/pci/devices/escape") &&
	      errno == EXDEV,
	      "fsroot: a link out of the root is refused (EXDEV)");
	errno = 0;
	CHECK(k, fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/big") && errno == EFBIG,
	      "fsroot: a file larger than the buffer is EFBIG, not cut short");
	errno = 0;
	CHECK(k, fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/nul") && errno == EBADMSG,
	      "fsroot: a value holding a NUL byte is EBADMSG, not cut short at it");
	errno = 0;
	rc = fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/fifo");
	CHECK(k, rc == -1 && errno == ENXIO,
	      "fsroot: a FIFO is refused at once (ENXIO), not read (no hang)");
	errno = 0;
	if (null_made)
		CHECK(k, !fsroot_fopen(&root, &refused, "/proc/null") && errno == ENXIO,
		      "fsroot: a device node opened as a stream is refused (ENXIO)");
	else
		ktap_skip(k, "not root: none can be made", "fsroot: a device node");
	errno = 0;
	CHECK(k, !fsroot_fopen(&root, &refused, "/proc/devnull") && errno == EXDEV,
	      "fsroot: a link to /dev/null leads out of the root: EXDEV, never opened");
	CHECK(k, fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/dotdot") && errno == EXDEV,
	      "fsroot: a link by .. above the root is EXDEV");
	CHECK(k, !fsroot_read(&root, &refused, buf, sizeof(buf), "/sys/cmdline-inside") &&
	      !strcmp(buf, "BOOT_IMAGE=/vmlinuz pci=noacs"),
	      "fsroot: a link that stays inside the root is followed");
	{
		/* the walk as on kernels without openat2(2): the same answers */
		static const struct {
			const char *path;
			int e;		/* 0: opens */
		} walked[] = {
			{ "/proc/cmdline", 0 },
			{ "/proc/cmdline/", ENOTDIR },	/* a file is no directory */
			{ "/sys/cmdline-inside", 0 },
			{ "/sys/cmdline-inside/", ENOTDIR },
			{ "/sys/bus/pci/devices/0000:01:00.0/", 0 },
			/* ".." after a link goes up from where it led */
			{ "/sys/bus/pci/devices/0000:01:00.0/../../../..", 0 },
			{ "/sys/bus/pci/devices/0000:01:00.0/../../../../..", 0 },
			{ "/sys/bus/pci/devices/0000:01:00.0/../../../../../..", EXDEV },
			{ "/proc/devnull", EXDEV },
			{ "/proc/dotdot", EXDEV },
			{ "/../proc/cmdline", EXDEV },
		};
		unsigned int i;

		for (i = 0; i < sizeof(walked) / sizeof(walked[0]); i++) {
			int fd = confined_open_walk(dir, walked[i].path, O_RDONLY);
			int e = fd < 0 ? errno : 0;
			int kfd = confined_open(dir, walked[i].path, O_RDONLY);
			int ke = kfd < 0 ? errno : 0;

			CHECK(k, e == walked[i].e && ke == e,
			      "fsroot: %s under the root: the walk and openat2 agree (%s)",
			      walked[i].path, e ? strerror(e) : "opens");
			if (fd >= 0)
				close(fd);
			if (kfd >= 0)
				close(kfd);
		}
	}
	renames_elsewhere(k, dir);
	CHECK(k, !fsroot_exists(&root, "/sys/bus/pci/devices/escape/passwd") &&
	      fsroot_opendir(&root, "/sys/bus/pci/devices/escape") == NULL && errno == EXDEV,
	      "fsroot: a directory linked out of the root neither exists nor opens");
	errno = 0;
	CHECK(k, fsroot_read(&root, &refused, buf, sizeof(buf), "/proc") && errno == EISDIR,
	      "fsroot: a directory read as a file is refused (EISDIR)");
	{
		mode_t found = 0;
		int fd;

		errno = 0;
		fd = fsroot_path(&root, path, sizeof(path), "/proc/fifo") ? 0 :
		     system_file_open(NULL, path, &found);
		CHECK(k, fd == -1 && errno == ENXIO && S_ISFIFO(found) &&
		      strstr(system_file_strerror(errno, found), "a FIFO, not a regular file"),
		      "fsroot: the refusal's message says the file is a FIFO");
		/* the kind is the one the open saw, not looked up again */
		CHECK(k, !unlink(path) &&
		      !strcmp(system_file_strerror(ENXIO, found), "a FIFO, not a regular file"),
		      "fsroot: the refused file's kind stands once the FIFO is gone");
		mkfifo(path, 0600);
		fd = fsroot_path(&root, path, sizeof(path), "/proc/cmdline") ? -1 :
		     system_file_open(NULL, path, &found);
		CHECK(k, fd >= 0 && S_ISREG(found) && !system_file_refused(found) &&
		      !strcmp(system_file_strerror(EIO, found), strerror(EIO)),
		      "fsroot: a regular file is opened, and a later error is strerror's");
		if (fd >= 0)
			close(fd);
	}
	CHECK(k, fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/absent") && errno == ENOENT &&
	      !fsroot_exists(&root, "/proc/absent") && fsroot_exists(&root, "/proc/cmdline"),
	      "fsroot: an absent file is ENOENT");
	{
		/* as the module publishes them: groups, types left unknown */
		struct p2pd_function fn[4] = {
			{ .iommu_group = 5, .iommu_domain = P2PD_IOMMU_UNKNOWN },
			{ .iommu_group = 6, .iommu_domain = P2PD_IOMMU_UNKNOWN },
			{ .iommu_group = 7, .iommu_domain = P2PD_IOMMU_UNKNOWN },
			{ .iommu_group = -1, .iommu_domain = P2PD_IOMMU_NONE },
		};
		struct p2pd_model m = { .fn = fn, .nr_fn = 4 };
		enum p2pd_iommu_domain type = P2PD_IOMMU_NONE;

		err[0] = 'x';
		rc = iommu_fill_group_types(&root, &m, err, sizeof(err));
		CHECK(k, !rc && !err[0] &&
		      fn[0].iommu_domain == P2PD_IOMMU_TRANSLATED &&
		      fn[1].iommu_domain == P2PD_IOMMU_IDENTITY &&
		      fn[2].iommu_domain == P2PD_IOMMU_UNKNOWN &&
		      fn[3].iommu_domain == P2PD_IOMMU_NONE &&
		      !iommu_group_type(&root, 8, &type, err, sizeof(err)) &&
		      type == P2PD_IOMMU_UNKNOWN && !err[0],
		      "fsroot: IOMMU domain types from the groups' type files (DMA-FQ, identity; an unknown word or a missing group unknown)");
		{
			char word[32];

			/* the word as read, for evidence; decided by the one rule */
			CHECK(k, iommu_group_read_type(&root, 5, word, sizeof(word), &type,
						       err, sizeof(err)) == 1 &&
			      !strcmp(word, "DMA-FQ") &&
			      type == P2PD_IOMMU_TRANSLATED &&
			      iommu_group_read_type(&root, 7, word, sizeof(word), &type,
						    err, sizeof(err)) == 1 &&
			      !strcmp(word, "something-new") &&
			      type == P2PD_IOMMU_UNKNOWN &&
			      iommu_group_read_type(&root, 8, word, sizeof(word), &type,
						    err, sizeof(err)) == 0 &&
			      type == P2PD_IOMMU_UNKNOWN && !err[0] &&
			      iommu_group_read_type(&root, -1, word, sizeof(word), &type,
						    err, sizeof(err)) == 0 &&
			      type == P2PD_IOMMU_NONE,
			      "fsroot: an IOMMU group's type word is handed back with its domain (read 1, absent or no group 0)");
		}
		/* group 9's type a FIFO: bad input, named, not an unknown type */
		mkdirs(dir, "sys/kernel/iommu_groups/9");
		snprintf(path, sizeof(path), "%s/sys/kernel/iommu_groups/9/type", dir);
		mkfifo(path, 0600);
		fn[2].iommu_group = 9;
		fn[2].iommu_domain = P2PD_IOMMU_UNKNOWN;
		rc = iommu_fill_group_types(&root, &m, err, sizeof(err));
		CHECK(k, rc == -1 && strstr(err, path) &&
		      strstr(err, ": a FIFO, not a regular file"),
		      "fsroot: a FIFO as an IOMMU group's type file is an error naming it");
		{
			char word[32];

			err[0] = '\0';
			CHECK(k, iommu_group_read_type(&root, 9, word, sizeof(word), &type,
						       err, sizeof(err)) == -1 &&
			      strstr(err, path) && type == P2PD_IOMMU_UNKNOWN,
			      "fsroot: the type word's reader refuses the FIFO as the group's type reader does");
		}
		/* a plain read's refusal goes back to its caller, the first one */
		memset(&refused, 0, sizeof(refused));
		CHECK(k, !fsroot_refused(&refused) &&
		      fsroot_read(&root, &refused, buf, sizeof(buf), "/sys/kernel/iommu_groups/9/type") &&
		      fsroot_refused(&refused) && strstr(refused.why, path) &&
		      strstr(refused.why, ": a FIFO, not a regular file") &&
		      !fsroot_fopen(&root, &refused, "/sys/kernel/iommu_groups/9") &&
		      strstr(refused.why, path) &&
		      fsroot_read(&root, &refused, buf, sizeof(buf), "/proc/absent") &&
		      strstr(refused.why, path),
		      "fsroot: a plain read's refusal is given back (the first, not a later one or an absent file)");
		memset(&other, 0, sizeof(other));
		CHECK(k, !fsroot_read(&root, &other, buf, sizeof(buf), "/proc/cmdline") &&
		      !fsroot_refused(&other) &&
		      fsroot_read(&root, &other, buf, sizeof(buf), "/proc/absent") &&
		      !fsroot_refused(&other) && fsroot_refused(&refused),
		      "fsroot: each caller's refusal is its own (a regular or absent file names none)");
		memset(&other, 0, sizeof(other));
		CHECK(k, !fsroot_fopen(&root, &other, "/sys/kernel/iommu_groups/9") &&
		      errno == EISDIR && strstr(other.why, ": a directory, not a regular file"),
		      "fsroot: a directory opened as a stream is refused, and named");
	}
	{
		/* the module's tree: named as given, there or not, never live */
		struct fsroot tree;
		char absent[PATH_MAX], tree_path[PATH_MAX], longname[PATH_MAX + 8];

		snprintf(absent, sizeof(absent), "%s/sys/kernel/p2pdiag", dir);
		memset(&tree, 0, sizeof(tree));
		CHECK(k, !fsroot_init_tree(&tree, absent) && !fsroot_is_live(&tree) &&
		      !strcmp(fsroot_get(&tree), absent) &&
		      !fsroot_exists(&tree, "/abi_version"),
		      "fsroot: a tree that is not there yet is a root, named as given, not the live one");
		CHECK(k, !fsroot_init_tree(&tree, dir) &&
		      !fsroot_path(&tree, tree_path, sizeof(tree_path), "/proc/cmdline") &&
		      fsroot_exists(&tree, "/proc/cmdline") &&
		      !fsroot_exists(&tree, "/sys/bus/pci/devices/escape/passwd"),
		      "fsroot: a tree's reads are confined beneath it");
		memset(longname, 'x', sizeof(longname) - 1);
		longname[sizeof(longname) - 1] = '\0';
		errno = 0;
		CHECK(k, fsroot_init_tree(&tree, longname) && errno == ENAMETOOLONG &&
		      !strcmp(fsroot_get(&tree), dir) &&
		      fsroot_init_tree(&tree, "") && errno == EINVAL,
		      "fsroot: a tree name too long or empty is refused, the root unchanged");
	}
	{
		char why[PATH_MAX + 64];

		CHECK(k, !fsroot_read_fact(&root, buf, sizeof(buf), why, sizeof(why),
					   "/proc/cmdline") && !why[0] &&
		      !strcmp(buf, "BOOT_IMAGE=/vmlinuz pci=noacs"),
		      "fsroot: a fact's regular file reads as fsroot_read(&root, ) does");
		errno = 0;
		CHECK(k, fsroot_read_fact(&root, buf, sizeof(buf), why, sizeof(why),
					  "/proc/absent") && errno == ENOENT && !why[0],
		      "fsroot: an absent fact's file is ENOENT and no refusal (the fact unknown)");
		CHECK(k, fsroot_read_fact(&root, buf, sizeof(buf), why, sizeof(why),
					  "/proc/big") && errno == EFBIG && !why[0],
		      "fsroot: an oversized fact's file is EFBIG and no refusal");
		snprintf(path, sizeof(path), "%s/proc/fifo: a FIFO, not a regular file", dir);
		errno = 0;
		CHECK(k, fsroot_read_fact(&root, buf, sizeof(buf), why, sizeof(why),
					  "/proc/fifo") && errno == ENXIO &&
		      !strncmp(why, "cannot read ", 12) && !strcmp(why + 12, path),
		      "fsroot: a FIFO as a fact's file is refused, naming the file under the root");
		snprintf(path, sizeof(path), "%s/proc: a directory, not a regular file", dir);
		CHECK(k, fsroot_read_fact(&root, buf, sizeof(buf), why, sizeof(why),
					  "/proc") && errno == EISDIR && strstr(why, path),
		      "fsroot: a directory as a fact's file is refused, naming it");
		snprintf(path, sizeof(path), "%s/proc/null: a character device, not a regular file", dir);
		if (null_made)
			CHECK(k, !fsroot_fopen_fact(&root, why, sizeof(why), "/proc/null") &&
			      errno == ENXIO && strstr(why, path),
			      "fsroot: a device node as a fact's stream is refused, naming it");
		snprintf(path, sizeof(path), "cannot read %s/proc/devnull: a symbolic link on its way leads out of %s: not followed",
			 dir, dir);
		CHECK(k, !fsroot_fopen_fact(&root, why, sizeof(why), "/proc/devnull") &&
		      errno == EXDEV && !strcmp(why, path),
		      "fsroot: a fact's file linked out of the root is refused, naming the path only");
		CHECK(k, !fsroot_fopen_fact(&root, why, sizeof(why), "/proc/absent") &&
		      errno == ENOENT && !why[0],
		      "fsroot: an absent fact's stream is ENOENT and no refusal");
	}
	CHECK(k, !fsroot_init(&root, dir, err, sizeof(err)) &&
	      fsroot_init(&root, path, err, sizeof(err)) == -1 && strstr(err, path) &&
	      fsroot_is_live(&root),
	      "fsroot: a root that is no directory is refused, by name, leaving the live machine's");
	CHECK(k, !fsroot_init(&root, dir, err, sizeof(err)) &&
	      !fsroot_init(&root, "/", err, sizeof(err)) && fsroot_is_live(&root) &&
	      !fsroot_path(&root, path, sizeof(path), "/proc/cmdline") &&
	      !strcmp(path, "/proc/cmdline"),
	      "fsroot: / is the live machine again");
	remove_tree(dir);
	free(dir);
}
