/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Interfaces between the module's own files: main.c starts and stops,
 * walk.c reads the PCI tree into a model, snapshot.c turns models into
 * published snapshots, sysfs.c shows them (endpoint_pairs.c formats
 * each function's own pairs file a read's window at a time).
 */
#ifndef P2PDIAG_KMOD_H
#define P2PDIAG_KMOD_H

#include <linux/kref.h>
#include <linux/sizes.h>
#include <linux/types.h>
#include <p2pdiag/endpoint_groups.h>
#include <p2pdiag/model.h>

/*
 * An immutable, published view of the PCI tree and its texts.  The pairs
 * file is grouped; a function's own pairs (devices/<addr>/pairs) are
 * formatted from the model and its groups when read, where their lines
 * start indexed on a function's first read (endpoint_pairs.c).  Readers
 * look at it inside an RCU read-side section, or hold it (ref) to format
 * from it.
 */
struct p2pd_snapshot {
	struct kref ref;
	struct p2pd_model model;
	struct p2pd_groups groups;
	int *group_storage;		/* what groups points into */
	char *topology;			/* the topology file */
	size_t topology_len;
	char *pairs;			/* the pairs file */
	size_t pairs_len;
	unsigned int nr_suspended;	/* functions powered down, unread */
	/* per function, its pairs file's index once read, else NULL */
	struct p2pd_pairs_index **pairs_index;
};

/* walk.c */
struct pci_dev;
u64 p2pd_pci_addr(const struct pci_dev *pdev);
int p2pd_walk(struct p2pd_model *m, bool all_endpoints, unsigned int *retry,
	      unsigned int *suspended);
void p2pd_model_release(struct p2pd_model *m);

/* iommu_group.c */
struct p2pd_function;
bool p2pd_read_iommu_group(struct pci_dev *pdev, struct p2pd_function *f);

/* crosscheck.c */
void p2pd_crosscheck_p2pdma(const struct p2pd_model *m);

/* snapshot.c */
/* The most bytes the pairs file may take (module parameter pairs_max_bytes). */
#define P2PD_PAIRS_MAX_BYTES_DEFAULT	(16UL * SZ_1M)
#define P2PD_PAIRS_MAX_BYTES_MIN	(1UL * SZ_4K)
#define P2PD_PAIRS_MAX_BYTES_MAX	(1UL * SZ_1G)
int p2pd_snapshot_init(bool all_endpoints, bool crosscheck,
		       unsigned long pairs_max_bytes);
void p2pd_snapshot_exit(void);
int p2pd_rescan(void);
const struct p2pd_snapshot *p2pd_snapshot_current(void);
struct p2pd_snapshot *p2pd_snapshot_get(void);
void p2pd_snapshot_put(struct p2pd_snapshot *s);

/* endpoint_pairs.c */
struct p2pd_pairs_index;
int p2pd_endpoint_pairs_init(struct p2pd_snapshot *s);
void p2pd_endpoint_pairs_free(struct p2pd_snapshot *s);
ssize_t p2pd_endpoint_pairs_read(const struct p2pd_snapshot *s, int x,
				 const char *name, char *buf, loff_t off,
				 size_t count);

/* sysfs.c */
int p2pd_sysfs_init(void);
int p2pd_sysfs_publish(void);
void p2pd_sysfs_unpublish(void);
void p2pd_sysfs_exit(void);

/*
 * The devices/ directory follows the snapshots: before a snapshot is
 * published every function in it gets a directory (prepare), afterwards
 * the directories of functions that are gone are removed (commit).  Called
 * only with the rebuild lock held.
 */
struct p2pd_dir;
struct p2pd_dirs {
	struct p2pd_dir *dir;
	unsigned int nr;
};

int p2pd_devices_prepare(const struct p2pd_model *m, struct p2pd_dirs *next);
void p2pd_devices_commit(struct p2pd_dirs *next);
void p2pd_devices_remove_all(void);

#endif /* P2PDIAG_KMOD_H */
