// SPDX-License-Identifier: GPL-2.0
/*
 * p2pdiag-check: one command that tells a bring-up engineer, for every
 * pair of GPUs, NICs and NVMe drives, whether P2P is really direct, how
 * fast it is against what the links allow, whether the data arrives
 * intact, and what to change when it does not.
 *
 * main() only orchestrates: options, the topology source (module, libpci,
 * or a saved file), the verdict engine, the GPU side, judgement, reports,
 * and the exit status (0 good, 1 warnings, 2 P2P broken, 3 usage or
 * environment error).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "report/baseline.h"
#include "evidence/evidence.h"
#include "fleet/fleet.h"
#include "judge/judgement.h"
#include "judge/cross_check.h"
#include "findings/findings.h"
#include "findings/finding_registry.h"
#include "judge/outcome.h"
#include "gpu/gpu.h"
#include "judge/judge.h"
#include "judge/results.h"
#include "judge/system_checks.h"
#include "options.h"
#include "outputs.h"
#include "platform/bounded_file.h"
#include "platform/fsroot.h"
#include "platform/interrupt.h"
#include "platform/safe_text.h"
#include "report/report.h"
#include "run/model_input.h"
#include "topology/pciaddr.h"
#include "topology/source_pci.h"
#include "topology/source_sysfs.h"
#include "topology/topology_parse.h"
#include "system/kernel.h"
#include "system/system.h"
#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/decode.h"
#include "p2pdiag/format.h"

#define CPUINFO_PATH "/proc/cpuinfo"

/*
 * A message or description with a path in it, cut short at its buffer's
 * end (a root near PATH_MAX), ends in "..." so that nobody takes the cut
 * path for the whole one.
 */
static void mark_cut(char *buf, size_t len)
{
	if (len >= 4)
		memcpy(buf + len - 4, "...", 4);
}

/*
 * The root of the module's files (/sys/kernel/p2pdiag), made once:
 * --sysfs-root, which must be a tree of them (a tree the user named is
 * never this machine's instead), else /sys/kernel/p2pdiag under the root
 * of system reads; where that name would not fit, the run stops, since
 * the live one is not the root's.
 * Return: 0, or -1 with the reason in @err.
 */
static int module_root_init(struct fsroot *mod, const struct options *o,
			    const struct fsroot *sys, char *err, size_t errlen)
{
	char path[PATH_MAX];

	if (o->sysfs_root) {
		if (sysfs_root_check(o->sysfs_root, err, errlen))
			return -1;
		if (fsroot_init_tree(mod, o->sysfs_root)) {
			snprintf(err, errlen, "--sysfs-root %s: %s",
				 o->sysfs_root, strerror(errno));
			return -1;
		}
		return 0;
	}
	/* a root the user named is never this machine's module instead */
	if (fsroot_path(sys, path, sizeof(path), "%s", P2PD_SYSFS_ROOT) ||
	    fsroot_init_tree(mod, path)) {
		snprintf(err, errlen,
			 "--root: %s under it would be a path too long to read: %s",
			 P2PD_SYSFS_ROOT, fsroot_get(sys));
		return -1;
	}
	return 0;
}

/*
 * With --journal, stderr is the journal's: errors at priority 3 and
 * progress at 7 (debug), so that a priority filter keeps the findings.
 */
static const char *stderr_err_prefix = "", *stderr_progress_prefix = "";

/* @msg may quote an input file: its control characters are shown, not sent. */
static void die_usage(const char *msg)
{
	fprintf(stderr, "%sp2pdiag-check: ", stderr_err_prefix);
	safe_fputs(msg, stderr);
	fputc('\n', stderr);
}

static void progress(const char *what)
{
	fprintf(stderr, "%sp2pdiag-check: measuring %s\n", stderr_progress_prefix, what);
}

/* The topology the run judges, and the second one --cross-check reads. */
struct sources {
	struct sysfs_snapshot module;
	int have_module;
	struct p2pd_model pci;
	int have_pci;
	struct p2pd_model file;
	int have_file;
};

