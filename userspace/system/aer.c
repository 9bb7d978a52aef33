// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's AER statistics (drivers/pci/pcie/aer.c): each aer_dev_*
 * file is one "<name> <count>" line per error bit and a TOTAL_ERR_COR,
 * TOTAL_ERR_NONFATAL or TOTAL_ERR_FATAL line.  Link Status is read from
 * the function's config space (root only past 64 bytes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/fsroot.h"
#include "topology/pciaddr.h"
#include "system/aer.h"
#include "topology/pcie_config.h"

int aer_parse(const char *text, unsigned long long *total, char *detail, size_t len)
{
	const char *line = text;
	size_t used = 0;
	int found = -1;

	*total = 0;
	detail[0] = '\0';
	while (line && *line) {
		char name[40];
		unsigned long long n;

		if (sscanf(line, "%39s %llu", name, &n) == 2) {
			if (!strncmp(name, "TOTAL_ERR_", 10)) {
				*total = n;
				found = 0;
			} else if (n && used < len) {
				int w = snprintf(detail + used, len - used, "%s%s %llu",
						 used ? ", " : "", name, n);

				used = w < 0 ? used : used + (size_t)w;
			}
		}
		line = strchr(line, '\n');
		if (line)
			line++;
	}
	return found;
}

static bool read_kind(const struct fsroot *root, struct fsroot_refusal *refused,
		      const char *addr, const char *file,
		      unsigned long long *total, char *detail, size_t len)
{
	char text[2048];

	if (fsroot_read(root, refused, text, sizeof(text),
			"/sys/bus/pci/devices/%s/%s", addr, file))
		return false;
	return !aer_parse(text, total, detail, len);
}

void aer_read_counts(const struct fsroot *root, struct fsroot_refusal *refused,
		     unsigned long long addr, struct aer_counts *c)
{
	char a[P2PD_ADDR_STRLEN], d1[AER_DETAIL], d2[AER_DETAIL], d3[AER_DETAIL];

	memset(c, 0, sizeof(*c));
	pciaddr_format(a, addr);
	c->have = read_kind(root, refused, a, "aer_dev_correctable", &c->cor,
			    d1, sizeof(d1)) &&
		  read_kind(root, refused, a, "aer_dev_nonfatal", &c->nonfatal,
			    d2, sizeof(d2)) &&
		  read_kind(root, refused, a, "aer_dev_fatal", &c->fatal, d3,
			    sizeof(d3));
	if (c->have)
		snprintf(c->detail, sizeof(c->detail), "%.80s%s%.80s%s%.80s", d1,
			 d1[0] && (d2[0] || d3[0]) ? ", " : "", d2,
			 d2[0] && d3[0] ? ", " : "", d3);
}

void aer_read_after(const struct fsroot *root, struct fsroot_refusal *refused,
		    struct aer_port *p)
{
	aer_read_counts(root, refused, p->addr, &p->after);
	p->have_lnksta = pcie_config_read_word(root, refused, p->addr,
					       PCIE_CAP_LNKSTA,
						&p->lnksta);
}

void aer_read_before(const struct fsroot *root, struct fsroot_refusal *refused,
		     struct aer_state *a)
{
	unsigned int i;

	for (i = 0; i < a->nr; i++)
		aer_read_counts(root, refused, a->port[i].addr,
				&a->port[i].before);
	a->taken = true;
}

void aer_read_ports_after(const struct fsroot *root,
			  struct fsroot_refusal *refused, struct aer_state *a)
{
	unsigned int i;

	for (i = 0; i < a->nr; i++)
		aer_read_after(root, refused, &a->port[i]);
}

void aer_free(struct aer_state *a)
{
	free(a->port);
	memset(a, 0, sizeof(*a));
}
