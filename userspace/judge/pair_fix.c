// SPDX-License-Identifier: GPL-2.0
/*
 * A pair's fix: the kernel parameter, its config_acs form, the setpci
 * lines until reboot and the firmware settings, in one text that the
 * findings, the reports and the results all give.
 */
#include <string.h>

#include "judge/judge_priv.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/format.h"

static void format_into(char *buf, size_t len,
			void (*fn)(struct p2pd_buf *, const struct p2pd_model *,
				   const struct p2pd_pair *),
			const struct p2pd_model *m, const struct p2pd_pair *p)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, buf, len);
	fn(&b, m, p);
	p2pd_buf_terminate(&b);
}

void judge_pair_fix(const struct check_run *r, const struct p2pd_pair *p,
		    char *buf, size_t len)
{
	const struct p2pd_model *m = r->in.model;
	char param[JUDGE_TEXT_MAX / 4], alt[JUDGE_TEXT_MAX / 4];
	struct text t = { buf, len, 0 };
	unsigned int i;

	buf[0] = '\0';
	if (!p->nr_blockers && !p->host_blocks)
		return;
	if (!p2pd_acs_fix_applies(p)) {
		text_add(&t, "no ACS setting helps this pair: its path crosses a host bridge that does not route P2P. "
			"Put both devices under one PCIe switch, or use a platform whose root complex routes P2P "
			"(the kernel trusts AMD Zen and the Intel root complexes on its P2PDMA list).");
		return;
	}
	format_into(param, sizeof(param), p2pd_format_fix, m, p);
	format_into(alt, sizeof(alt), p2pd_format_config_acs, m, p);
	text_add(&t, "kernel command line: %s (same effect: %s)", param, alt);
	text_add(&t, "; until reboot, before the GPU driver loads (this changes isolation and IOMMU groups, and is lost at reboot):");
	for (i = 0; i < p->nr_blockers; i++) {
		char line[96];
		struct p2pd_buf b;

		p2pd_buf_init(&b, line, sizeof(line));
		p2pd_format_setpci(&b, &m->fn[p->blocker[i]]);
		p2pd_buf_terminate(&b);
		text_add(&t, " %s%s", line, i + 1 < p->nr_blockers ? ";" : "");
	}
	text_add(&t, "; or in firmware: disable \"ACS\" / \"PCIe ACS Control\" / \"ACS Enable\" (on PCIe switches: the ACS setting of the switch firmware)");
	if (p->host_blocks)
		text_add(&t, ". The host bridge does not route P2P either: clearing ACS helps only for the part under the common switch");
}