static int read_topology_file(const char *path, struct p2pd_model *m,
			      int *cpu_known, char *err, size_t errlen)
{
	struct topo_header hdr;
	char perr[256];
	char *text;
	size_t len;

	/* a file the user names may be a pipe: read it to its end, bounded */
	if (bounded_file_read(path, SYSFS_TABLE_MAX, &text, &len)) {
		snprintf(err, errlen, "cannot read %s: %s", path,
			 errno == EFBIG ? "larger than 64 MiB" : strerror(errno));
		return -1;
	}
	if (topo_parse_ex(text, len, m, &hdr, perr, sizeof(perr))) {
		snprintf(err, errlen, "%s: %s", path, perr);
		free(text);
		return -1;
	}
	*cpu_known = hdr.cpu_known;
	free(text);
	return 0;
}

/*
 * What the judgement is told of the command line: the endpoints --pairs
 * keeps, and what a figure is compared with.
 */
static void judge_inputs(struct check_run *r, const struct options *o)
{
	unsigned int i;

	_Static_assert(OPT_MAX_PAIRS <= SELECTION_MAX,
		       "every --pairs address fits the run's selection");
	for (i = 0; i < o->nr_pairs; i++)
		r->in.selection.addr[i] = o->pairs[i];
	r->in.selection.nr = o->nr_pairs;
	r->in.expand_pairs = o->expand_pairs;
	r->in.nfd_expiry_s = o->nfd_expiry_s;
	r->in.params.min_ratio = o->min_ratio;
	r->in.params.timeout_s = o->timeout_s;
}

/*
 * The release of the kernel whose files the root holds, into *@release;
 * 0 when unreadable.  Return: 0, or -1 when its file is bad input (@err).
 */
static int root_kernel_release(const struct fsroot *sys, unsigned int *release,
			       char *err, size_t errlen)
{
	char text[64];

	*release = 0;
	if (fsroot_read_fact(sys, text, sizeof(text), err, errlen,
			     "/proc/sys/kernel/osrelease"))
		return err[0] ? -1 : 0;
	if (p2pd_release_word(text, strlen(text), release))
		*release = 0;
	return 0;
}

/* The CPU the host bridges are judged for, and where that came from. */
struct cpu_source {
	unsigned int flags;
	int ok;			/* flags were read (or need not be) */
	int foreign;		/* another machine's input, its CPU not given */
	char path[PATH_MAX];	/* the cpuinfo read, "" when none */
};

/*
 * A dump or a saved topology comes from another machine: this one's CPU
 * would decide its host bridges wrongly, so it is used only when asked
 * for (--cpuinfo, or --root at that machine's files).
 */
static int read_cpu(const struct options *o, const struct fsroot *sys,
		    struct cpu_source *c, char *err, size_t errlen)
{
	c->flags = 0;
	c->foreign = (o->pci_dump || o->topology_file) && !o->cpuinfo &&
		     fsroot_is_live(sys);
	c->ok = c->foreign;
	if (o->cpuinfo) {
		snprintf(c->path, sizeof(c->path), "%s", o->cpuinfo);
		c->ok = !cpu_flags_from_cpuinfo(c->path, &c->flags);
	} else if (c->foreign ||
		   fsroot_path(sys, c->path, sizeof(c->path), CPUINFO_PATH)) {
		c->path[0] = '\0';
	} else {
		/* the root's own file: a system file, refused unless regular */
		FILE *fp = fsroot_fopen_fact(sys, err, errlen, CPUINFO_PATH);

		if (!fp && err[0])
			return -1;
		c->ok = fp && !cpu_flags_from_stream(fp, &c->flags);
		if (fp)
			fclose(fp);
	}
	if (!c->ok && o->cpuinfo) {
		snprintf(err, errlen, "cannot read --cpuinfo %s: %s", o->cpuinfo,
			 cpuinfo_strerror(errno));
		return -1;
	}
	return 0;
}

