// SPDX-License-Identifier: GPL-2.0
/*
 * /sys/kernel/p2pdiag, ABI version 2 (include/uapi/p2pdiag/ABI.txt).
 *
 * Every read is served from the current snapshot, inside an RCU read-side
 * section or (devices/<addr>/pairs, formatted when read) holding it:
 * nothing here touches hardware or takes a lock that a rebuild holds,
 * so a rebuild may remove directories (kobject_del() waits for running
 * show() calls) without deadlocking with readers.
 *
 * The per-function directories are plain kobject_create_and_add()
 * kobjects: their release code lives in the kernel, not in this module, so
 * a late release after rmmod cannot run freed module text.  Their show()
 * finds the function by the directory's name, which is its address.
 */
#include <linux/capability.h>
#include <linux/kobject.h>
#include <linux/mm.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/sysfs.h>

#include <uapi/p2pdiag/abi.h>
#include <p2pdiag/format.h>
#include <p2pdiag/parse.h>
#include <p2pdiag/verdict.h>
#include "compat.h"
#include "p2pdiag.h"

/* The longest value is the decoded ACS control, about 80 characters. */
#define P2PD_VALUE_MAX	128

struct p2pd_dir {
	u64 addr;
	struct kobject *kobj;		/* NULL: creating it failed */
};

static struct kobject *p2pd_root_kobj;
static struct kobject *p2pd_devices_kobj;
/* The directories under devices/, sorted by address; rebuild lock held. */
static struct p2pd_dirs p2pd_dirs;

/* Root directory */

static ssize_t abi_version_show(struct kobject *kobj,
				struct kobj_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n", P2PD_ABI_VERSION);
}

static ssize_t generation_show(struct kobject *kobj,
			       struct kobj_attribute *attr, char *buf)
{
	const struct p2pd_snapshot *s;
	unsigned long generation = 0;

	rcu_read_lock();
	s = p2pd_snapshot_current();
	if (s)
		generation = s->model.generation;
	rcu_read_unlock();
	return sysfs_emit(buf, "%lu\n", generation);
}

static ssize_t rescan_store(struct kobject *kobj, struct kobj_attribute *attr,
			    const char *buf, size_t count)
{
	int ret;

	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	/*
	 * Exactly "1" or "1\n": anything else may be a typo; change nothing.
	 * sysfs_streq() stops at a NUL, so a NUL inside the write ("1\0")
	 * is refused first.
	 */
	if (memchr(buf, '\0', count) || !sysfs_streq(buf, "1"))
		return -EINVAL;
	ret = p2pd_rescan();
	return ret ? ret : count;
}

static struct kobj_attribute p2pd_abi_version_attr = {
	.attr = { .name = P2PD_FILE_ABI_VERSION, .mode = 0444 },
	.show = abi_version_show,
};

static struct kobj_attribute p2pd_generation_attr = {
	.attr = { .name = P2PD_FILE_GENERATION, .mode = 0444 },
	.show = generation_show,
};

static struct kobj_attribute p2pd_rescan_attr = {
	.attr = { .name = P2PD_FILE_RESCAN, .mode = 0200 },
	.store = rescan_store,
};

/*
 * Copy @count bytes at @off of one text of the current snapshot.  Each
 * read() sees one snapshot; a reader that needs several read() calls
 * checks that the generation in the header did not move.
 */
static ssize_t p2pd_read_text(char *buf, loff_t off, size_t count,
			      bool pairs)
{
	const struct p2pd_snapshot *s;
	ssize_t ret = -ENODEV;

	rcu_read_lock();
	s = p2pd_snapshot_current();
	if (s)
		ret = memory_read_from_buffer(buf, count, &off,
					      pairs ? s->pairs : s->topology,
					      pairs ? s->pairs_len :
						      s->topology_len);
	rcu_read_unlock();
	return ret;
}

static ssize_t topology_read(struct file *file, struct kobject *kobj,
			     P2PD_BIN_ATTR_CONST struct bin_attribute *attr,
			     char *buf, loff_t off, size_t count)
{
	return p2pd_read_text(buf, off, count, false);
}

static ssize_t pairs_read(struct file *file, struct kobject *kobj,
			  P2PD_BIN_ATTR_CONST struct bin_attribute *attr,
			  char *buf, loff_t off, size_t count)
{
	return p2pd_read_text(buf, off, count, true);
}

/* Size 0: the length changes with every snapshot; reads end at EOF. */
static P2PD_BIN_ATTR_CONST struct bin_attribute p2pd_topology_attr = {
	.attr = { .name = P2PD_FILE_TOPOLOGY, .mode = 0444 },
	.P2PD_BIN_ATTR_READ = topology_read,
};

static P2PD_BIN_ATTR_CONST struct bin_attribute p2pd_pairs_attr = {
	.attr = { .name = P2PD_FILE_PAIRS, .mode = 0444 },
	.P2PD_BIN_ATTR_READ = pairs_read,
};

