// SPDX-License-Identifier: GPL-2.0
/*
 * Endpoint labels.  The order follows nvidia-smi topo -m (GPUs, then
 * NICs), so a label here names the same device as a column there.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report/endpoint_labels.h"
#include "judge/results.h"
#include "topology/pciaddr.h"
#include "p2pdiag/decode.h"

/* Labels: GPU0, ACC0, NIC0, NVMe0, DEV0. */
static const char *const kind_prefix[P2PD_KIND_COUNT] = {
	[P2PD_KIND_GPU] = "GPU",
	[P2PD_KIND_ACCELERATOR] = "ACC",
	[P2PD_KIND_NIC] = "NIC",
	[P2PD_KIND_NVME] = "NVMe",
	[P2PD_KIND_OTHER] = "DEV",
};

unsigned int endpoint_labels(const struct check_run *r,
			     struct endpoint_label **out)
{
	const struct p2pd_model *m = r->model;
	struct endpoint_label *ep;
	unsigned int n = 0, rank, i, g, count[P2PD_KIND_COUNT] = { 0 };

	*out = NULL;
	if (!m || !m->nr_fn)
		return 0;
	ep = calloc(m->nr_fn, sizeof(*ep));
	if (!ep)
		return 0;
	/* the kinds' order (GPUs first) is the listing's order */
	for (rank = 0; rank < P2PD_KIND_COUNT; rank++) {
		for (i = 0; i < m->nr_fn; i++) {
			const struct p2pd_function *f = &m->fn[i];

			if (!f->p2p_endpoint ||
			    p2pd_device_kind(f->class_code) != rank ||
			    !run_fn_selected(r, (int)i))
				continue;
			ep[n].fn = (int)i;
			ep[n].gpu = -1;
			for (g = 0; r->gpu && g < r->gpu->nr_dev; g++)
				if (r->gpu->dev[g].pci_addr == f->addr)
					ep[n].gpu = (int)g;
			snprintf(ep[n].label, sizeof(ep[n].label), "%s%u",
				 kind_prefix[rank], count[rank]++);
			n++;
		}
	}
	if (!n) {
		free(ep);
		return 0;
	}
	*out = ep;
	return n;
}

const char *endpoint_label_of(const struct endpoint_label *ep, unsigned int n,
			      int fn)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (ep[i].fn == fn)
			return ep[i].label;
	return NULL;
}

int endpoint_label_find(const struct check_run *r,
			const struct endpoint_label *ep, unsigned int n,
			const char *name)
{
	unsigned int i, addr;

	for (i = 0; i < n; i++)
		if (!strcasecmp(ep[i].label, name))
			return ep[i].fn;
	if (r->model && !pciaddr_parse(name, &addr))
		return p2pd_model_find(r->model, addr);
	return P2PD_NO_INDEX;
}
