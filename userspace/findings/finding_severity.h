/* SPDX-License-Identifier: GPL-2.0 */
/*
 * How bad a finding is, and its name in every report.  Below both the
 * findings (findings/findings.h) and the registry of their codes
 * (findings/finding_registry.h), which each use it.
 */
#ifndef P2PDIAG_FINDING_SEVERITY_H
#define P2PDIAG_FINDING_SEVERITY_H

enum finding_severity {
	SEV_INFO,	/* worth knowing; exit status 0 */
	SEV_WARNING,	/* slower or riskier than it should be; exit status 1 */
	SEV_ERROR,	/* P2P broken: blocked, fake, corrupt, hung; exit status 2 */
};

/* "info", "warning", "error"; "unknown" for any other value. */
const char *finding_severity_name(enum finding_severity s);

#endif /* P2PDIAG_FINDING_SEVERITY_H */
