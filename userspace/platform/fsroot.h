/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One root for every system file p2pdiag-check reads outside
 * /sys/kernel/p2pdiag: sysfs, /proc, module parameters, DMI, the kernel
 * config.  "/" on a live machine; --root DIR or $P2PDIAG_FSROOT points the
 * tool at a fixture tree (a copy of the files that matter, as hwloc's
 * HWLOC_FSROOT does), so every system fact is testable without the
 * hardware.
 *
 * Paths are given as they are on a live machine ("/proc/cmdline") and
 * are printf formats; a fact that cannot be read is an error return with
 * errno set, never a crash: callers decide whether "absent" is a finding.
 */
#ifndef P2PDIAG_PLATFORM_FSROOT_H
#define P2PDIAG_PLATFORM_FSROOT_H

#include <dirent.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define FSROOT_ENV	"P2PDIAG_FSROOT"
#define FSROOT_VALUE_MAX 4096		/* one-value files (sysfs, /proc) */
/* a refusal's message: "cannot read " PATH ": a FIFO, not a regular file" */
#define FSROOT_REFUSAL_MAX (4096 + 64)

/*
 * fsroot_set() - read system files under @dir from now on; NULL or "/"
 * means the live machine.
 * Return: 0, or -1 with the reason in @err (not a directory, too long).
 */
int fsroot_set(const char *dir, char *err, size_t errlen);

/* The root as given ("/" when live); for messages. */
const char *fsroot_get(void);
/* Whether the root is the live machine's "/". */
bool fsroot_is_live(void);

/*
 * fsroot_path() - the real path of a live-machine path under the root.
 * Return: 0, or -1 with errno ENAMETOOLONG.
 */
int fsroot_path(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * fsroot_read() - a small file (at most @cap - 1 bytes) in one piece,
 * NUL-terminated, without its trailing newline.  fsroot_read() and
 * fsroot_fopen() open through system_file_open(): what is not a regular
 * file is refused at once.
 * Return: 0, or -1 with errno set (EFBIG when it did not fit; ENXIO or
 * EISDIR when it is not a regular file).
 */
int fsroot_read(char *buf, size_t cap, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * fsroot_refusal() - the first file that fsroot_read() or fsroot_fopen()
 * refused since fsroot_set() because it is there but is not a regular
 * file, said as fsroot_read_fact() says it; "" when none was.
 *
 * Their callers keep treating such a file as an unknown fact, so that a
 * reader needs no error path of its own; p2pdiag-check then exits 3 with
 * this message before any report, as for the facts read with
 * fsroot_read_fact().  That is the choice for every file read this way,
 * the informational ones included (DMI strings, the NVIDIA driver's
 * version, slot addresses): a root whose files are FIFOs or directories
 * is not the machine it stands for, and a report from it would be
 * judged on facts said to be unknown that are not.  The files: AER
 * counters and config space (system/aer.c), the hypervisor's DMI and
 * /sys/hypervisor facts and config space (system/virt.c), the kernel's
 * config, kallsyms and module parameters (system/kernel.c), the
 * GPUDirect files: the NVIDIA driver's version and params, nvidia-fs's
 * stats, peermem's version (system/gpudirect.c), DMI and slots
 * (system/fleet.c), the ASPM policy (judge/judge_settings.c) and a GPU's
 * numa_node (gpu/gpu_cuda.c, read in the CUDA worker, which hands its
 * refusal back in gpu_state.root_refusal).
 */
const char *fsroot_refusal(void);

/*
 * fsroot_read_fact() - fsroot_read() of a fact that is unknown when its
 * file is absent or unreadable, but whose file, when it is there and is
 * not a regular file (a FIFO, socket, device node or directory), makes
 * the root bad input: then @why says so, naming the file as opened
 * ("cannot read DIR/proc/cmdline: a FIFO, not a regular file").  @why is
 * "" after any other outcome.
 * Return: 0, or -1 with errno set as fsroot_read().
 */
int fsroot_read_fact(char *buf, size_t cap, char *why, size_t whylen,
		     const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* fsroot_fopen() with fsroot_read_fact()'s @why; NULL with errno set. */
FILE *fsroot_fopen_fact(char *why, size_t whylen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Whether the path exists under the root. */
bool fsroot_exists(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * fsroot_link_name() - the last component of a symbolic link's target
 * ("driver" -> ".../drivers/mlx5_core" gives "mlx5_core").
 * Return: 0, or -1 with errno set (EINVAL when it is no link).
 */
int fsroot_link_name(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * fsroot_realpath() - resolve a path under the root and give it back as
 * a live-machine path ("/sys/devices/pci0000:00/...").
 * Return: 0, or -1 with errno set (EXDEV when it leaves the root).
 */
int fsroot_realpath(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

FILE *fsroot_fopen(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
DIR *fsroot_opendir(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif /* P2PDIAG_PLATFORM_FSROOT_H */
