// SPDX-License-Identifier: GPL-2.0
/*
 * Snapshots: build, publish, retire.
 *
 * A snapshot is immutable once published.  Readers (sysfs show and read
 * callbacks) look at the current one inside an RCU read-side section and
 * never touch hardware; the rebuild that replaces it frees the old one
 * after a grace period.
 *
 * Rebuilds are triggered on load, by PCI bus events, by the end of a
 * system sleep and by writes to rescan, never by a reader.  The bus
 * notifier runs with the PCI core's locks held, so it only counts the
 * request and queues a work item; the work item and rescan writers
 * rebuild under one mutex.  The work runs on a workqueue of the module's
 * own, unbound (a rebuild of thousands of functions takes a while) and
 * freezable, so no rebuild reads config space while the system suspends
 * or resumes: no system workqueue is both (system_unbound_wq, which 7.1
 * renames system_dfl_wq, is not freezable; system_freezable_wq is bound
 * to a CPU).  Triggers coalesce: every trigger bumps
 * a request counter, a rebuild records the count it started at, and a
 * trigger already covered by a rebuild that started after it is done.
 */
#include <linux/atomic.h>
#include <linux/kref.h>
#include <linux/mm.h>
#include <linux/mutex.h>
#include <linux/notifier.h>
#include <linux/pci.h>
#include <linux/rcupdate.h>
#include <linux/suspend.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include <p2pdiag/format.h>
#include "p2pdiag.h"

static struct p2pd_snapshot __rcu *p2pd_current;

/* Serialises rebuilds; also guards the devices/ directory list. */
static DEFINE_MUTEX(p2pd_rebuild_lock);
/* Triggers so far; the notifier bumps it without any lock. */
static atomic_long_t p2pd_requested = ATOMIC_LONG_INIT(0);
/* The request count the last successful rebuild started from. */
static long p2pd_served;
static unsigned long p2pd_generation;
static bool p2pd_all_endpoints;
static bool p2pd_crosscheck;
static unsigned long p2pd_pairs_max_bytes;
/* The last snapshot's pairs file said limit-exceeded; rebuild lock. */
static bool p2pd_pairs_limited;

static struct workqueue_struct *p2pd_wq;

static void p2pd_rebuild_work_fn(struct work_struct *work);
static DECLARE_WORK(p2pd_rebuild_work, p2pd_rebuild_work_fn);

/*
 * A rebuild that failed, or that found functions in reset or error
 * recovery, powered down (whose coming back, a runtime resume, sends no
 * bus event) or whose reads failed, is tried again after 250 ms, then
 * twice as long each time, P2PD_RETRY_MAX times in a row (16 s in all);
 * after that the next PCI event, system resume or rescan write, and at
 * the latest P2PD_REFRESH_MS later, tries.  A rebuild that read
 * everything starts the count anew.
 */
#define P2PD_RETRY_FIRST_MS	250
#define P2PD_RETRY_MAX		6
static unsigned int p2pd_retries;	/* in a row; rebuild lock */
static bool p2pd_stopping;		/* no more retries; rebuild lock */

static void p2pd_retry_work_fn(struct work_struct *work);
static DECLARE_DELAYED_WORK(p2pd_retry_work, p2pd_retry_work_fn);

/*
 * After the retries, a tree with functions left unread (a dGPU that stays
 * in D3cold) is read again once a minute: readers never trigger a
 * rebuild, which holds the PCI rescan lock that hotplug and sriov_numvfs
 * writes need, so what any user reads cannot turn into a rebuild storm.
 */
#define P2PD_REFRESH_MS		60000
static DECLARE_DELAYED_WORK(p2pd_refresh_work, p2pd_retry_work_fn);

static void p2pd_snapshot_free(struct p2pd_snapshot *s)
{
	p2pd_endpoint_pairs_free(s);
	kvfree(s->pairs);
	kvfree(s->topology);
	kvfree(s->group_storage);
	p2pd_model_release(&s->model);
	kfree(s);
}