static int source_file(struct check_run *r, const struct options *o,
		       struct sources *s, const struct cpu_source *c,
		       char *err, size_t errlen)
{
	int cpu_known = 0;

	if (read_topology_file(o->topology_file, &s->file, &cpu_known,
			       err, errlen))
		return -1;
	s->have_file = 1;
	if (o->cpuinfo || !cpu_known)
		s->file.cpu_flags = c->flags;
	/* no kernel=: the release of a --root at that machine's files */
	if (!s->file.kernel_release && !fsroot_is_live(r->in.root) &&
	    root_kernel_release(r->in.root, &s->file.kernel_release, err, errlen))
		return -1;
	if (run_inputs_take_model(&r->in, &s->file, err, errlen))
		return -1;
	r->in.source = "file";
	snprintf(r->in.source_detail, sizeof(r->in.source_detail),
		 "saved topology %s, host CPU from %s", o->topology_file,
		 o->cpuinfo ? o->cpuinfo : cpu_known ? "its header" :
		 c->foreign ? "its host bridges" :
		 "the root's " CPUINFO_PATH);
	if (!cpu_known && c->foreign)
		run_inputs_infer_cpu(&r->in, &s->file);
	return 0;
}

static int source_module(struct check_run *r, const struct fsroot *mod,
			 struct sources *s, const struct cpu_source *c,
			 char *err, size_t errlen)
{
	if (sysfs_snapshot_read(r->in.root, mod, &s->module, err, errlen))
		return -1;
	s->have_module = 1;
	/* a module that does not say its CPU: this machine's is it */
	if (!s->module.cpu_known)
		s->module.model.cpu_flags = c->flags;
	if (run_inputs_take_model(&r->in, &s->module.model, err, errlen))
		return -1;
	r->in.source = "module";
	if (snprintf(r->in.source_detail, sizeof(r->in.source_detail),
		     "%s, read in %u attempt%s", fsroot_get(mod),
		     s->module.attempts, s->module.attempts == 1 ? "" : "s") >=
	    (int)sizeof(r->in.source_detail))
		mark_cut(r->in.source_detail, sizeof(r->in.source_detail));
	return 0;
}

/* libpci: this machine's walk or a dump; the model judged unless @judged. */
static int source_pci(struct check_run *r, const struct options *o,
		      struct sources *s, const struct cpu_source *c,
		      int judged, int module_loaded, char *err, size_t errlen)
{
	s->pci.cpu_flags = c->flags;
	/*
	 * this machine's (or the root's) kernel has the host-bridge rules; a
	 * dump's machine only a --root at its files tells
	 */
	if ((!o->pci_dump || !fsroot_is_live(r->in.root)) &&
	    root_kernel_release(r->in.root, &s->pci.kernel_release, err, errlen))
		return -1;
	if (o->pci_dump ? pci_source_read(o->pci_dump, &s->pci, err, errlen) :
	    pci_source_walk(r->in.root, &s->pci, err, errlen))
		return -1;
	s->have_pci = 1;
	if (judged)
		return 0;
	if (run_inputs_take_model(&r->in, &s->pci, err, errlen))
		return -1;
	r->in.source = "pci";
	if (o->pci_dump)
		snprintf(r->in.source_detail, sizeof(r->in.source_detail),
			 "libpci reading the dump %s, host CPU from %s",
			 o->pci_dump, o->cpuinfo ? o->cpuinfo :
			 c->foreign ? "its host bridges" :
			 "the root's " CPUINFO_PATH);
	if (c->foreign)
		run_inputs_infer_cpu(&r->in, &s->pci);
	else if (!fsroot_is_live(r->in.root)) {
		if (snprintf(r->in.source_detail, sizeof(r->in.source_detail),
			     "libpci walk of the PCI tree under %s; %s",
			     fsroot_get(r->in.root),
			     module_loaded ? "--source=pci asked for it" :
			     "its p2pdiag module's files are not there") >=
		    (int)sizeof(r->in.source_detail))
			mark_cut(r->in.source_detail, sizeof(r->in.source_detail));
	} else
		snprintf(r->in.source_detail, sizeof(r->in.source_detail),
			 "libpci walk of this machine; %s",
			 module_loaded ? "--source=pci asked for it" :
			 "the p2pdiag module is not loaded");
	return 0;
}

/*
 * Which source the run judges (a saved topology, the module, libpci; both
 * of the last two for --cross-check), read with the CPU its host bridges
 * are judged for.
 */
