// SPDX-License-Identifier: GPL-2.0
/*
 * Which NCCL the jobs on this machine load: libnccl.so.2 through dlopen,
 * as the loader would find it for them, and its ncclGetVersion().  That
 * call only reports the version compiled into the library; it starts no
 * CUDA context and reads no topology.  Where NCCL takes its PCIe figures
 * from changed between releases (judge/nccl_link.c), so the prediction
 * needs the release; without the library it stays unsaid.
 */
#include <dlfcn.h>
#include <stdio.h>

#include "gpu/gpu_priv.h"

#define NCCL_LIBRARY	"libnccl.so.2"

void gpu_nccl_probe(struct gpu_state *st)
{
	int (*get_version)(int *version);
	int version = 0, rc;
	void *lib;

	st->nccl_version = 0;
	lib = dlopen(NCCL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(st->nccl_error, sizeof(st->nccl_error), "dlopen %s: %s",
			 NCCL_LIBRARY, dlerror());
		return;
	}
	*(void **)&get_version = dlsym(lib, "ncclGetVersion");
	if (!get_version) {
		snprintf(st->nccl_error, sizeof(st->nccl_error),
			 "%s has no ncclGetVersion", NCCL_LIBRARY);
	} else if ((rc = get_version(&version)) != 0 || version <= 0) {
		snprintf(st->nccl_error, sizeof(st->nccl_error),
			 "ncclGetVersion: result %d, version %d", rc, version);
	} else {
		st->nccl_version = version;
		st->nccl_error[0] = '\0';
	}
	dlclose(lib);
}
