// SPDX-License-Identifier: GPL-2.0
/*
 * The findings registry: findings_add() refuses a code outside it and the
 * run then cannot end "all good"; every entry is complete and unique.
 * test_finding_registry_clean(), run last, asserts that no other test
 * made a producer report a code or a severity the registry does not have.
 */
#include <stdio.h>
#include <string.h>

#include "tool_util.h"
#include "findings/finding_registry.h"
#include "findings/findings.h"
#include "judge/outcome.h"

/* The violations this file causes on purpose. */
static unsigned long expected;

void test_finding_registry(struct ktap *k);
void test_finding_registry_clean(struct ktap *k);

void test_finding_registry(struct ktap *k)
{
	struct findings f = { 0 };
	const struct finding_kind *all;
	size_t nr, i, j;
	bool complete = true, unique = true;
	unsigned long before;

	all = finding_kinds(&nr);
	for (i = 0; i < nr; i++) {
		if (!all[i].code || !*all[i].code || !all[i].family ||
		    !all[i].meaning || !*all[i].meaning ||
		    all[i].least > all[i].worst ||
		    strlen(all[i].code) >= FINDING_CODE_LEN)
			complete = false;
		for (j = 0; j < i; j++)
			if (!strcmp(all[i].code, all[j].code))
				unique = false;
	}
	CHECK(k, nr > 80 && complete,
	      "registry: %zu codes, each with a family, a meaning and a severity range", nr);
	CHECK(k, unique, "registry: no code is listed twice");
	CHECK(k, finding_kind(FC_ACS_REDIRECT)->root_cause == RC_ACS_REDIRECT &&
		 finding_kind(FC_BW_LOW)->root_cause == RC_UNDECIDED &&
		 !strcmp(root_cause_name(RC_CONSUMER_GPU), "consumer-gpu") &&
		 !strcmp(root_cause_name(RC_COUNT), "undecided"),
	      "registry: root causes by code and by name");
	CHECK(k, finding_kind_find("acs-redirect") == &all[0] &&
		 finding_kind(FC_ACS_REDIRECT) == &all[0] &&
		 finding_kind(FC_COUNT - 1) == &all[nr - 1] && nr == FC_COUNT &&
		 !finding_kind(FC_COUNT) &&
		 !finding_kind_find("acs-redirect-x") && !finding_kind_find(""),
	      "registry: a code is found by its constant and by its exact name only");

	before = finding_registry_violations();
	CHECK(k, !findings_add(&f, SEV_INFO, FC_VM_GUEST, FINDING_NO_ADDR,
			       FINDING_NO_ADDR, NULL, "x") &&
		 f.nr == 1 && !f.unregistered && f.item[0].id == FC_VM_GUEST &&
		 !strcmp(f.item[0].code, "vm-guest") &&
		 f.item[0].root_cause == RC_VIRTUALIZATION &&
		 finding_registry_violations() == before &&
		 outcome_exit_status(&f) == EXIT_ALL_GOOD,
	      "registry: a registered code is recorded");
	CHECK(k, findings_add(&f, SEV_ERROR, FC_COUNT, FINDING_NO_ADDR,
			      FINDING_NO_ADDR, NULL, "y") == -1 &&
		 f.nr == 1 && f.unregistered &&
		 finding_registry_violations() == before + 1 &&
		 outcome_exit_status(&f) == EXIT_WARNINGS,
	      "registry: a code out of range is refused, and the run is not 'all good'");
	CHECK(k, !findings_add(&f, SEV_ERROR, FC_VM_GUEST, FINDING_NO_ADDR,
			       FINDING_NO_ADDR, NULL, "z") &&
		 f.nr == 2 && finding_registry_violations() == before + 2,
	      "registry: a severity outside the code's range is kept and counted");
	expected += 2;
	findings_free(&f);
}

void test_finding_registry_clean(struct ktap *k)
{
	CHECK(k, finding_registry_violations() == expected,
	      "registry: every finding the other tests produced is registered, in its severity range (%lu unexpected)",
	      finding_registry_violations() - expected);
}