static int choose_source(struct check_run *r, const struct options *o,
			 struct sources *s, const struct fsroot *mod,
			 struct fsroot_refusal *refused, char *err, size_t errlen)
{
	int module_loaded = sysfs_module_present(mod);
	int want_module, want_pci;
	struct cpu_source c;

	if (read_cpu(o, r->in.root, &c, err, errlen))
		return -1;
	/* another machine's topology: this machine's ASPM policy is not its */
	if (((!o->topology_file && !o->pci_dump) || !fsroot_is_live(r->in.root)) &&
	    module_value(r->in.root, refused, "pcie_aspm", "parameters/policy",
			 r->in.host_aspm_policy, sizeof(r->in.host_aspm_policy)))
		r->in.host_aspm_policy[0] = '\0';
	if (o->topology_file)
		return source_file(r, o, s, &c, err, errlen);

	want_module = o->source == SOURCE_MODULE || o->cross_check ||
		      (o->source == SOURCE_AUTO && !o->pci_dump && module_loaded);
	want_pci = o->source == SOURCE_PCI || o->cross_check || !want_module;
	if (o->cross_check && !module_loaded) {
		if (snprintf(err, errlen,
			     "--cross-check needs the p2pdiag module: %s/%s does not exist",
			     fsroot_get(mod), P2PD_FILE_ABI_VERSION) >= (int)errlen)
			mark_cut(err, errlen);
		return -1;
	}
	if (want_module && source_module(r, mod, s, &c, err, errlen))
		return -1;
	if (want_pci && source_pci(r, o, s, &c, want_module, module_loaded,
				   err, errlen))
		return -1;
	if (!c.ok && !(s->have_module && s->module.cpu_known))
		findings_add(&r->judged.findings, SEV_WARNING, FC_CPUINFO_UNREADABLE,
			     FINDING_NO_ADDR, FINDING_NO_ADDR, FINDING_NO_FIX,
			     "cannot read %s: host bridges judged as on a non-AMD CPU",
			     c.path[0] ? c.path : CPUINFO_PATH);
	return 0;
}

/*
 * --help, --list-findings and --version print and end the run before any
 * source is read.  Returns 1 with *@status set when one of them did.
 */
static int print_only(const struct options *o, int *status)
{
	if (o->help) {
		options_usage(stdout);
		*status = EXIT_ALL_GOOD;
	} else if (o->list_findings) {
		*status = finding_kinds_print(stdout) ? EXIT_USAGE : EXIT_ALL_GOOD;
	} else if (o->version) {
		printf("p2pdiag-check %s (sysfs ABI %d, JSON schema %d)\n",
		       report_version(), P2PD_ABI_VERSION, REPORT_SCHEMA);
		*status = EXIT_ALL_GOOD;
	} else {
		return 0;
	}
	return 1;
}

/* When the run started, on the GPU side's clock: --deadline counts from it. */
static double run_start;

static double monotonic_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/* What the GPU side is asked to do, from the command line. */
static void gpu_options_of(const struct options *o, struct gpu_options *g)
{
	/* A saved topology or dump is another machine: its GPUs are not here. */
	g->no_cuda = o->no_cuda || o->topology_file || o->pci_dump;
	g->quick = o->quick;
	g->size = o->size;
	g->iterations = o->iterations;
	g->timeout_s = o->timeout_s;
	g->deadline = o->deadline_s > 0 ? run_start + o->deadline_s : 0;
	g->only_pairs = o->nr_pairs ? o->pairs : NULL;
	g->nr_only_pairs = o->nr_pairs;
	g->progress = progress;
	g->busy = o->measure_busy ? GPU_BUSY_MEASURE :
		  o->skip_busy ? GPU_BUSY_SKIP : GPU_BUSY_REFUSE;
	g->wait_idle_s = o->wait_idle_s;
	g->curve = o->curve;
}

static void sources_free(struct sources *s)
{
	if (s->have_module)
		sysfs_snapshot_free(&s->module);
	if (s->have_pci)
		p2pd_model_free(&s->pci);
	if (s->have_file)
		p2pd_model_free(&s->file);
}

