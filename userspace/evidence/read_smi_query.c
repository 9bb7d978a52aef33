// SPDX-License-Identifier: GPL-2.0
/*
 * nvidia-smi -q, whole or grepped ("nvidia-smi -q | grep -A3 BAR1"): each
 * GPU's BAR1 and framebuffer sizes, its product name, its PCI address
 * ("Bus Id") and its PCIe link ("GPU Link Info": PCIe Generation and Link
 * Width, each Max and Current; newer drivers add Device Current, Device
 * Max and Host Max, which Max already folds in).  A peer that maps a
 * GPU's memory through BAR1 needs BAR1 to span it, so the two sizes side
 * by side are what a maintainer compares.  The n-th section of a kind
 * belongs to the n-th GPU, as nvidia-smi lists them in order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/evidence.h"
#include "p2pdiag/decode.h"

enum section { SEC_NONE, SEC_FB, SEC_BAR1, SEC_GEN, SEC_WIDTH };

/* "Total : 32768 MiB": the MiB, or -1. */
static long total_mib(const char *s)
{
	const char *p = ev_skip_blank(s), *colon;
	char *end;
	long v;

	if (!ev_starts(p, "Total") || !(colon = strchr(p, ':')))
		return -1;
	v = strtol(colon + 1, &end, 10);
	if (end == colon + 1 || v < 0 || !strstr(end, "MiB"))
		return -1;
	return v;
}

/*
 * "Max : 4", "Current : 16x" (@lanes: the x is required, so that a line
 * cut after its first digit is not read as fewer lanes): the key's value
 * into *@v, 0 where nvidia-smi says N/A.  Return: 1 for Max, 2 for
 * Current, 3 for another key of the section (Device Max, Host Max, ...)
 * or a value cut short, 0 for a line that is not the section's.
 */
static int link_value(const char *s, bool lanes, unsigned int *v)
{
	const char *colon = strchr(s, ':'), *p;
	size_t key = colon ? (size_t)(colon - s) : 0;
	unsigned long n;
	char *end;
	int which;

	while (key && (s[key - 1] == ' ' || s[key - 1] == '\t'))
		key--;
	if (!colon || !key)
		return 0;
	if (key == 3 && !strncmp(s, "Max", 3))
		which = 1;
	else if (key == 7 && !strncmp(s, "Current", 7))
		which = 2;
	else if (ev_starts(s, "Device ") || ev_starts(s, "Host "))
		return 3;
	else
		return 0;
	*v = 0;
	p = ev_skip_blank(colon + 1);
	if (ev_starts(p, "N/A") || ev_starts(p, "Unknown"))
		return which;	/* nvidia-smi could not tell */
	if (*p < '0' || *p > '9')
		return 0;
	n = strtoul(p, &end, 10);
	if (lanes ? (*end != 'x' || n > 32) : (n > 7))
		return 3;	/* cut, or no link of nvidia-smi's: unknown */
	*v = (unsigned int)n;
	return which;
}

/* "Bus Id : 00000000:02:00.0" of the @g-th GPU. */
static void bus_id(struct ev_smi_query *q, unsigned int g, const char *colon,
		   struct ev_ref ref)
{
	unsigned int dom, bus, dev, fn;
	int n = 0;

	if (g >= EV_GPU_MAX ||
	    sscanf(colon + 1, " %8x:%2x:%2x.%1u%n", &dom, &bus, &dev, &fn, &n) != 4 ||
	    dev > 31 || fn > 7 || (colon[1 + n] && colon[1 + n] != ' '))
		return;
	q->has_addr[g] = true;
	q->domain[g] = dom;
	q->bus[g] = bus;
	q->dev[g] = dev;
	q->fn[g] = fn;
	q->addr_ref[g] = ref;
}

