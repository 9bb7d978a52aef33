/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The words reports use for gpu.h's enums.  Defined here, not in a .c file,
 * because a build has either the CUDA side (gpu_worker.c includes this) or
 * gpu_none.c (includes it too), never both: exactly one translation unit
 * of each build defines them.
 */
#ifndef P2PDIAG_GPU_NAMES_H
#define P2PDIAG_GPU_NAMES_H

#include "gpu/gpu.h"

const char *gpu_status_name(enum gpu_status s)
{
	switch (s) {
	case GPU_OK:		return "ok";
	case GPU_NOT_BUILT:	return "not-built";
	case GPU_NO_LIBRARY:	return "no-library";
	case GPU_NO_SYMBOL:	return "no-symbol";
	case GPU_INIT_FAILED:	return "init-failed";
	case GPU_NO_DEVICE:	return "no-device";
	case GPU_FAILED:	return "failed";
	case GPU_TIMEOUT:	return "timeout";
	case GPU_SKIPPED:	return "skipped";
	case GPU_BUSY:		return "busy";
	}
	return "unknown";
}

const char *gpu_verify_name(enum gpu_verify v)
{
	switch (v) {
	case VERIFY_NOT_RUN:	return "not-run";
	case VERIFY_OK:		return "ok";
	case VERIFY_ZEROS:	return "zeros";
	case VERIFY_ONES:	return "ones";
	case VERIFY_STALE:	return "stale";
	case VERIFY_PARTIAL:	return "partial";
	}
	return "unknown";
}

const char *gpu_atomic_op_name(unsigned int op)
{
	/* cuda.h's CU_ATOMIC_OPERATION_* in their order, lower case */
	static const char *const name[GPU_ATOMIC_OPS] = {
		"integer-add", "integer-min", "integer-max",
		"integer-increment", "integer-decrement", "and", "or", "xor",
		"exchange", "cas", "float-add", "float-min", "float-max",
	};

	return op < GPU_ATOMIC_OPS ? name[op] : NULL;
}

/* The word for capability bit @bit (GPU_ATOMIC_SIGNED is bit 0); NULL past them. */
const char *gpu_atomic_cap_name(unsigned int bit)
{
	static const char *const name[] = {
		"signed", "unsigned", "reduction", "32", "64", "128", "32x4",
	};

	return bit < sizeof(name) / sizeof(name[0]) ? name[bit] : NULL;
}

#endif /* P2PDIAG_GPU_NAMES_H */
