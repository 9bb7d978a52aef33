// SPDX-License-Identifier: GPL-2.0
/*
 * vfio-open <group> <device> <n> [generation file]: open a PCI function
 * bound to vfio-pci n times, the way QEMU does: the container, the group
 * /dev/vfio/<group> set to it with the type1 IOMMU, then n times
 * VFIO_GROUP_GET_DEVICE_FD and close.  Each open is the device's first
 * (the previous one is closed), so each runs vfio-pci's enable, whose
 * reset only tries the device's locks and fails the open with EAGAIN when
 * one is held.
 *
 * With a generation file (p2pdiag's), it is read before and after each
 * open: an open across which it moved ran while a rebuild was in flight.
 *
 * Prints one line: "opens=<n> ok=<n> failed=<n> reset=<n> overlapped=<n>
 * errors=<errno name>:<count>,...": reset counts the opens whose device
 * said its reset works (VFIO_DEVICE_FLAGS_RESET: the enable's reset ran
 * and succeeded).
 * Exit status: 0 every open succeeded, 1 one or more failed, 2 the setup
 * failed (no container, group not viable, no type1 IOMMU, bad arguments).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/vfio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#define MAX_ERRNO	4096

static long read_generation(const char *path)
{
	char buf[32];
	ssize_t n;
	int fd;

	if (!path)
		return 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return strtol(buf, NULL, 10);
}

static int setup(const char *group_path, int *container, int *group)
{
	struct vfio_group_status status = { .argsz = sizeof(status) };

	*container = open("/dev/vfio/vfio", O_RDWR | O_CLOEXEC);
	if (*container < 0) {
		perror("/dev/vfio/vfio");
		return -1;
	}
	if (ioctl(*container, VFIO_GET_API_VERSION) != VFIO_API_VERSION) {
		fprintf(stderr, "vfio-open: unknown VFIO API version\n");
		return -1;
	}
	if (ioctl(*container, VFIO_CHECK_EXTENSION, VFIO_TYPE1_IOMMU) <= 0) {
		fprintf(stderr, "vfio-open: no type1 IOMMU\n");
		return -1;
	}
	*group = open(group_path, O_RDWR | O_CLOEXEC);
	if (*group < 0) {
		perror(group_path);
		return -1;
	}
	if (ioctl(*group, VFIO_GROUP_GET_STATUS, &status) < 0) {
		perror("VFIO_GROUP_GET_STATUS");
		return -1;
	}
	if (!(status.flags & VFIO_GROUP_FLAGS_VIABLE)) {
		fprintf(stderr, "vfio-open: %s is not viable (a function of it is bound elsewhere)\n",
			group_path);
		return -1;
	}
	if (ioctl(*group, VFIO_GROUP_SET_CONTAINER, container) < 0) {
		perror("VFIO_GROUP_SET_CONTAINER");
		return -1;
	}
	if (ioctl(*container, VFIO_SET_IOMMU, VFIO_TYPE1_IOMMU) < 0) {
		perror("VFIO_SET_IOMMU");
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	static unsigned long errors[MAX_ERRNO];
	unsigned long n, i, ok = 0, failed = 0, reset = 0, overlapped = 0;
	const char *gen_path = argc > 4 ? argv[4] : NULL;
	char group_path[64], *end;
	int container, group, fd, e;
	const char *sep = "";
	long g0, g1;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s <group> <device> <n> [generation file]\n", argv[0]);
		return 2;
	}
	errno = 0;
	n = strtoul(argv[3], &end, 10);
	if (errno || *end || !n) {
		fprintf(stderr, "%s: n must be a positive number, not '%s'\n", argv[0], argv[3]);
		return 2;
	}
	if (snprintf(group_path, sizeof(group_path), "/dev/vfio/%s", argv[1]) >=
	    (int)sizeof(group_path) || strchr(argv[1], '/')) {
		fprintf(stderr, "%s: bad group '%s'\n", argv[0], argv[1]);
		return 2;
	}
	if (setup(group_path, &container, &group))
		return 2;

	for (i = 0; i < n; i++) {
		struct vfio_device_info info = { .argsz = sizeof(info) };

		g0 = read_generation(gen_path);
		fd = ioctl(group, VFIO_GROUP_GET_DEVICE_FD, argv[2]);
		e = errno;
		g1 = read_generation(gen_path);
		if (g0 != g1)
			overlapped++;
		if (fd < 0) {
			failed++;
			errors[e > 0 && e < MAX_ERRNO ? e : 0]++;
			continue;
		}
		ok++;
		if (!ioctl(fd, VFIO_DEVICE_GET_INFO, &info) &&
		    (info.flags & VFIO_DEVICE_FLAGS_RESET))
			reset++;
		close(fd);
	}

	printf("opens=%lu ok=%lu failed=%lu reset=%lu overlapped=%lu errors=",
	       n, ok, failed, reset, overlapped);
	for (e = 0; e < MAX_ERRNO; e++) {
		if (!errors[e])
			continue;
		printf("%s%s:%lu", sep, e ? strerrorname_np(e) : "unknown", errors[e]);
		sep = ",";
	}
	printf("%s\n", *sep ? "" : "none");
	close(group);
	close(container);
	return failed ? 1 : 0;
}