void read_smi_query(struct evidence *ev, unsigned int fi)
{
	struct ev_file *f = &ev->file[fi];
	struct ev_smi_query *q = &ev->smi;
	enum section sec = SEC_NONE;
	unsigned int i, nr_fb = 0, nr_bar1 = 0, nr_name = 0, nr_bus = 0;
	unsigned int nr_gen = 0, nr_width = 0;

	for (i = 0; i < f->nr_lines; i++) {
		const char *s = ev_skip_blank(f->line[i]), *colon;
		struct ev_ref ref = { fi, i + 1 };
		unsigned int v = 0, g;
		long mib;
		int which;

		if (sec == SEC_GEN || sec == SEC_WIDTH) {
			which = link_value(s, sec == SEC_WIDTH, &v);
			g = (sec == SEC_GEN ? nr_gen : nr_width) - 1;
			if (which == 1 || which == 2) {
				if (sec == SEC_GEN)
					*(which == 1 ? &q->gen_max[g] : &q->gen[g]) = v;
				else
					*(which == 1 ? &q->width_max[g] : &q->width[g]) = v;
				if (which == 2 && v && (sec == SEC_WIDTH || !q->link_ref[g].line))
					q->link_ref[g] = ref;
				f->formats |= EV_FMT_SMI_QUERY;
			}
			if (which)
				continue;
			sec = SEC_NONE;	/* the section ended: this line is another's */
		}
		if (ev_starts(s, "FB Memory Usage")) {
			sec = SEC_FB;
			continue;
		}
		if (ev_starts(s, "BAR1 Memory Usage")) {
			sec = SEC_BAR1;
			continue;
		}
		if (ev_starts(s, "PCIe Generation") && !s[15] && nr_gen < EV_GPU_MAX) {
			sec = SEC_GEN;
			nr_gen++;
			continue;
		}
		if (ev_starts(s, "Link Width") && !s[10] && nr_width < EV_GPU_MAX) {
			sec = SEC_WIDTH;
			nr_width++;
			continue;
		}
		if (ev_starts(s, "Bus Id") && (colon = strchr(s, ':'))) {
			bus_id(q, nr_bus++, colon, ref);
			continue;
		}
		if (ev_starts(s, "Product Name") && (colon = strchr(s, ':')) &&
		    nr_name < EV_GPU_MAX) {
			snprintf(q->name[nr_name], sizeof(q->name[0]), "%s", ev_skip_blank(colon + 1));
			nr_name++;
			f->formats |= EV_FMT_SMI_QUERY;
			continue;
		}
		if (sec == SEC_NONE || (mib = total_mib(s)) < 0)
			continue;
		if (sec == SEC_FB && nr_fb < EV_GPU_MAX) {
			q->fb_mib[nr_fb] = mib;
			nr_fb++;
		} else if (sec == SEC_BAR1 && nr_bar1 < EV_GPU_MAX) {
			q->bar1_mib[nr_bar1] = mib;
			ev_note(&q->bar1_ref[nr_bar1], fi, i + 1);
			nr_bar1++;
		}
		sec = SEC_NONE;
		f->formats |= EV_FMT_SMI_QUERY;
	}
	if (nr_bar1 > q->nr_gpus)
		q->nr_gpus = nr_bar1;
	if (nr_fb > q->nr_gpus)
		q->nr_gpus = nr_fb;
	if (nr_gen > q->nr_gpus)
		q->nr_gpus = nr_gen;
	if (nr_width > q->nr_gpus)
		q->nr_gpus = nr_width;
}

/* lspci's function at @g's "Bus Id", or NULL. */
static struct ev_pci_dev *pci_at(struct evidence *ev, const struct ev_smi_query *q,
				 unsigned int g)
{
	unsigned int i;

	for (i = 0; i < ev->nr_pci; i++) {
		struct ev_pci_dev *d = &ev->pci[i];

		if (!d->anonymous && d->domain == q->domain[g] && d->bus == q->bus[g] &&
		    d->dev == q->dev[g] && d->fn == q->fn[g])
			return d;
	}
	return NULL;
}

/* A GPU's function of its own, for the GPU that no lspci shows. */
static struct ev_pci_dev *pci_add(struct evidence *ev, const struct ev_smi_query *q,
				  unsigned int g)
{
	struct ev_pci_dev *n, *d;

	if (ev->nr_pci >= EV_DEV_MAX)
		return NULL;
	n = realloc(ev->pci, (ev->nr_pci + 1) * sizeof(*n));
	if (!n)
		return NULL;
	ev->pci = n;
	d = &ev->pci[ev->nr_pci++];
	memset(d, 0, sizeof(*d));
	d->gpu = d->nvidia = true;
	d->iommu_group = d->numa_node = -1;
	if (q->has_addr[g]) {
		d->domain = q->domain[g];
		d->bus = q->bus[g];
		d->dev = q->dev[g];
		d->fn = q->fn[g];
		d->ref = q->addr_ref[g];
	} else {
		d->anonymous = true;	/* grepped without its Bus Id */
		d->ref = q->link_ref[g];
	}
	snprintf(d->name, sizeof(d->name), "%s", q->name[g]);
	return d;
}

void ev_smi_links(struct evidence *ev)
{
	const struct ev_smi_query *q = &ev->smi;
	unsigned int g;

	for (g = 0; g < q->nr_gpus && g < EV_GPU_MAX; g++) {
		struct ev_pci_dev *d = NULL;

		if (!q->link_ref[g].line)
			continue;	/* no current link shown */
		if (q->has_addr[g])
			d = pci_at(ev, q, g);
		if (d && d->lnk_ref.line)
			continue;	/* lspci's own LnkSta */
		if (!d && !(d = pci_add(ev, q, g)))
			return;
		d->cap_speed10 = p2pd_link_speed_tenths(q->gen_max[g]);
		d->sta_speed10 = p2pd_link_speed_tenths(q->gen[g]);
		d->cap_width = q->width_max[g];
		d->sta_width = q->width[g];
		d->lnk_ref = q->link_ref[g];
		d->smi_link = true;
	}
}
