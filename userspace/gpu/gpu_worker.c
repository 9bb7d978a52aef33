// SPDX-License-Identifier: GPL-2.0
/*
 * gpu_probe(), gpu_measure(), gpu_release(): the tool's side of the GPU
 * work, and the watchdog around it.
 *
 * Every CUDA and NVML call runs in one forked worker process that writes
 * its results into a shared anonymous mapping.  The tool waits for each
 * step with a deadline (--timeout) and kills the worker when it passes:
 * a copy stuck behind an ACS redirect or an IOMMU fault, a cuInit that
 * never returns or a driver that crashes ends the worker, never the tool,
 * and the report still gets every figure measured before it plus the
 * name of the step that hung.  One worker does both steps, so cuInit and
 * the driver's start-up are paid once.
 *
 * The worker never outlives the tool: a SIGINT or SIGTERM to the tool
 * kills and reaps it first (platform/interrupt.c), and the kernel kills it
 * when the tool dies any other way (PR_SET_PDEATHSIG).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gpu/gpu_priv.h"
#include "gpu/gpu_names.h"
#include "platform/fsroot.h"
#include "platform/interrupt.h"
#include "topology/pciaddr.h"

/* The worker enforces the deadline itself; this is for when it cannot. */
#define WATCHDOG_GRACE_S	5.0
#define EXIT_WAIT_S		2.0

enum worker_cmd { CMD_PROBED = 'P', CMD_MEASURE = 'M', CMD_QUIT = 'Q' };

/* What both processes see. */
struct shared {
	struct gpu_state st;
	struct gpu_options opt;
	unsigned long long only_pairs[GPU_MAX];
	struct gpu_pair pair[GPU_MAX * (GPU_MAX - 1)];
};

static struct {
	pid_t pid;
	int fd;			/* socketpair end; MSG_NOSIGNAL, no SIGPIPE */
	struct shared *sh;
	const struct fsroot *root;	/* the probe's, for the kernel log */
} worker = { .pid = -1, .fd = -1 };

static double timeout_of(const struct gpu_options *opt)
{
	return opt->timeout_s > 0 ? opt->timeout_s : GPU_DEFAULT_TIMEOUT_S;
}

/*
 * How long a step may take: @extra plus its --timeout, cut to what the
 * run's deadline leaves after @start (*@bound then says so).  A step
 * that starts at or past the deadline still gets a moment, so that it
 * says where it stood rather than nothing.
 */
static double step_limit(const struct gpu_options *opt, double start,
			 double extra, bool *bound)
{
	double limit = extra + timeout_of(opt);

	*bound = false;
	if (opt->deadline > 0 && opt->deadline - start < limit) {
		limit = opt->deadline - start;
		if (limit < 0.1)
			limit = 0.1;
		*bound = true;
	}
	return limit;
}

static bool send_cmd(int fd, char c)
{
	return send(fd, &c, 1, MSG_NOSIGNAL) == 1;
}

static void worker_main(struct shared *sh, int fd, pid_t parent)
{
	struct cuda_api cu = { 0 };
	struct nvml_api nv = { 0 };
	char c;

	/*
	 * Never outlive the tool, however it ends (SIGKILL, a crash): the
	 * kernel kills the worker when its parent goes.  A parent already
	 * gone before that was set is seen as a new parent.
	 */
	interrupt_forget();
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(1);
	sh->st.pair = sh->pair;
	gpu_cuda_probe(&sh->st, &cu);
	if (sh->st.cuda == GPU_OK)
		gpu_nvml_probe(&sh->st, &nv);
	else
		sh->st.nvml = GPU_SKIPPED;	/* nothing to attach it to */
	gpu_nccl_probe(&sh->st);
	gpu_record_step(&sh->st, "", -1, -1);
	if (!send_cmd(fd, CMD_PROBED))
		_exit(1);
	while (read(fd, &c, 1) == 1) {
		if (c == CMD_MEASURE) {
			double end = gpu_now() + sh->opt.wait_idle_s +
				     timeout_of(&sh->opt);

			if (sh->opt.deadline > 0 && sh->opt.deadline < end)
				end = sh->opt.deadline;
			sh->opt.only_pairs = sh->only_pairs;
			sh->st.measure = gpu_measure_all(&sh->st, &sh->opt,
							 &cu, &nv, end);
			if (!send_cmd(fd, CMD_MEASURE))
				break;
		} else {
			break;
		}
	}
	gpu_nvml_release(&nv);
	/* _exit: the parent's stdio buffers were copied too; never flush. */
	_exit(0);
}

