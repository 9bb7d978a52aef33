// SPDX-License-Identifier: GPL-2.0
/*
 * The text of what to change: the kernel parameters that clear ACS
 * redirect on a pair's ports (one pair, or a set of pairs), the runtime
 * setpci command for one port, and the blockers list of a pair.
 */
#include "p2pdiag/format.h"
#include "uapi/p2pdiag/abi.h"

/*
 * Clearing ACS redirect only helps where it leaves a direct path: under a
 * common bridge, or towards a host bridge that routes P2P.
 */
int p2pd_acs_fix_applies(const struct p2pd_pair *p)
{
	return p->nr_blockers &&
	       (p->common_kind == P2PD_COMMON_BRIDGE || !p->host_blocks);
}

/* "<param><item_prefix><addr>;<item_prefix><addr>..." for @nr ports */
static void put_port_list(struct p2pd_buf *b, const struct p2pd_model *m,
			  const int *port, unsigned int nr, const char *param,
			  const char *item_prefix)
{
	unsigned int i;

	if (!nr) {
		p2pd_put_str(b, P2PD_WORD_NONE);
		return;
	}
	p2pd_put_str(b, param);
	for (i = 0; i < nr; i++) {
		if (i)
			p2pd_put_char(b, ';');
		p2pd_put_str(b, item_prefix);
		p2pd_put_addr(b, m->fn[port[i]].addr);
	}
}

/* The pair's ports to clear, or none where clearing would not help. */
static unsigned int pair_fix_ports(const struct p2pd_pair *p)
{
	return p2pd_acs_fix_applies(p) ? p->nr_blockers : 0;
}

/* pci=disable_acs_redir= takes "<addr>" items, pci=config_acs= "<flags>@<addr>" */
#define FIX_PARAM		"pci=disable_acs_redir="
#define CONFIG_ACS_PARAM	"pci=config_acs="
/* flags from DT (left) to SV (right): clear EC, CR, RR; keep others */
#define CONFIG_ACS_ITEM		"x0x00xx@"

void p2pd_format_fix(struct p2pd_buf *b, const struct p2pd_model *m,
		     const struct p2pd_pair *p)
{
	put_port_list(b, m, p->blocker, pair_fix_ports(p), FIX_PARAM, "");
}

void p2pd_format_config_acs(struct p2pd_buf *b, const struct p2pd_model *m,
			    const struct p2pd_pair *p)
{
	put_port_list(b, m, p->blocker, pair_fix_ports(p), CONFIG_ACS_PARAM,
		      CONFIG_ACS_ITEM);
}

int p2pd_port_set_add(struct p2pd_port_set *s, const struct p2pd_pair *p)
{
	unsigned int i, j, k, nr = pair_fix_ports(p);
	int added = 0;

	for (i = 0; i < nr; i++) {
		int port = p->blocker[i];

		for (j = 0; j < s->nr && s->port[j] < port; j++)
			;
		if (j < s->nr && s->port[j] == port)
			continue;
		if (s->nr == P2PD_MAX_FIX_PORTS) {
			s->overflow = 1;
			return -1;
		}
		for (k = s->nr; k > j; k--)
			s->port[k] = s->port[k - 1];
		s->port[j] = port;
		s->nr++;
		added++;
	}
	return added;
}

void p2pd_format_fix_set(struct p2pd_buf *b, const struct p2pd_model *m,
			 const struct p2pd_port_set *s)
{
	put_port_list(b, m, s->port, s->nr, FIX_PARAM, "");
}

void p2pd_format_config_acs_set(struct p2pd_buf *b, const struct p2pd_model *m,
				const struct p2pd_port_set *s)
{
	put_port_list(b, m, s->port, s->nr, CONFIG_ACS_PARAM, CONFIG_ACS_ITEM);
}

void p2pd_format_setpci(struct p2pd_buf *b, const struct p2pd_function *f)
{
	p2pd_put_str(b, "setpci -s ");
	p2pd_put_addr(b, f->addr);
	p2pd_put_str(b, " ECAP_ACS+0x6.w=");
	p2pd_put_hex(b, f->acs_ctrl & ~(unsigned int)P2PD_ACS_REDIRECT_MASK, 4);
}

static void put_host_blocker(struct p2pd_buf *b, const struct p2pd_model *m,
			     int host_fn, unsigned long long host_bridge)
{
	if (host_fn != P2PD_NO_INDEX)
		p2pd_put_addr(b, m->fn[host_fn].addr);
	else
		p2pd_put_host_bridge(b, host_bridge);
	p2pd_put_str(b, ":HB");
}

void p2pd_put_acs_redirect(struct p2pd_buf *b, const struct p2pd_function *f)
{
	p2pd_put_acs_short(b, f->acs_ctrl & P2PD_ACS_REDIRECT_MASK);
}

void p2pd_format_blocker(struct p2pd_buf *b, const struct p2pd_function *f)
{
	p2pd_put_addr(b, f->addr);
	p2pd_put_char(b, ':');
	p2pd_put_acs_redirect(b, f);
}

void p2pd_format_blockers(struct p2pd_buf *b, const struct p2pd_model *m,
			  const struct p2pd_pair *p)
{
	const struct p2pd_function *fa = &m->fn[p->a], *fb = &m->fn[p->b];
	unsigned int i;

	if (!p->nr_blockers && !p->host_blocks) {
		p2pd_put_str(b, P2PD_WORD_NONE);
		return;
	}
	for (i = 0; i < p->nr_blockers; i++) {
		if (i)
			p2pd_put_char(b, ',');
		p2pd_format_blocker(b, &m->fn[p->blocker[i]]);
	}
	if (!p->host_blocks)
		return;
	if (p->nr_blockers)
		p2pd_put_char(b, ',');
	put_host_blocker(b, m, p->host_fn, fa->host_bridge);
	if (fa->host_bridge != fb->host_bridge) {
		p2pd_put_char(b, ',');
		put_host_blocker(b, m, p->host_fn_b, fb->host_bridge);
	}
}
