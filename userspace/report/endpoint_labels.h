/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The names people read for P2P endpoints: GPU0, NIC0, NVMe0, ACC0, DEV0,
 * numbered by address within each kind, as nvidia-smi topo -m numbers its
 * columns.  The matrices, the findings and the picture use the same names.
 */
#ifndef P2PDIAG_ENDPOINT_LABELS_H
#define P2PDIAG_ENDPOINT_LABELS_H

#include "judge/judgement.h"

#define ENDPOINT_LABEL_MAX 16

struct endpoint_label {
	int fn;				/* model index */
	int gpu;			/* gpu_state index, or -1 */
	char label[ENDPOINT_LABEL_MAX];
};

/*
 * endpoint_labels() - the P2P endpoints that pass --pairs, GPUs first,
 * then accelerators, NICs, NVMe and other devices, each kind by address.
 * *@out is malloc'd (NULL when there are none or memory ran out).
 * Return: how many.
 */
unsigned int endpoint_labels(const struct check_run *r,
			     struct endpoint_label **out);

/* The label of model function @fn in @ep, or NULL when it has none. */
const char *endpoint_label_of(const struct endpoint_label *ep, unsigned int n,
			      int fn);

/*
 * endpoint_label_find() - the model index that @name stands for: a label
 * (any case) or a PCI address.  Return: the index, or P2PD_NO_INDEX.
 */
int endpoint_label_find(const struct check_run *r,
			const struct endpoint_label *ep, unsigned int n,
			const char *name);

#endif /* P2PDIAG_ENDPOINT_LABELS_H */
