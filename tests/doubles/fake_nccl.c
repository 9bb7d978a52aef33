// SPDX-License-Identifier: GPL-2.0
/*
 * Test double of libnccl.so.2: only ncclGetVersion(), the one call
 * p2pdiag-check makes, so a test can offer an NCCL of a given release.
 *
 *   FAKE_NCCL_VERSION=code   the NCCL_VERSION_CODE it reports (23007,
 *                            2.30.7: the first that reads the link from NVML)
 *   FAKE_NCCL_FAIL=1         the call fails (ncclSystemError, 2)
 */
#include <stdlib.h>

#define EXPORT __attribute__((visibility("default")))

EXPORT int ncclGetVersion(int *version);

EXPORT int ncclGetVersion(int *version)
{
	const char *v = getenv("FAKE_NCCL_VERSION");
	const char *fail = getenv("FAKE_NCCL_FAIL");

	if (fail && *fail == '1')
		return 2;
	*version = v && *v ? atoi(v) : 23007;
	return 0;
}
