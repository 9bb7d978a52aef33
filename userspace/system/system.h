/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What p2pdiag-check learns about the machine beyond the PCIe tree, all
 * read under the root of system reads (platform/fsroot.h): the kernel, and
 * the GPUDirect routes per GPU-NIC and GPU-NVMe pair.  system_begin() and
 * system_inspect() read; the judge joins the facts to the judged pairs
 * (judge/system_checks.h); the reports write them (report/system_output.h).
 */
#ifndef P2PDIAG_SYSTEM_SYSTEM_H
#define P2PDIAG_SYSTEM_SYSTEM_H

#include <stdbool.h>
#include <stddef.h>

#include "platform/fsroot.h"
#include "system/aer.h"
#include "system/environ.h"
#include "system/fleet.h"
#include "system/function_facts.h"
#include "system/gpudirect.h"
#include "system/identity.h"
#include "system/kernel.h"
#include "system/virt.h"

struct run_inputs;

struct system_report {
	/*
	 * false for a saved topology or dump judged without --root: the
	 * files here belong to another machine than the topology.
	 */
	bool read;
	struct kernel_facts kernel;
	struct virt_facts virt;
	struct fleet_facts fleet;
	struct identity identity;
	struct aer_state aer;
	struct environ_facts env;
	struct function_facts *fn;	/* by model index; NULL when not read */
	struct gpudirect gd;
	char *kernel_log;	/* system/kernel_log.h; NULL when unreadable */
	/*
	 * The first file under the root that a reader of these facts
	 * refused (platform/fsroot.h), the judge's readers included;
	 * main.c ends the run with it.
	 */
	struct fsroot_refusal refused;
};

/*
 * system_begin() - before the copies: decide whether system files are
 * read (not for another machine's saved topology without --root), and
 * read the kernel's and the hypervisor's facts into @s, which @in then
 * names.
 * Return: 0, or -1 when a file of those facts is there but is not a
 * regular file (/proc/cmdline, /proc/sys/kernel/osrelease,
 * /proc/cpuinfo): @err names it, and @in has no system report.
 */
int system_begin(struct run_inputs *in, struct system_report *s, bool offline,
		 char *err, size_t errlen);
/*
 * system_before_copies() - just before the copies, once the judge chose
 * the functions it compares (judge/system_checks.h's
 * system_judge_before()): their AER counters.
 */
void system_before_copies(struct run_inputs *in, struct system_report *s);
/*
 * After the copies, before the judgement: read the other facts
 * (GPUDirect's, the fleet's, the identity, the kernel log, the
 * environment, every function's files) and the AER counters again.
 */
void system_inspect(struct run_inputs *in, struct system_report *s);
void system_report_free(struct system_report *s);

#endif /* P2PDIAG_SYSTEM_SYSTEM_H */
