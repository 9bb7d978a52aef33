/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The judgements of the system checks: the facts system/ reads (the
 * system report's structs, system/system.h) against the judged pairs,
 * into the run's findings.  Each has a file of its own
 * (judge/system_<check>.c).
 */
#ifndef P2PDIAG_JUDGE_SYSTEM_CHECKS_H
#define P2PDIAG_JUDGE_SYSTEM_CHECKS_H

struct aer_state;
struct check_run;
struct environ_facts;
struct function_facts;
struct gpudirect;
struct system_report;
struct virt_facts;

/*
 * system_judge_before() - before the copies, once system_begin() has
 * read: which facts the judgement compares before and after them (the
 * functions on a judged path, whose AER counters system_before_copies()
 * reads).
 */
void system_judge_before(struct check_run *r, struct system_report *s);

/*
 * system_judge() - after system_inspect(): every system check's
 * judgement of @s against @r's judged pairs, into r->judged.findings, in
 * the order the findings are listed.
 */
void system_judge(struct check_run *r, struct system_report *s);

/*
 * IOMMU groups against ACS, by the kernel's grouping rule (the engine's
 * p2pd_group_anchor()): what each pair's ACS fix costs in isolation
 * (which groups it would merge), and groups that no longer match the ACS
 * the ports have now (ACS changed after boot, e.g. with setpci).
 * fix-merges-groups per distinct fix, iommu-groups-stale once.
 */
void iommu_groups_judge(struct check_run *r);

/*
 * The kernel command line against the ACS fixes it carries: options that
 * cannot work as written (commas inside disable_acs_redir=, a second pci=
 * argument, pci=noacs, iommu=pt taken for an ACS fix), and, after a
 * reboot with a fix, whether each port it names now has ReqRedir,
 * CmpltRedir and EgressCtrl clear.  Lint @cmdline and verify its ACS
 * settings against r->in.model.
 */
void bootline_judge(struct check_run *r, const char *cmdline);

/*
 * The environment variables that silently change P2P for the programs
 * started from this environment (NCCL's P2P and GDR levels and switches,
 * CUDA's device visibility and order), as information: one info finding
 * per such variable of @e that is set (or that matters unset).
 */
void environ_judge(struct check_run *r, const struct environ_facts *e);

/*
 * The kernel's own P2PDMA verdicts in @log (system/kernel_log.h; NULL
 * when it could not be read: nothing then) beside p2pdiag's verdict for
 * the same pair.
 */
void kernel_verdicts_judge(struct check_run *r, const char *log);

/*
 * Judge a guest's GPUs, bridges and devices into r's findings; @facts
 * (system/function_facts.h, NULL: not read) has the GPUs' cliques.
 */
void virt_judge(struct check_run *r, const struct virt_facts *v,
		const struct function_facts *facts);

/*
 * aer_choose() - the ports of @a: every function on a judged pair's path
 * (system/aer.h reads their counters before and after the copies).
 */
void aer_choose(const struct check_run *r, struct aer_state *a);
/*
 * Judge the counters read before and after the copies: errors during
 * the run, since boot, link flags.  Nothing where @a's were not read
 * before the copies.
 */
void aer_judge(struct check_run *r, const struct aer_state *a);

/*
 * The memory windows (BARs) of the GPUs and NICs that take part in P2P:
 * a BAR the firmware or the kernel left without an address, and a
 * Resizable BAR kept below the size the device offers.  A peer reaches a
 * device's memory only through these windows, so both break P2P before
 * any path rule does.  Judge the BARs of every selected GPU and NIC into
 * @r's findings, from @facts (system/function_facts.h; NULL: not read).
 */
void bars_judge(struct check_run *r, const struct function_facts *facts);

/*
 * A peer's DMA mask against the other end's BARs, where nothing
 * translates its requests (bus addresses across a switch, or the IOMMU
 * in passthrough, or none): both directions of every judged pair, from
 * @facts (system/function_facts.h; NULL: not read).
 */
void bar_reach_judge(struct check_run *r, const struct function_facts *facts);

/*
 * PCIe AtomicOps along the path of every judged pair of GPUs or
 * accelerators: one p2p-atomics finding per such pair whose registers
 * were all read in @facts (system/function_facts.h; CUDA's word alone
 * where they were not).
 */
void atomics_judge(struct check_run *r, const struct function_facts *facts);

/*
 * gpudirect_judge() - readiness of every judged GPU-NIC and GPU-NVMe pair
 * of @r, and its findings (added to r->judged.findings), from @g->facts
 * and the pairs' ends' @facts (system/function_facts.h; NULL: not read).
 */
void gpudirect_judge(struct check_run *r, struct gpudirect *g,
		     const struct function_facts *facts);

#endif /* P2PDIAG_JUDGE_SYSTEM_CHECKS_H */
