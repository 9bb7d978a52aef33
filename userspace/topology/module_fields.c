// SPDX-License-Identifier: GPL-2.0
/*
 * One bounded read per field file, through the module source's own
 * reader, so a file the cross-check compares is read as the snapshot's
 * files are.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "platform/fsroot.h"
#include "topology/module_fields.h"
#include "topology/pciaddr.h"
#include "topology/source_sysfs.h"
#include "uapi/p2pdiag/abi.h"

int module_fields_read(const struct fsroot *module_root,
		       const struct p2pd_model *m, struct module_fields *out)
{
	const char *root = fsroot_get(module_root);
	unsigned int i;
	int field;

	memset(out, 0, sizeof(*out));
	if (!m->nr_fn)
		return 0;
	out->f = calloc((size_t)m->nr_fn * P2PD_F_COUNT, sizeof(*out->f));
	if (!out->f)
		return -1;
	out->nr_fn = m->nr_fn;
	for (i = 0; i < m->nr_fn; i++) {
		char a[P2PD_ADDR_STRLEN];

		pciaddr_format(a, m->fn[i].addr);
		for (field = 0; field < P2PD_F_COUNT; field++) {
			struct module_field *mf = &out->f[(size_t)i * P2PD_F_COUNT + field];
			char path[PATH_MAX];

			if (field == P2PD_F_IOMMU_DOMAIN)
				continue;
			snprintf(path, sizeof(path), "%s/%s/%s/%s", root,
				 P2PD_DIR_DEVICES, a, p2pd_field_name(field));
			mf->have = !sysfs_read_value(root, path, mf->text,
						     sizeof(mf->text), NULL);
		}
	}
	return 0;
}

const char *module_field(const struct module_fields *mf, unsigned int fn,
			 enum p2pd_field field)
{
	const struct module_field *f;

	if (fn >= mf->nr_fn)
		return NULL;
	f = &mf->f[(size_t)fn * P2PD_F_COUNT + field];
	return f->have ? f->text : NULL;
}

void module_fields_free(struct module_fields *mf)
{
	free(mf->f);
	memset(mf, 0, sizeof(*mf));
}
