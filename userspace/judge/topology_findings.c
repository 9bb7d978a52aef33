// SPDX-License-Identifier: GPL-2.0
/*
 * Findings from the topology alone (also for a saved topology): each
 * pair's blockers with the ports and their ACS bits, IOMMU and ATS notes,
 * and the links below the P2P endpoints that run slower or narrower than
 * they can.
 */
#include <stdio.h>
#include <stdlib.h>

#include "findings/finding_registry.h"
#include "judge/judge_priv.h"
#include "judge/results.h"
#include "topology/pciaddr.h"
#include "system/system.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"

static void speed_str(char *buf, size_t len, unsigned int tenths)
{
	snprintf(buf, len, "%u.%u", tenths / 10, tenths % 10);
}

/* "GPU", "NIC", ... from the class code, for the findings' sentences. */
static const char *kind_of(const struct p2pd_function *f)
{
	return p2pd_kind_name(p2pd_device_kind(f->class_code));
}

/*
 * The host bridges on @p's path that do not route its P2P, as the engine
 * judges each side (p2pd_host_bridge_blocks()): of two, only the one off
 * the kernel's list is named when the other is on it.
 */
static void describe_blocking_hosts(const struct p2pd_model *m,
				    const struct p2pd_pair *p, struct text *t)
{
	int hosts[2] = { p->host_fn, p->host_fn_b };
	unsigned int k, named = 0;

	for (k = 0; k < 2; k++) {
		const struct p2pd_function *h;

		if (!p2pd_host_bridge_blocks(m, p, (int)k))
			continue;
		if (hosts[k] == P2PD_NO_INDEX) {
			unsigned long long hb = k ? m->fn[p->b].host_bridge :
					      m->fn[p->a].host_bridge;
			char name[P2PD_HOST_BRIDGE_STRLEN];

			text_add(t, "%shost bridge %s (no function identifies it)",
				 named++ ? " and " : "",
				 pciaddr_format_host_bridge(name, hb));
			continue;
		}
		h = &m->fn[hosts[k]];
		text_add(t, "%shost bridge %s [%04x:%04x]", named++ ? " and " : "",
			 judge_addr_str(h->addr), h->vendor, h->device);
	}
}

static void pair_names(const struct p2pd_model *m, const struct p2pd_pair *p,
		       struct text *t)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];

	text_add(t, "%s %s and %s %s (%s", kind_of(fa), judge_addr_str(fa->addr),
		 kind_of(fb), judge_addr_str(fb->addr), p2pd_class_name(p->cls));
	if (p->common_kind == P2PD_COMMON_BRIDGE)
		text_add(t, ", common bridge %s)", judge_addr_str(m->fn[p->common].addr));
	else if (p->common_kind == P2PD_COMMON_HOST)
		text_add(t, ", meet in the root complex)");
	else if (p->common_kind == P2PD_COMMON_UNKNOWN)
		text_add(t, ", where they meet is not in the snapshot)");
	else
		text_add(t, ", on different host bridges)");
}

/*
 * A paravirtual function (virtio, Hyper-V, VMware, Xen, gVNIC: the
 * engine's p2pd_paravirtual_vendor(), the list the vm-paravirtual note
 * uses too) has its data moved by the hypervisor; no peer ever DMAs into
 * it, so its pairs' verdicts cannot break anything.  Without this, every
 * VM with a virtio NIC reports P2P broken, and such a pair is no pair to
 * judge P2P by (run_state.c).  Returns the device family's name, or NULL.
 */
const char *judge_paravirtual_pair(const struct p2pd_model *m, const struct p2pd_pair *p)
{
	const char *a = p2pd_paravirtual_vendor(m->fn[p->a].vendor);

	return a ? a : p2pd_paravirtual_vendor(m->fn[p->b].vendor);
}

/* The notes judge_pair_topology() turns into findings whatever the verdict. */
static bool iommu_note_matters(const struct p2pd_pair *p)
{
	return (p->notes & (P2PD_NOTE_IOMMU_A | P2PD_NOTE_IOMMU_B)) &&
	       p->verdict != P2PD_VERDICT_OK && p->verdict != P2PD_VERDICT_UNKNOWN;
}

static bool ats_note_matters(const struct p2pd_pair *p)
{
	return (p->notes & P2PD_NOTE_DIRECT_TRANS) &&
	       (p->notes & (P2PD_NOTE_ATS_A | P2PD_NOTE_ATS_B));
}