/* Wait for the worker's answer c; false on deadline or death. */
static bool await(char want, double deadline, bool *died)
{
	struct pollfd pfd = { .fd = worker.fd, .events = POLLIN };
	char c;

	*died = false;
	for (;;) {
		double left = deadline - gpu_now();
		int r;

		if (left <= 0)
			return false;
		r = poll(&pfd, 1, (int)(left * 1000) + 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			continue;
		if (read(worker.fd, &c, 1) != 1) {
			*died = true;
			return false;
		}
		if (c == want)
			return true;
	}
}

static void reap(bool kill_first)
{
	double until = gpu_now() + EXIT_WAIT_S;
	int status;

	if (worker.pid < 0)
		return;
	if (kill_first)
		kill(worker.pid, SIGKILL);
	/* A process stuck in the driver may take a while to die; never
	 * block on it. */
	while (waitpid(worker.pid, &status, WNOHANG) == 0) {
		if (gpu_now() > until) {
			if (!kill_first)
				kill(worker.pid, SIGKILL);
			kill_first = true;
			until = gpu_now() + EXIT_WAIT_S;
			if (waitpid(worker.pid, &status, WNOHANG) == 0)
				break;
		}
		usleep(1000);
	}
	worker.pid = -1;
	interrupt_watch_child(-1, NULL, 0);
	if (worker.fd >= 0)
		close(worker.fd);
	worker.fd = -1;
}

/* Copy the shared state into the caller's, with a private pair array. */
static void collect(struct gpu_state *st)
{
	struct gpu_pair *pairs = st->pair;
	unsigned int n = worker.sh->st.nr_pairs;
	double probe_s = st->probe_s, measure_s = st->measure_s;

	*st = worker.sh->st;
	st->probe_s = probe_s;
	st->measure_s = measure_s;
	st->pair = NULL;
	if (!n) {
		free(pairs);
		return;
	}
	/* nr_pairs is fixed by the probe: later calls reuse the array. */
	if (!pairs)
		pairs = calloc(n, sizeof(*pairs));
	if (!pairs) {
		st->nr_pairs = 0;
		return;
	}
	memcpy(pairs, worker.sh->pair, n * sizeof(*pairs));
	st->pair = pairs;
}

/*
 * The worker missed its deadline or died: say where, then end it.  In the
 * probe, a stuck NVML call is NVML's; anything else stuck is CUDA's.
 * @bound: the run's deadline (--deadline), not --timeout, set @limit.
 */
static void worker_lost(struct gpu_state *st, bool measuring, bool died,
			double limit, bool bound)
{
	struct gpu_state *w = &worker.sh->st;
	bool nvml = !measuring && !strncmp(w->stuck_step, "nvml", 4);
	enum gpu_status *which = measuring ? &w->measure :
				 nvml ? &w->nvml : &w->cuda;
	const char *where = w->stuck_step[0] ? w->stuck_step :
			    measuring ? "measuring" : "cuInit and device probing";
	const char *verb = measuring ? "complete" : "return";

	if (!measuring && !nvml && w->nvml == GPU_OK)
		w->nvml = GPU_SKIPPED;
	if (died) {
		*which = GPU_FAILED;
		snprintf(w->error, sizeof(w->error),
			 "the GPU worker process died during %s", where);
	} else if (bound) {
		*which = GPU_TIMEOUT;
		w->deadline_hit = true;
		snprintf(w->error, sizeof(w->error),
			 "%s did not %s before the run's deadline (%.0f s left for it): check timed out",
			 where, verb, limit);
	} else {
		*which = GPU_TIMEOUT;
		snprintf(w->error, sizeof(w->error),
			 "%s did not %s within %.0f s: the watchdog ended it",
			 where, verb, limit);
	}
	reap(true);
	collect(st);
	/* a pair stuck in the probe had no copy running: the probe's finding */
	if (measuring && st->stuck_pair >= 0 &&
	    (unsigned int)st->stuck_pair < st->nr_pairs && st->pair)
		st->pair[st->stuck_pair].status = *which == GPU_TIMEOUT ?
						  GPU_TIMEOUT : GPU_FAILED;
	if (*which == GPU_TIMEOUT && worker.root)
		gpu_read_kernel_xid(st, worker.root);
}

/* The kernel's view of the GPU's NUMA node: -1 when it has none. */
static int read_numa_node(const struct fsroot *root,
			  struct fsroot_refusal *refused,
			  unsigned long long addr)
{
	char text[32], bus[P2PD_ADDR_STRLEN], *end;
	long node;

	pciaddr_format(bus, addr);
	if (fsroot_read(root, refused, text, sizeof(text),
			"/sys/bus/pci/devices/%s/numa_node", bus))
		return -1;
	node = strtol(text, &end, 10);
	return end == text || node < -1 || node > 4095 ? -1 : (int)node;
}

/*
 * Each probed GPU's NUMA node, read here in the tool and not in the
 * worker, so that a file under @root that is refused goes back to the
 * caller in @refused like any other system read's; the worker's copy gets
 * the nodes for the measurements that place buffers by them.
 */
static void read_numa_nodes(struct gpu_state *st, const struct fsroot *root,
			    struct fsroot_refusal *refused)
{
	unsigned int d;

	for (d = 0; d < st->nr_dev && d < GPU_MAX; d++) {
		st->dev[d].numa_node = read_numa_node(root, refused,
						      st->dev[d].pci_addr);
		worker.sh->st.dev[d].numa_node = st->dev[d].numa_node;
	}
}

void gpu_probe(struct gpu_state *st, const struct gpu_options *opt,
	       const struct fsroot *root, struct fsroot_refusal *refused)
{
	double start = gpu_now(), limit;
	pid_t parent;
	int sv[2];
	bool died, bound;

	limit = step_limit(opt, start, 0, &bound);
	worker.root = root;
	memset(st, 0, sizeof(*st));
	st->stuck_pair = st->stuck_dev = -1;
	st->measure = GPU_SKIPPED;
	if (opt->no_cuda) {
		st->cuda = st->nvml = GPU_SKIPPED;
		return;
	}
	worker.sh = mmap(NULL, sizeof(*worker.sh), PROT_READ | PROT_WRITE,
			 MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (worker.sh == MAP_FAILED) {
		worker.sh = NULL;
		st->cuda = st->nvml = GPU_FAILED;
		snprintf(st->error, sizeof(st->error), "mmap: %s",
			 strerror(errno));
		return;
	}
	worker.sh->st = *st;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
		st->cuda = st->nvml = GPU_FAILED;
		snprintf(st->error, sizeof(st->error), "socketpair: %s",
			 strerror(errno));
		return;
	}
	fflush(NULL);
	parent = getpid();
	worker.pid = fork();
	if (worker.pid < 0) {
		st->cuda = st->nvml = GPU_FAILED;
		snprintf(st->error, sizeof(st->error), "fork: %s",
			 strerror(errno));
		close(sv[0]);
		close(sv[1]);
		return;
	}
	if (worker.pid == 0) {
		close(sv[0]);
		worker_main(worker.sh, sv[1], parent);
	}
	interrupt_watch_child(worker.pid, worker.sh->st.stuck_step,
			      sizeof(worker.sh->st.stuck_step));
	close(sv[1]);
	worker.fd = sv[0];

	if (await(CMD_PROBED, start + limit, &died))
		collect(st);
	else
		worker_lost(st, false, died, limit, bound);
	read_numa_nodes(st, root, refused);
	st->measure = GPU_SKIPPED;
	st->probe_s = gpu_now() - start;
}

void gpu_measure(struct gpu_state *st, const struct gpu_options *opt)
{
	/* --wait-idle comes before the copies' own deadline */
	double start = gpu_now(), limit;
	bool died, bound;

	limit = step_limit(opt, start, opt->wait_idle_s, &bound);
	if (opt->no_cuda || opt->quick || st->cuda != GPU_OK ||
	    worker.pid < 0) {
		st->measure = GPU_SKIPPED;
		return;
	}
	worker.sh->opt = *opt;
	worker.sh->opt.nr_only_pairs = 0;
	if (opt->only_pairs && opt->nr_only_pairs) {
		unsigned int n = opt->nr_only_pairs < GPU_MAX ?
					 opt->nr_only_pairs : GPU_MAX;

		memcpy(worker.sh->only_pairs, opt->only_pairs,
		       n * sizeof(*opt->only_pairs));
		worker.sh->opt.nr_only_pairs = n;
	}
	if (!send_cmd(worker.fd, CMD_MEASURE)) {
		worker_lost(st, true, true, limit, bound);
	} else if (await(CMD_MEASURE, start + limit + WATCHDOG_GRACE_S,
			 &died)) {
		collect(st);
		/* A worker that gave up on a stuck copy cannot clean up. */
		if (st->measure == GPU_TIMEOUT) {
			reap(true);
			if (st->stuck_pair >= 0 && st->pair &&
			    (unsigned int)st->stuck_pair < st->nr_pairs)
				st->pair[st->stuck_pair].status = GPU_TIMEOUT;
			/* the worker stopped at the end it was given */
			st->deadline_hit = bound;
			if (worker.root)
				gpu_read_kernel_xid(st, worker.root);
		}
	} else {
		worker_lost(st, true, died, limit, bound);
	}
	st->busy = opt->busy;
	st->measure_s = gpu_now() - start;
}

void gpu_release(struct gpu_state *st)
{
	if (worker.pid > 0) {
		send_cmd(worker.fd, CMD_QUIT);
		reap(false);
	}
	if (worker.sh) {
		munmap(worker.sh, sizeof(*worker.sh));
		worker.sh = NULL;
	}
	free(st->pair);
	st->pair = NULL;
	st->nr_pairs = 0;
}
