/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The module's per-function field files (devices/<addr>/<field>) of its
 * snapshot, read as text for --cross-check, which compares them with
 * libpci's reading of the same functions (judge/cross_check.h).
 */
#ifndef P2PDIAG_TOPOLOGY_MODULE_FIELDS_H
#define P2PDIAG_TOPOLOGY_MODULE_FIELDS_H

#include <stdbool.h>

#include "p2pdiag/format.h"

struct fsroot;

#define MODULE_FIELD_MAX 160

struct module_field {
	bool have;			/* the file was there and read */
	char text[MODULE_FIELD_MAX];
};

struct module_fields {
	/* [function index * P2PD_F_COUNT + field], malloc'd */
	struct module_field *f;
	unsigned int nr_fn;
};

/*
 * module_fields_read() - every field file of every function of @m under
 * the module's tree @module_root (sysfs_read_value()), but the IOMMU domain's:
 * the module names the group and leaves its type to the group's file.
 * Return: 0, or -1 when out of memory (@out then holds none).
 */
int module_fields_read(const struct fsroot *module_root,
		       const struct p2pd_model *m, struct module_fields *out);

/* The field @field of function @fn, or NULL when its file was not read. */
const char *module_field(const struct module_fields *mf, unsigned int fn,
			 enum p2pd_field field);

void module_fields_free(struct module_fields *mf);

#endif /* P2PDIAG_TOPOLOGY_MODULE_FIELDS_H */