bool judge_pair_matters(const struct check_run *r, const struct p2pd_pair *p)
{
	const struct p2pd_model *m = r->in.model;

	return (p->verdict != P2PD_VERDICT_OK && p->verdict != P2PD_VERDICT_HOST) ||
	       (p->verdict != P2PD_VERDICT_OK && judge_paravirtual_pair(m, p)) ||
	       iommu_note_matters(p) || ats_note_matters(p) ||
	       p2pd_device_kind(m->fn[p->a].class_code) == P2PD_KIND_GPU ||
	       p2pd_device_kind(m->fn[p->b].class_code) == P2PD_KIND_GPU;
}

static void judge_pair_topology(struct check_run *r, unsigned int pi)
{
	const struct p2pd_model *m = r->in.model;
	const struct p2pd_pair *p = &r->judged.pair[pi];
	unsigned long long fa = m->fn[p->a].addr, fb = m->fn[p->b].addr;
	char msg[TEXT_LEN];
	struct text t = { msg, sizeof(msg), 0 };
	const char *paravirtual;

	pair_names(m, p, &t);
	paravirtual = judge_paravirtual_pair(m, p);
	if (paravirtual) {
		if (p->verdict != P2PD_VERDICT_OK)
			findings_add(&r->judged.findings, SEV_INFO, FC_PARAVIRTUAL_PAIR, fa, fb,
				     NULL, "%s: verdict %s, which does not matter: a %s device is paravirtual and has no peer-to-peer data path",
				     msg, p2pd_verdict_name(p->verdict), paravirtual);
		return;
	}
	switch (p->verdict) {
	case P2PD_VERDICT_REDIRECTED:
	case P2PD_VERDICT_BLOCKED:
		if (p->nr_blockers) {
			text_add(&t, ": ACS on ");
			judge_describe_blockers(m, p, &t);
			text_add(&t, p->common_kind == P2PD_COMMON_BRIDGE ?
				 " sends their peer traffic up to the root complex instead of across the common bridge" :
				 " redirects their peer requests to the root complex's IOMMU (the path crosses the root complex anyway)");
			if (p->host_blocks) {
				text_add(&t, ", and ");
				describe_blocking_hosts(m, p, &t);
				text_add(&t, " does not route P2P (not on the kernel's P2PDMA list, CPU not AMD Zen): expect failures, hangs or corrupt data");
			} else if (p->common_kind == P2PD_COMMON_BRIDGE) {
				text_add(&t, ", which routes it: it works, slower, and through the IOMMU where that translates");
			} else {
				text_add(&t, ", which routes it: it works, translated by the IOMMU where that is on");
			}
		} else {
			text_add(&t, ": the path crosses ");
			describe_blocking_hosts(m, p, &t);
			text_add(&t, ", which does not route P2P (not on the kernel's P2PDMA list, CPU not AMD Zen): expect failures, hangs or corrupt data");
		}
		findings_add(&r->judged.findings,
			     p->verdict == P2PD_VERDICT_BLOCKED ? SEV_ERROR : SEV_WARNING,
			     /* named for what the fix changes */
			     p->nr_blockers && (p->common_kind == P2PD_COMMON_BRIDGE ||
						!p->host_blocks) ?
			     FC_ACS_REDIRECT : FC_HOST_BRIDGE_NO_P2P,
			     fa, fb, judge_pair_fix_of(r, (int)pi), "%s", msg);
		break;
	case P2PD_VERDICT_UNKNOWN:
		text_add(&t, ": verdict unknown:%s%s%s%s%s%s",
			 p->missing & P2PD_MISSING_ACS ? " a port's ACS control could not be read;" : "",
			 p->missing & P2PD_MISSING_PARENT ? " an upstream bridge is missing from the snapshot;" : "",
			 p->missing & P2PD_MISSING_HOST ? " no function identifies the root bus;" : "",
			 p->missing & P2PD_MISSING_DEPTH ? " the hierarchy is deeper than the engine follows;" : "",
			 p->missing & P2PD_MISSING_BRIDGE ? " an upstream bridge is a CardBus bridge, which p2pdiag does not model;" : "",
			 p->missing & P2PD_MISSING_LIST ? " the kernel's P2PDMA list from 7.4 names Alibaba's Yitian 710 host bridge by an id p2pdiag does not know, so whether this one routes P2P is not known;" : "");
		findings_add(&r->judged.findings, SEV_WARNING, FC_VERDICT_UNKNOWN, fa, fb,
			     p->missing == P2PD_MISSING_LIST ?
			     "measure it: p2pdiag-check's copies (or nvbandwidth) between the pair decide; with the kernel's pci_p2pdma_distance(), a 'cannot be used for peer-to-peer DMA' line in dmesg says not listed" :
			     p->missing == P2PD_MISSING_BRIDGE ?
			     "none that reading more helps: for P2P put the card in a PCIe slot instead of the CardBus one" :
			     !(p->missing & P2PD_MISSING_ACS) && (p->missing & P2PD_MISSING_PARENT) ?
			     "judge the whole tree: the module's /sys/kernel/p2pdiag/topology, or p2pdiag-check on that machine (a file that lacks a bridge cannot say where the path goes)" :
			     "read config space as root (lspci -vvv should show ACSCtl on every port), or load the p2pdiag module",
			     "%s", msg);
		break;
	default:
		break;
	}

	if (iommu_note_matters(p)) {
		t.used = 0;
		msg[0] = '\0';
		pair_names(m, p, &t);
		text_add(&t, ": %s%s%s in a translated IOMMU domain, and their traffic goes through the root complex: it is translated there, which works only where the driver maps the peer's memory in the IOMMU (a known source of IO_PAGE_FAULTs, hangs and zeroed data)",
			 p->notes & P2PD_NOTE_IOMMU_A ? judge_addr_str(fa) : "",
			 (p->notes & P2PD_NOTE_IOMMU_A) && (p->notes & P2PD_NOTE_IOMMU_B) ? " and " : "",
			 p->notes & P2PD_NOTE_IOMMU_B ? judge_addr_str(fb) : "");
		findings_add(&r->judged.findings,
			     p->verdict == P2PD_VERDICT_HOST ? SEV_INFO : SEV_WARNING,
			     FC_IOMMU_TRANSLATED, fa, fb,
			     "if the copies below fail or hang: keep the IOMMU (iommu=pt does not clear ACS redirect) and remove the redirect, or put the devices' groups in identity mode",
			     "%s", msg);
	}
	if (ats_note_matters(p)) {
		t.used = 0;
		msg[0] = '\0';
		pair_names(m, p, &t);
		text_add(&t, ": ATS is enabled and every redirecting port has DirectTrans+: requests the device has translated may go straight across; untranslated ones still go up");
		findings_add(&r->judged.findings, SEV_INFO, FC_ATS_DIRECT_TRANSLATED,
			     fa, fb, NULL, "%s", msg);
	}
}

