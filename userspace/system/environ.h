/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The environment variables that change P2P for the programs started
 * from this environment, read once with the other facts, and NCCL's path
 * levels as the engine's classes; the judge (judge/system_environ.c)
 * reads them from here.
 */
#ifndef P2PDIAG_SYSTEM_ENVIRON_H
#define P2PDIAG_SYSTEM_ENVIRON_H

/*
 * The variables as this run was started with them, NULL where unset:
 * getenv()'s own strings, which hold since the tool never changes its
 * environment.
 */
struct environ_facts {
	const char *nccl_p2p_disable;
	const char *nccl_p2p_level;
	const char *nccl_ignore_disabled_p2p;
	const char *nccl_net_gdr_level;
	const char *cuda_visible_devices;
	const char *cuda_device_order;
	const char *cuda_acs_check_override;	/* GPU_CUDA_ACS_CHECK_OVERRIDE */
};

/* environ_read() - the variables of struct environ_facts into @e. */
void environ_read(struct environ_facts *e);

/*
 * environ_nccl_level() - an NCCL path level (LOC, NVL, PIX, PXB, PHB,
 * SYS, or NCCL's number for it) as a P2PD_CLASS_*, or -1 when it is none
 * the engine's classes can compare with.
 */
int environ_nccl_level(const char *value);

#endif /* P2PDIAG_SYSTEM_ENVIRON_H */
