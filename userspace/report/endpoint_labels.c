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

/* A P2P endpoint that --pairs keeps: one that gets a label. */
static bool is_listed_endpoint(const struct check_run *r, unsigned int i,
			       const void *unused)
{
	(void)unused;
	return r->in.model->fn[i].p2p_endpoint && run_fn_selected(r, (int)i);
}

unsigned int endpoint_labels(const struct check_run *r,
			     struct endpoint_label **out)
{
	const struct p2pd_model *m = r->in.model;
	struct endpoint_label *ep;
	unsigned int *listed = NULL;
	unsigned int n = 0, rank, j, g, count[P2PD_KIND_COUNT] = { 0 };
	int nr_listed;

	*out = NULL;
	if (!m)
		return 0;
	nr_listed = run_select(r, m->nr_fn, is_listed_endpoint, NULL, &listed);
	if (nr_listed <= 0)
		return 0;
	ep = calloc((size_t)nr_listed, sizeof(*ep));
	if (!ep) {
		free(listed);
		return 0;
	}
	/* the kinds' order (GPUs first) is the listing's order */
	for (rank = 0; rank < P2PD_KIND_COUNT; rank++) {
		for (j = 0; j < (unsigned int)nr_listed; j++) {
			const struct p2pd_function *f = &m->fn[listed[j]];

			if (p2pd_device_kind(f->class_code) != rank)
				continue;
			ep[n].fn = (int)listed[j];
			ep[n].gpu = -1;
			for (g = 0; r->in.gpu && g < r->in.gpu->nr_dev; g++)
				if (r->in.gpu->dev[g].pci_addr == f->addr)
					ep[n].gpu = (int)g;
			snprintf(ep[n].label, sizeof(ep[n].label), "%s%u",
				 kind_prefix[rank], count[rank]++);
			n++;
		}
	}
	free(listed);
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
	unsigned long long addr;
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!strcasecmp(ep[i].label, name))
			return ep[i].fn;
	if (r->in.model && !pciaddr_parse(name, &addr))
		return p2pd_model_find(r->in.model, addr);
	return P2PD_NO_INDEX;
}