static void p2pd_snapshot_release(struct kref *ref)
{
	p2pd_snapshot_free(container_of(ref, struct p2pd_snapshot, ref));
}

/**
 * p2pd_snapshot_put() - drop a reference to a published snapshot: the
 * rebuild's (after the grace period that ends its RCU readers), or what
 * p2pd_snapshot_get() gave a reader.
 * @s: the snapshot, or NULL
 *
 * Context: process context: the last reference frees the snapshot.
 */
void p2pd_snapshot_put(struct p2pd_snapshot *s)
{
	if (s)
		kref_put(&s->ref, p2pd_snapshot_release);
}

/* Write @s's text into @b, as the counting pass sized it. */
typedef void (*p2pd_format_fn)(struct p2pd_buf *b,
			       const struct p2pd_snapshot *s);

static void p2pd_topology_text(struct p2pd_buf *b,
			       const struct p2pd_snapshot *s)
{
	p2pd_format_topology_file(b, &s->model);
}

static void p2pd_pairs_text(struct p2pd_buf *b, const struct p2pd_snapshot *s)
{
	p2pd_format_pairs_grouped_file(b, &s->model, &s->groups);
}

static void p2pd_pairs_limit_text(struct p2pd_buf *b,
				  const struct p2pd_snapshot *s)
{
	p2pd_format_pairs_limit_file(b, &s->model, &s->groups,
				     p2pd_pairs_max_bytes);
}

/*
 * Between two lines of a long text: a rebuild of thousands of functions
 * formats for seconds, holding only the rebuild mutex.
 */
static void p2pd_resched(void)
{
	cond_resched();
}

/*
 * Format one file with a counting pass and a filling pass.  A counting
 * pass that passes @cap bytes (0: no cap) stops there: -E2BIG, nothing
 * allocated.
 */