/*
 * A link below its maximum speed that something other than the link
 * holds there: the bwctrl cooling device or a Target Link Speed.  Only
 * where this machine's (or the root's) files describe the model.
 */
static bool judge_capped_link(struct check_run *r, const struct p2pd_function *up,
			      const struct p2pd_function *f, unsigned int idx,
			      unsigned int max_speed, const char *cur, const char *max)
{
	/* NULL where the root's files are not the model's machine's */
	const struct function_facts *facts = r->in.system ? r->in.system->fn : NULL;
	struct link_cap cap;
	char target[16], fix[FIX_LEN];
	unsigned int code;

	if (!facts || !facts[idx].link_capped)
		return false;
	cap = facts[idx].link_cap;
	if (cap.cooling) {
		snprintf(fix, sizeof(fix),
			 "nothing to reseat: find the thermal zone bound to /sys/class/thermal/cooling_device%u (its cdev* links) and cool the system or the component past its trip point; the kernel raises the speed again as it cools",
			 cap.cooling_id);
		findings_add(&r->judged.findings, SEV_WARNING, FC_LINK_CAPPED_THERMAL,
			     f->addr, FINDING_NO_ADDR, fix,
			     "link %s - %s %s runs at %s of %s GT/s (x%u): the kernel's PCIe bandwidth controller holds port %s down as thermal cooling device %u (" LINK_COOLING_PREFIX "%s, state %lu of %lu)",
			     judge_addr_str(up->addr), kind_of(f), judge_addr_str(f->addr),
			     cur, max, f->link.width, judge_addr_str(up->addr),
			     cap.cooling_id, judge_addr_str(up->addr),
			     cap.cooling_state, cap.cooling_max);
		return true;
	}
	speed_str(target, sizeof(target), cap.target_tenths);
	for (code = 1; code < 8 && p2pd_link_speed_tenths(code) != max_speed; code++)
		;
	snprintf(fix, sizeof(fix),
		 "nothing to reseat: set the slot's PCIe speed in the BIOS (\"PCIe Link Speed\", \"Max Link Speed\" or the slot's \"Gen\" setting) to Auto; to test now: setpci -s %s CAP_EXP+0x30.w=%u:000f, then retrain the link with setpci -s %s CAP_EXP+0x10.w=0020:0020 (lost at reboot)",
		 judge_addr_str(cap.target_at), code < 8 ? code : 0,
		 judge_addr_str(up->addr));
	findings_add(&r->judged.findings, SEV_WARNING, FC_LINK_CAPPED_TARGET,
		     f->addr, FINDING_NO_ADDR, fix,
		     "link %s - %s %s runs at %s of %s GT/s (x%u): Target Link Speed in %s's Link Control 2 caps it at %s GT/s",
		     judge_addr_str(up->addr), kind_of(f), judge_addr_str(f->addr),
		     cur, max, f->link.width, judge_addr_str(cap.target_at), target);
	return true;
}

