// SPDX-License-Identifier: GPL-2.0
/*
 * --graph's file: which kind its name asks for, DOT text as written by
 * report_graph.c or SVG/PNG drawn from it by Graphviz's dot(1) fed through
 * a pipe, put in place by atomic_file_write() (a dot file beside it,
 * flushed to disk, renamed over FILE) so that a reader never sees half a
 * picture.
 */
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include "report/report.h"
#include "platform/atomic_file.h"

enum graph_format report_graph_format(const char *path)
{
	size_t n = strlen(path);

	if (n > 4 && !strcasecmp(path + n - 4, ".svg"))
		return GRAPH_SVG;
	if (n > 4 && !strcasecmp(path + n - 4, ".png"))
		return GRAPH_PNG;
	if ((n > 4 && !strcasecmp(path + n - 4, ".dot")) ||
	    (n > 3 && !strcasecmp(path + n - 3, ".gv")))
		return GRAPH_DOT;
	return GRAPH_INVALID;
}

/* Whether dot(1) is an executable file in $PATH. */
static bool have_dot(void)
{
	const char *path = getenv("PATH");
	char dir[4096], file[4200];

	if (!path)
		path = "/usr/bin:/bin";
	while (*path) {
		size_t len = strcspn(path, ":");

		if (len && len < sizeof(dir)) {
			memcpy(dir, path, len);
			dir[len] = '\0';
			snprintf(file, sizeof(file), "%s/dot", dir);
			if (!access(file, X_OK))
				return true;
		}
		path += len;
		if (*path == ':')
			path++;
	}
	return false;
}

int report_graph_check(const char *path, char *err, size_t errlen)
{
	enum graph_format fmt = report_graph_format(path);

	if (fmt == GRAPH_INVALID) {
		snprintf(err, errlen,
			 "--graph %s: name a .dot or .gv file (DOT text), .svg or .png (drawn by Graphviz's dot)",
			 path);
		return -1;
	}
	if (fmt != GRAPH_DOT && !have_dot()) {
		snprintf(err, errlen,
			 "--graph %s: drawing SVG or PNG needs Graphviz's dot, which is not in PATH: install graphviz (apt-get install graphviz), or write %.*s.dot and render it elsewhere",
			 path, (int)(strlen(path) - 4), path);
		return -1;
	}
	return 0;
}

/*
 * dot -T<fmt> with the DOT on its stdin and @out, the file being written,
 * as its stdout.  Return: 0 or -1.
 */
static int render(FILE *out, enum graph_format fmt, const struct check_run *r,
		  int pair, char *err, size_t errlen)
{
	struct sigaction ign = { .sa_handler = SIG_IGN }, old;
	int fd[2], status, wrote;
	FILE *to;
	pid_t pid;

	if (pipe(fd)) {
		snprintf(err, errlen, "--graph: no pipe to dot: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid < 0) {
		snprintf(err, errlen, "--graph: cannot start dot: %s", strerror(errno));
		close(fd[0]);
		close(fd[1]);
		return -1;
	}
	if (!pid) {
		sigset_t none;

		close(fd[1]);
		/* atomic_file_write() holds signals back; dot must not inherit that */
		sigemptyset(&none);
		sigprocmask(SIG_SETMASK, &none, NULL);
		if (dup2(fd[0], STDIN_FILENO) < 0 ||
		    dup2(fileno(out), STDOUT_FILENO) < 0)
			_exit(126);
		close(fd[0]);
		execlp("dot", "dot", fmt == GRAPH_SVG ? "-Tsvg" : "-Tpng",
		       (char *)NULL);
		_exit(127);
	}
	close(fd[0]);
	/* a dot that dies early must be an error here, not a SIGPIPE */
	sigaction(SIGPIPE, &ign, &old);
	to = fdopen(fd[1], "w");
	if (!to) {
		close(fd[1]);
		wrote = -1;
	} else {
		wrote = report_graph_dot(to, r, pair);
		if (fclose(to))
			wrote = -1;
	}
	sigaction(SIGPIPE, &old, NULL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			snprintf(err, errlen, "--graph: lost dot: %s", strerror(errno));
			return -1;
		}
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen,
			 "--graph: cannot run dot: install graphviz, or name a .dot file");
		return -1;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		snprintf(err, errlen,
			 "--graph: dot failed (%s %d; its message is above): write a .dot file and report it with that file",
			 WIFEXITED(status) ? "exit status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
		return -1;
	}
	if (wrote) {
		snprintf(err, errlen, "--graph: could not feed the DOT text to dot");
		return -1;
	}
	return 0;
}

/* What the --graph file is written from; where dot's own failure goes. */
struct graph_job {
	const struct check_run *r;
	int pair;
	enum graph_format fmt;
	char *dot_err;		/* said instead of the writer's reason when set */
	size_t dot_errlen;
};

static int write_graph(FILE *f, const void *ctx)
{
	const struct graph_job *job = ctx;

	if (job->fmt == GRAPH_DOT)
		return report_graph_dot(f, job->r, job->pair);
	return render(f, job->fmt, job->r, job->pair, job->dot_err,
		      job->dot_errlen);
}

int report_graph_write(const char *path, const struct check_run *r, int pair,
		       char *err, size_t errlen)
{
	char dot_err[512] = "", why[1024];
	const struct graph_job job = {
		r, pair, report_graph_format(path), dot_err, sizeof(dot_err),
	};

	if (report_graph_check(path, err, errlen))
		return -1;
	if (!atomic_file_write(path, write_graph, &job, why, sizeof(why)))
		return 0;
	if (dot_err[0])
		snprintf(err, errlen, "%s", dot_err);
	else
		snprintf(err, errlen, "--graph: %s", why);
	return -1;
}