static struct attribute *p2pd_root_attrs[] = {
	&p2pd_abi_version_attr.attr,
	&p2pd_generation_attr.attr,
	&p2pd_rescan_attr.attr,
	NULL
};

static P2PD_BIN_ATTR_CONST struct bin_attribute *P2PD_BIN_ATTR_CONST
p2pd_root_bin_attrs[] = {
	&p2pd_topology_attr,
	&p2pd_pairs_attr,
	NULL
};

static const struct attribute_group p2pd_root_group = {
	.attrs = p2pd_root_attrs,
	.P2PD_GROUP_BIN_ATTRS = p2pd_root_bin_attrs,
};

/* devices/<dddd:bb:dd.f>/ */

struct p2pd_field_attribute {
	struct kobj_attribute kattr;
	enum p2pd_field field;
};

static ssize_t p2pd_field_show(struct kobject *kobj,
			       struct kobj_attribute *kattr, char *buf)
{
	const struct p2pd_field_attribute *fattr =
		container_of(kattr, struct p2pd_field_attribute, kattr);
	char value[P2PD_VALUE_MAX];
	const struct p2pd_snapshot *s;
	u64 addr;
	struct p2pd_buf b;
	int idx = P2PD_NO_INDEX;

	if (p2pd_parse_addr(kobject_name(kobj), &addr))
		return -EINVAL;
	p2pd_buf_init(&b, value, sizeof(value));
	rcu_read_lock();
	s = p2pd_snapshot_current();
	if (s)
		idx = p2pd_model_find(&s->model, addr);
	if (idx != P2PD_NO_INDEX)
		p2pd_format_field(&b, &s->model.fn[idx], fattr->field);
	rcu_read_unlock();

	/* The function left; its directory goes with the next commit. */
	if (idx == P2PD_NO_INDEX)
		return -ENODEV;
	if (p2pd_buf_terminate(&b))
		return -EOVERFLOW;
	return sysfs_emit(buf, "%s\n", value);
}

/* devices/<addr>/pairs, formatted from a held snapshot: endpoint_pairs.c */
static ssize_t device_pairs_read(struct file *file, struct kobject *kobj,
				 P2PD_BIN_ATTR_CONST struct bin_attribute *attr,
				 char *buf, loff_t off, size_t count)
{
	struct p2pd_snapshot *s;
	u64 addr;
	int idx = P2PD_NO_INDEX;
	ssize_t ret = -ENODEV;

	if (off < 0)
		return -EINVAL;
	if (p2pd_parse_addr(kobject_name(kobj), &addr))
		return -EINVAL;
	s = p2pd_snapshot_get();
	if (s)
		idx = p2pd_model_find(&s->model, addr);
	if (idx != P2PD_NO_INDEX)
		ret = p2pd_endpoint_pairs_read(s, idx, kobject_name(kobj), buf,
					       off, count);
	p2pd_snapshot_put(s);
	return ret;
}

static P2PD_BIN_ATTR_CONST struct bin_attribute p2pd_device_pairs_attr = {
	.attr = { .name = P2PD_FILE_PAIRS, .mode = 0444 },
	.P2PD_BIN_ATTR_READ = device_pairs_read,
};

static P2PD_BIN_ATTR_CONST struct bin_attribute *P2PD_BIN_ATTR_CONST
p2pd_device_bin_attrs[] = {
	&p2pd_device_pairs_attr,
	NULL
};

/* Filled from p2pd_field_name(), the names the topology file uses too. */
static struct p2pd_field_attribute p2pd_field_attrs[P2PD_F_COUNT];
static struct attribute *p2pd_field_attr_list[P2PD_F_COUNT + 1];

static const struct attribute_group p2pd_field_group = {
	.attrs = p2pd_field_attr_list,
	.P2PD_GROUP_BIN_ATTRS = p2pd_device_bin_attrs,
};

static void p2pd_field_attrs_init(void)
{
	unsigned int i;

	for (i = 0; i < P2PD_F_COUNT; i++) {
		struct p2pd_field_attribute *fattr = &p2pd_field_attrs[i];

		sysfs_attr_init(&fattr->kattr.attr);
		fattr->kattr.attr.name = p2pd_field_name(i);
		fattr->kattr.attr.mode = 0444;
		fattr->kattr.show = p2pd_field_show;
		fattr->field = i;
		p2pd_field_attr_list[i] = &fattr->kattr.attr;
	}
	p2pd_field_attr_list[P2PD_F_COUNT] = NULL;
}

/*
 * Waits for running show() calls of the directory: hold no lock they take.
 * kobject_del() frees the name in sysfs now; the kobject itself may live
 * on until its last reference goes (CONFIG_DEBUG_KOBJECT_RELEASE delays
 * that by seconds), which must not keep a reload from creating it anew.
 */
static void p2pd_dir_remove(struct kobject *kobj)
{
	kobject_del(kobj);
	kobject_put(kobj);
}

static struct kobject *p2pd_dir_create(u64 addr)
{
	char name[P2PD_ADDR_STRLEN];
	struct kobject *kobj;
	struct p2pd_buf b;

