// SPDX-License-Identifier: GPL-2.0
/*
 * The exit status a run's findings give (outcome.h).
 */
#include "findings/findings.h"
#include "judge/outcome.h"

int outcome_exit_status(const struct findings *f)
{
	switch (findings_worst(f)) {
	case SEV_ERROR:
		return EXIT_P2P_BROKEN;
	case SEV_WARNING:
		return EXIT_WARNINGS;
	default:
		/* A lost finding could have been an error: never say "good". */
		return f->oom || f->unregistered ? EXIT_WARNINGS : EXIT_ALL_GOOD;
	}
}