static void judge_links(struct check_run *r)
{
	const struct p2pd_model *m = r->in.model;
	unsigned char *relevant = calloc(m->nr_fn ? m->nr_fn : 1, 1);
	unsigned int i;

	if (!relevant) {
		r->judged.findings.oom = true;
		return;
	}
	/* every link between a P2P endpoint and its root port */
	for (i = 0; i < m->nr_fn; i++) {
		int idx = (int)i, steps = 0;

		if (!m->fn[i].p2p_endpoint || !run_fn_selected(r, (int)i))
			continue;
		while (idx != P2PD_NO_INDEX && steps++ < P2PD_MAX_DEPTH &&
		       m->fn[idx].has_parent) {
			relevant[idx] = 1;
			idx = p2pd_model_find(m, m->fn[idx].parent);
		}
	}
	for (i = 0; i < m->nr_fn; i++) {
		const struct p2pd_function *f = &m->fn[i], *up;
		unsigned int max_speed, max_width;
		struct p2pd_link l;
		char cur[16], max[16];
		int u;

		if (!relevant[i] || !p2pd_link_above(m, (int)i, &l) ||
		    !l.speed || !l.width)
			continue;
		u = p2pd_model_find(m, f->parent);
		if (u == P2PD_NO_INDEX)
			continue;
		up = &m->fn[u];
		max_speed = l.max_speed;
		max_width = l.max_width;
		speed_str(cur, sizeof(cur), f->link.speed);
		speed_str(max, sizeof(max), max_speed);
		if (max_width && f->link.width < max_width) {
			findings_add(&r->judged.findings, SEV_WARNING, FC_LINK_DEGRADED,
				     f->addr, FINDING_NO_ADDR,
				     NULL,
				     "link %s - %s %s runs x%u of x%u (%s of %s GT/s): lanes are missing",
				     judge_addr_str(up->addr), kind_of(f), judge_addr_str(f->addr),
				     f->link.width, max_width, cur, max);
		} else if (max_speed && f->link.speed < max_speed) {
			/* GPUs lower their link speed when idle */
			if (judge_capped_link(r, up, f, i, max_speed, cur, max))
				;
			else if (p2pd_device_kind(f->class_code) == P2PD_KIND_GPU)
				findings_add(&r->judged.findings, SEV_INFO, FC_LINK_SLOW_IDLE,
					     f->addr, FINDING_NO_ADDR, NULL,
					     "link %s - GPU %s runs at %s of %s GT/s x%u at idle: GPUs lower their link speed when idle; the copies read it again under load",
					     judge_addr_str(up->addr), judge_addr_str(f->addr), cur,
					     max, f->link.width);
			else
				findings_add(&r->judged.findings, SEV_WARNING, FC_LINK_DEGRADED,
					     f->addr, FINDING_NO_ADDR,
					     NULL,
					     "link %s - %s %s runs at %s of %s GT/s (x%u)",
					     judge_addr_str(up->addr), kind_of(f), judge_addr_str(f->addr),
					     cur, max, f->link.width);
		}
	}
	free(relevant);
}

void judge_topology(struct check_run *r)
{
	unsigned int i;

	if (!r->in.model)
		return;
	for (i = 0; i < r->judged.nr_pairs; i++)
		judge_pair_topology(r, i);
	judge_links(r);
}