	p2pd_buf_init(&b, name, sizeof(name));
	p2pd_put_addr(&b, addr);
	if (p2pd_buf_terminate(&b))
		return NULL;
	kobj = kobject_create_and_add(name, p2pd_devices_kobj);
	if (!kobj)
		goto warn;
	if (sysfs_create_group(kobj, &p2pd_field_group))
		goto remove_kobj;
	return kobj;

remove_kobj:
	p2pd_dir_remove(kobj);
warn:
	pr_warn("cannot create devices/%s\n", name);
	return NULL;
}

/**
 * p2pd_devices_prepare() - give every function of @m a directory.
 * @m: the model about to be published
 * @next: the new directory list, for p2pd_devices_commit()
 *
 * Directories that exist already move to @next; the ones left behind are
 * those of functions not in @m.  A directory that cannot be made stays
 * without its kobject in @next, for a later rebuild to make.
 *
 * Context: rebuild lock held.
 * Return: the number of functions left without a directory, or -ENOMEM
 * and nothing changed.
 */
int p2pd_devices_prepare(const struct p2pd_model *m, struct p2pd_dirs *next)
{
	unsigned int i = 0, j;
	int missing = 0;

	next->dir = kvcalloc(max(m->nr_fn, 1U), sizeof(*next->dir),
			     GFP_KERNEL);
	if (!next->dir)
		return -ENOMEM;
	next->nr = m->nr_fn;
	for (j = 0; j < m->nr_fn; j++) {
		struct p2pd_dir *d = &next->dir[j];

		cond_resched();
		d->addr = m->fn[j].addr;
		while (i < p2pd_dirs.nr && p2pd_dirs.dir[i].addr < d->addr)
			i++;
		if (i < p2pd_dirs.nr && p2pd_dirs.dir[i].addr == d->addr &&
		    p2pd_dirs.dir[i].kobj) {
			d->kobj = p2pd_dirs.dir[i].kobj;
			p2pd_dirs.dir[i].kobj = NULL;
		} else {
			d->kobj = p2pd_dir_create(d->addr);
			if (!d->kobj)
				missing++;
		}
	}
	return missing;
}

/**
 * p2pd_devices_commit() - remove the directories @next did not take over.
 * @next: from p2pd_devices_prepare(); becomes the current list
 *
 * Context: rebuild lock held, after the snapshot @next was made for is
 * published.
 */
void p2pd_devices_commit(struct p2pd_dirs *next)
{
	unsigned int i;

	for (i = 0; i < p2pd_dirs.nr; i++) {
		/* Thousands of VFs may go at once; each removal waits on sysfs. */
		cond_resched();
		if (p2pd_dirs.dir[i].kobj)
			p2pd_dir_remove(p2pd_dirs.dir[i].kobj);
	}
	kvfree(p2pd_dirs.dir);
	p2pd_dirs = *next;
}

/**
 * p2pd_devices_remove_all() - empty devices/.
 *
 * Context: rebuild lock held, or no rebuild can run any more.
 */
void p2pd_devices_remove_all(void)
{
	struct p2pd_dirs none = { NULL, 0 };

	p2pd_devices_commit(&none);
}

/**
 * p2pd_sysfs_init() - create /sys/kernel/p2pdiag and its devices/, empty.
 *
 * Return: 0 or -ENOMEM.
 */
int p2pd_sysfs_init(void)
{
	p2pd_field_attrs_init();
	p2pd_root_kobj = kobject_create_and_add(P2PD_KOBJ_NAME, kernel_kobj);
	if (!p2pd_root_kobj)
		return -ENOMEM;
	p2pd_devices_kobj = kobject_create_and_add(P2PD_DIR_DEVICES,
						   p2pd_root_kobj);
	if (!p2pd_devices_kobj)
		goto remove_root;
	return 0;

remove_root:
	p2pd_dir_remove(p2pd_root_kobj);
	p2pd_root_kobj = NULL;
	return -ENOMEM;
}

/**
 * p2pd_sysfs_publish() - add the root directory's files.
 *
 * Return: 0 or a negative errno.
 */
int p2pd_sysfs_publish(void)
{
	return sysfs_create_group(p2pd_root_kobj, &p2pd_root_group);
}

/**
 * p2pd_sysfs_unpublish() - remove the root directory's files.
 *
 * Waits for running reads and rescan writes, which may still rebuild.
 */
void p2pd_sysfs_unpublish(void)
{
	sysfs_remove_group(p2pd_root_kobj, &p2pd_root_group);
}

/**
 * p2pd_sysfs_exit() - remove /sys/kernel/p2pdiag.
 *
 * Context: devices/ is empty (p2pd_devices_remove_all()).
 */
void p2pd_sysfs_exit(void)
{
	p2pd_dir_remove(p2pd_devices_kobj);
	p2pd_devices_kobj = NULL;
	p2pd_dir_remove(p2pd_root_kobj);
	p2pd_root_kobj = NULL;
}