/* Everything one run holds, released in one place whatever path it took. */
struct check_session {
	struct check_run run;
	struct fsroot root;
	struct fsroot module_root;	/* module_root_init() */
	/* what main.c's own readers refused under the root (root_refused()) */
	struct fsroot_refusal refused;
	struct system_report sys;
	struct sources src;
	struct evidence *evidence;
	struct gpu_state *gpu;
	struct gpu_options gopt;
	int graph_pair;
};

/* How a stage of the run ended: only STAGE_FAILED leaves a message to say. */
enum stage_result {
	STAGE_DONE,
	STAGE_FAILED,		/* the error buffer says why */
	STAGE_REFUSED,		/* root_refused() has said why */
};

/*
 * A system file under the root that the readers took for an unknown fact
 * but that is there as something other than a regular file (struct
 * fsroot_refusal): bad input, said before anything is measured, after
 * the GPUs' probe and again before the report, for the files read while
 * judging.  The readers main.c calls give it back in @s->refused, those
 * of the system report in its own; main.c's are read first (the ASPM
 * policy, before the system report), so the first file refused is said.
 * Return: whether there was one (then said on stderr).
 */
static bool root_refused(const struct check_session *s)
{
	const struct fsroot_refusal *refused =
		fsroot_refused(&s->refused) ? &s->refused : &s->sys.refused;

	if (!fsroot_refused(refused))
		return false;
	die_usage(refused->why);
	return true;
}

/* --evidence: another machine's pasted outputs; nothing of this one is read. */
static enum stage_result check_evidence(struct check_session *s,
					const struct options *opt,
					char *err, size_t errlen)
{
	s->evidence = malloc(sizeof(*s->evidence));
	if (!s->evidence) {
		snprintf(err, errlen, "out of memory");
		return STAGE_FAILED;
	}
	evidence_init(s->evidence);
	if (opt->cpuinfo &&
	    cpu_flags_from_cpuinfo(opt->cpuinfo, &s->evidence->cpu_flags)) {
		snprintf(err, errlen, "cannot read --cpuinfo %s: %s",
			 opt->cpuinfo, cpuinfo_strerror(errno));
		return STAGE_FAILED;
	}
	s->evidence->cpu_known = opt->cpuinfo != NULL;
	if (evidence_read(&s->run.in, s->evidence, opt->evidence_files,
			  opt->nr_evidence, err, errlen) ||
	    judge_evidence(&s->run, s->evidence, err, errlen))
		return STAGE_FAILED;
	return STAGE_DONE;
}

/* The topology and its pairs, and what can be refused before measuring. */
static enum stage_result check_topology(struct check_session *s,
					const struct options *opt,
					char *err, size_t errlen)
{
	const char *graph_names[2] = { opt->graph_pair[0], opt->graph_pair[1] };

	if (module_root_init(&s->module_root, opt, &s->root, err, errlen) ||
	    choose_source(&s->run, opt, &s->src, &s->module_root, &s->refused,
			  err, errlen) ||
	    judge_pairs(&s->run, err, errlen))
		return STAGE_FAILED;
	/* a picture that cannot be drawn is refused before anything is measured */
	if (opt->graph && (report_graph_check(opt->graph, err, errlen) ||
			   (opt->has_graph_pair &&
			    report_graph_pair(&s->run, graph_names, &s->graph_pair,
					      err, errlen))))
		return STAGE_FAILED;
	if (s->src.have_module)
		judge_engine_self_check(&s->run, &s->src.module);
	if (opt->cross_check) {
		struct module_fields fields;

		/* out of memory: each field then compared as the topology line */
		if (module_fields_read(&s->module_root, &s->src.module.model,
				       &fields))
			s->run.judged.findings.oom = true;
		judge_cross_check(&s->run, &fields, &s->src.module, &s->src.pci);
		module_fields_free(&fields);
	}
	return STAGE_DONE;
}