static int p2pd_format_text(const struct p2pd_snapshot *s, p2pd_format_fn fmt,
			    unsigned long cap, char **text, size_t *len)
{
	struct p2pd_buf b;
	char *p;

	p2pd_buf_init_cap(&b, cap);
	b.resched = p2pd_resched;
	fmt(&b, s);
	if (p2pd_buf_full(&b))
		return -E2BIG;
	p = kvmalloc(b.len + 1, GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	p2pd_buf_init(&b, p, b.len + 1);
	b.resched = p2pd_resched;
	fmt(&b, s);
	/* The model did not change between the passes: it must fit. */
	if (WARN_ON_ONCE(p2pd_buf_terminate(&b))) {
		kvfree(p);
		return -EOVERFLOW;
	}
	*text = p;
	*len = b.len;
	return 0;
}

/* Group the endpoints: P2PD_GROUP_INTS_PER_FN ints a function. */
static int p2pd_snapshot_group(struct p2pd_snapshot *s)
{
	unsigned int nr = s->model.nr_fn;

	s->group_storage = kvmalloc_array(max(nr, 1U),
					  sizeof(int) * P2PD_GROUP_INTS_PER_FN,
					  GFP_KERNEL);
	if (!s->group_storage)
		return -ENOMEM;
	p2pd_groups_attach(&s->groups, s->group_storage, nr);
	return p2pd_group_endpoints(&s->model, &s->groups) ? -EINVAL : 0;
}

/*
 * The pairs file, grouped, within pairs_max_bytes; past that, the file
 * says so (status=limit-exceeded) and devices/<addr>/pairs still serve
 * every function's pairs.
 */
static int p2pd_snapshot_pairs(struct p2pd_snapshot *s)
{
	int ret = p2pd_format_text(s, p2pd_pairs_text, p2pd_pairs_max_bytes,
				   &s->pairs, &s->pairs_len);

	lockdep_assert_held(&p2pd_rebuild_lock);
	if (ret != -E2BIG) {
		if (!ret && p2pd_pairs_limited)
			pr_info("generation %lu: the grouped pairs file fits pairs_max_bytes=%lu again\n",
				s->model.generation, p2pd_pairs_max_bytes);
		p2pd_pairs_limited = p2pd_pairs_limited && ret;
		return ret;
	}
	/* said once when it starts, not on every rebuild of a large tree */
	if (!p2pd_pairs_limited)
		pr_warn("generation %lu: the grouped pairs file would pass pairs_max_bytes=%lu; it says status=limit-exceeded until it fits (devices/<addr>/pairs hold every pair)\n",
			s->model.generation, p2pd_pairs_max_bytes);
	p2pd_pairs_limited = true;
	return p2pd_format_text(s, p2pd_pairs_limit_text, 0, &s->pairs,
				&s->pairs_len);
}

static struct p2pd_snapshot *p2pd_snapshot_build(unsigned long generation,
						 unsigned int *retry)
{
	struct p2pd_snapshot *s;
	int ret;

	s = kzalloc(sizeof(*s), GFP_KERNEL);
	if (!s)
		return ERR_PTR(-ENOMEM);
	kref_init(&s->ref);
	ret = p2pd_walk(&s->model, p2pd_all_endpoints, retry,
			&s->nr_suspended);
	if (ret)
		goto free_snapshot;
	/* A function may resume without an event: look again. */
	*retry += s->nr_suspended;
	if (p2pd_crosscheck)
		p2pd_crosscheck_p2pdma(&s->model);
	s->model.generation = generation;
	ret = p2pd_snapshot_group(s);
	if (ret)
		goto free_snapshot;
	ret = p2pd_endpoint_pairs_init(s);
	if (ret)
		goto free_snapshot;
	ret = p2pd_format_text(s, p2pd_topology_text, 0, &s->topology,
			       &s->topology_len);
	if (ret)
		goto free_snapshot;
	ret = p2pd_snapshot_pairs(s);
	if (ret)
		goto free_snapshot;
	return s;

free_snapshot:
	p2pd_snapshot_free(s);
	return ERR_PTR(ret);
}

/* Context: rebuild lock held.  @needed: the last rebuild left work undone. */
static void p2pd_plan_retry(bool needed)
{
	lockdep_assert_held(&p2pd_rebuild_lock);
	if (!needed) {
		p2pd_retries = 0;
		return;
	}
	if (p2pd_stopping)
		return;
	if (p2pd_retries < P2PD_RETRY_MAX) {
		queue_delayed_work(p2pd_wq, &p2pd_retry_work,
				   msecs_to_jiffies(P2PD_RETRY_FIRST_MS <<
						    p2pd_retries));
		p2pd_retries++;
		return;
	}
	if (p2pd_retries == P2PD_RETRY_MAX) {
		pr_info("generation %lu still has unread functions after %u retries; reading them again every %u s\n",
			p2pd_generation, P2PD_RETRY_MAX, P2PD_REFRESH_MS / 1000);
		p2pd_retries++;
	}
	queue_delayed_work(p2pd_wq, &p2pd_refresh_work,
			   msecs_to_jiffies(P2PD_REFRESH_MS));
}

/*
 * Build and publish the next snapshot.  *@retry: functions worth reading
 * again later or left without their directory (0 when the rebuild failed:
 * the whole rebuild is).
 */
static int p2pd_rebuild_locked(unsigned int *retry)
{
	struct p2pd_snapshot *s, *old;
	struct p2pd_dirs next;
	int dirs_ret;

	lockdep_assert_held(&p2pd_rebuild_lock);
	s = p2pd_snapshot_build(p2pd_generation + 1, retry);
	if (IS_ERR(s)) {
		pr_warn("rebuild failed (%ld), keeping generation %lu\n",
			PTR_ERR(s), p2pd_generation);
		return PTR_ERR(s);
	}
	/*
	 * Directories for new functions go up before the snapshot that has
	 * them, so a reader who saw generation N finds N's directories.
	 */
	dirs_ret = p2pd_devices_prepare(&s->model, &next);
	p2pd_generation++;
	old = rcu_replace_pointer(p2pd_current, s,
				  lockdep_is_held(&p2pd_rebuild_lock));
	/* Directories of gone functions show -ENODEV now; remove them. */
	if (dirs_ret >= 0) {
		p2pd_devices_commit(&next);
		/* Directories that could not be made are tried again. */
		*retry += dirs_ret;
	} else {
		pr_warn("devices/ not updated (%d)\n", dirs_ret);
		(*retry)++;
	}
	synchronize_rcu();
	p2pd_snapshot_put(old);
	return 0;
}

/*
 * Rebuild unless a rebuild that started at or after request @want has
 * finished already.
 */
static int p2pd_rebuild_covering(long want, bool killable)
{
	unsigned int retry = 0;
	long start;
	int ret = 0;

	if (killable) {
		if (mutex_lock_killable(&p2pd_rebuild_lock))
			return -EINTR;
	} else {
		mutex_lock(&p2pd_rebuild_lock);
	}
	if (p2pd_served - want < 0 && !p2pd_stopping) {
		start = atomic_long_read(&p2pd_requested);
		ret = p2pd_rebuild_locked(&retry);
		if (!ret)
			p2pd_served = start;
		p2pd_plan_retry(ret || retry);
	}
	mutex_unlock(&p2pd_rebuild_lock);
	return ret;
}

static void p2pd_rebuild_work_fn(struct work_struct *work)
{
	p2pd_rebuild_covering(atomic_long_read(&p2pd_requested), false);
}

static void p2pd_retry_work_fn(struct work_struct *work)
{
	p2pd_rebuild_covering(atomic_long_inc_return(&p2pd_requested), false);
}

/* Ask for a rebuild from a context that may hold the PCI core's locks. */
static void p2pd_request_rebuild(void)
{
	atomic_long_inc(&p2pd_requested);
	queue_work(p2pd_wq, &p2pd_rebuild_work);
}

/*
 * Functions come and go.  Binding and unbinding a driver change nothing
 * the model holds (the IOMMU group is the device's; the domain a driver
 * attaches is not read), so they trigger nothing: a rebuild then would
 * only race with the binding driver, VFIO's open included.
 */
static int p2pd_pci_notify(struct notifier_block *nb, unsigned long action,
			   void *data)
{
	switch (action) {
	case BUS_NOTIFY_ADD_DEVICE:
	case BUS_NOTIFY_DEL_DEVICE:
	case BUS_NOTIFY_REMOVED_DEVICE:
		/*
		 * The PCI core may hold the rescan/remove lock here, which the
		 * walk takes: only ask for a rebuild.
		 */
		p2pd_request_rebuild();
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

static struct notifier_block p2pd_pci_nb = {
	.notifier_call = p2pd_pci_notify,
};

/*
 * A system sleep may have powered functions up or down, and links may
 * have trained anew: read again once the tasks are thawed (the workqueue
 * is freezable).
 */
static int p2pd_pm_notify(struct notifier_block *nb, unsigned long action,
			  void *data)
{
	switch (action) {
	case PM_POST_SUSPEND:
	case PM_POST_HIBERNATION:
	case PM_POST_RESTORE:
		p2pd_request_rebuild();
		return NOTIFY_OK;
	default:
		return NOTIFY_DONE;
	}
}

static struct notifier_block p2pd_pm_nb = {
	.notifier_call = p2pd_pm_notify,
};

/**
 * p2pd_snapshot_current() - the snapshot readers see now.
 *
 * Context: inside rcu_read_lock(); the snapshot stays valid until the
 * matching rcu_read_unlock().
 * Return: the snapshot, or NULL before the first one is published.
 */
const struct p2pd_snapshot *p2pd_snapshot_current(void)
{
	return rcu_dereference(p2pd_current);
}

/**
 * p2pd_snapshot_get() - the snapshot readers see now, held.
 *
 * For a reader that formats outside an RCU read-side section, which may
 * then sleep (and give the CPU away): a rebuild meanwhile publishes the
 * next snapshot without waiting for it.
 *
 * Return: the snapshot, to be dropped with p2pd_snapshot_put(), or NULL
 * before the first one is published.
 */
struct p2pd_snapshot *p2pd_snapshot_get(void)
{
	struct p2pd_snapshot *s;

	rcu_read_lock();
	s = rcu_dereference(p2pd_current);
	if (s && !kref_get_unless_zero(&s->ref))
		s = NULL;
	rcu_read_unlock();
	return s;
}

/**
 * p2pd_rescan() - rebuild now, for a write to rescan.
 *
 * Returns once a rebuild that started after the call has finished; a
 * concurrent rebuild that started after the call counts.
 *
 * Context: process context, may sleep.
 * Return: 0, -EINTR when killed while waiting, or the rebuild's error.
 */
int p2pd_rescan(void)
{
	return p2pd_rebuild_covering(atomic_long_inc_return(&p2pd_requested),
				     true);
}

/**
 * p2pd_snapshot_init() - publish the first snapshot and follow PCI events.
 * @all_endpoints: count every endpoint as a P2P endpoint
 * @crosscheck: compare every rebuild's pairs with pci_p2pdma_distance()
 * @pairs_max_bytes: the most bytes the pairs file may take
 *
 * The notifiers are registered before the first walk, so a function
 * added meanwhile is in that walk or triggers another.
 *
 * Return: 0 or a negative errno; on error nothing is left registered.
 */
int p2pd_snapshot_init(bool all_endpoints, bool crosscheck,
		       unsigned long pairs_max_bytes)
{
	int ret;

	p2pd_all_endpoints = all_endpoints;
	p2pd_crosscheck = crosscheck;
	p2pd_pairs_max_bytes = pairs_max_bytes;
	/* One rebuild at a time runs anyway: they share a mutex. */
	p2pd_wq = alloc_workqueue("p2pdiag", WQ_UNBOUND | WQ_FREEZABLE, 1);
	if (!p2pd_wq)
		return -ENOMEM;
	ret = bus_register_notifier(&pci_bus_type, &p2pd_pci_nb);
	if (ret)
		goto destroy_wq;
	ret = register_pm_notifier(&p2pd_pm_nb);
	if (ret)
		goto unregister_bus_notifier;
	ret = p2pd_rebuild_covering(atomic_long_inc_return(&p2pd_requested),
				    false);
	/* A rebuild queued by the notifier meanwhile may have published. */
	if (ret)
		p2pd_snapshot_exit();
	return ret;

unregister_bus_notifier:
	bus_unregister_notifier(&pci_bus_type, &p2pd_pci_nb);
destroy_wq:
	destroy_workqueue(p2pd_wq);
	p2pd_wq = NULL;
	return ret;
}

/**
 * p2pd_snapshot_exit() - stop following PCI events and free the snapshot.
 *
 * Context: after the sysfs files that read snapshots or trigger rebuilds
 * are gone, so nothing can queue work or look at the snapshot any more.
 */
void p2pd_snapshot_exit(void)
{
	struct p2pd_snapshot *s;

	unregister_pm_notifier(&p2pd_pm_nb);
	bus_unregister_notifier(&pci_bus_type, &p2pd_pci_nb);
	/* A rebuild still running sees this and plans no retry. */
	mutex_lock(&p2pd_rebuild_lock);
	p2pd_stopping = true;
	mutex_unlock(&p2pd_rebuild_lock);
	cancel_work_sync(&p2pd_rebuild_work);
	cancel_delayed_work_sync(&p2pd_retry_work);
	cancel_delayed_work_sync(&p2pd_refresh_work);

	mutex_lock(&p2pd_rebuild_lock);
	p2pd_devices_remove_all();
	s = rcu_replace_pointer(p2pd_current, NULL,
				lockdep_is_held(&p2pd_rebuild_lock));
	mutex_unlock(&p2pd_rebuild_lock);
	destroy_workqueue(p2pd_wq);
	p2pd_wq = NULL;
	synchronize_rcu();
	p2pd_snapshot_put(s);
}