/* This machine: its GPUs, their measurements, its settings, the baseline. */
static enum stage_result check_machine(struct check_session *s,
				       const struct options *opt,
				       char *err, size_t errlen)
{
	gpu_options_of(opt, &s->gopt);
	s->gpu = calloc(1, sizeof(*s->gpu));
	if (!s->gpu) {
		snprintf(err, errlen, "out of memory");
		return STAGE_FAILED;
	}
	if (system_begin(&s->run.in, &s->sys, opt->topology_file || opt->pci_dump,
			 err, errlen))
		return STAGE_FAILED;
	system_judge_before(&s->run, &s->sys);
	system_before_copies(&s->run.in, &s->sys);
	if (root_refused(s))
		return STAGE_REFUSED;
	gpu_probe(s->gpu, &s->gopt, &s->root, &s->refused);
	if (root_refused(s))
		return STAGE_REFUSED;
	if (!s->gopt.no_cuda && !s->gopt.quick && s->gpu->cuda == GPU_OK &&
	    s->gpu->nr_dev) {
		gpu_measure(s->gpu, &s->gopt);
		s->run.in.gpu_measured = true;
	}
	s->run.in.gpu = s->gpu;

	/* the facts after the copies, read before any of them is judged */
	system_inspect(&s->run.in, &s->sys);
	if (root_refused(s))
		return STAGE_REFUSED;
	judge_topology(&s->run);
	judge_gpus(&s->run);
	system_judge(&s->run, &s->sys);
	if (opt->baseline == BASELINE_CHECK &&
	    baseline_check(opt->baseline_file, &s->run, opt->tolerance, err,
			   errlen))
		return STAGE_FAILED;
	return STAGE_DONE;
}

/* The stages in order; the first that does not finish ends the run. */
static enum stage_result check_stages(struct check_session *s,
				      const struct options *opt,
				      char *err, size_t errlen)
{
	enum stage_result r;

	s->run.in.root = &s->root;
	judge_inputs(&s->run, opt);
	s->run.in.source = "none";
	snprintf(s->run.in.source_detail, sizeof(s->run.in.source_detail),
		 "no topology was read");
	if (opt->evidence)
		return check_evidence(s, opt, err, errlen);
	r = check_topology(s, opt, err, errlen);
	if (r == STAGE_DONE)
		r = check_machine(s, opt, err, errlen);
	return r;
}

static void check_session_free(struct check_session *s)
{
	if (s->gpu) {
		gpu_release(s->gpu);
		free(s->gpu);
	}
	system_report_free(&s->sys);
	judge_release(&s->run);
	run_inputs_release(&s->run.in);
	if (s->evidence) {
		evidence_free(s->evidence);
		free(s->evidence);
	}
	causes_free(&s->run.judged.causes);
	findings_free(&s->run.judged.findings);
	sources_free(&s->src);
}

int main(int argc, char **argv)
{
	struct check_session s = { .graph_pair = -1 };
	struct options opt;
	char err[1024];
	int status = EXIT_USAGE;

	run_start = monotonic_now();
	interrupt_install();
	if (options_parse(argc, argv, &opt, err, sizeof(err))) {
		die_usage(err);
		return EXIT_USAGE;
	}
	if (opt.journal) {
		stderr_err_prefix = "<3>";
		stderr_progress_prefix = "<7>";
	}
	if (print_only(&opt, &status))
		return status;
	if (opt.compare_fleet)
		return fleet_compare(opt.fleet_paths, opt.nr_fleet_paths, opt.tolerance,
				     opt.skip_unreadable, opt.json, stdout, stderr);
	if (fsroot_init(&s.root, opt.root ? opt.root : getenv(FSROOT_ENV), err,
			sizeof(err))) {
		die_usage(err);
		return EXIT_USAGE;
	}
	switch (check_stages(&s, &opt, err, sizeof(err))) {
	case STAGE_DONE:
		if (causes_build(&s.run, &s.run.judged.causes))
			s.run.judged.findings.oom = true;
		diagnose(&s.run);
		status = outputs_write(&s.run, &opt, OUTPUT_AFTER_VERDICT,
				       outcome_exit_status(&s.run.judged.findings), s.graph_pair,
				       die_usage);
		/* pasted files of which none could be read: reported, and exit 3 */
		if (s.evidence && evidence_none_read(s.evidence))
			status = EXIT_USAGE;
		break;
	case STAGE_FAILED:
		die_usage(err);
		break;
	case STAGE_REFUSED:
		break;
	}
	status = outputs_write(&s.run, &opt, OUTPUT_ALWAYS, status, s.graph_pair, die_usage);
	check_session_free(&s);
	return status;
}
