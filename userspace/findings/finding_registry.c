// SPDX-License-Identifier: GPL-2.0
/*
 * The finding codes' table (finding_registry.h says what it is for), made
 * from the one list in finding_codes.h.
 */
#include <stdio.h>
#include <string.h>

#include "findings/finding_registry.h"

static const struct finding_kind kinds[FC_COUNT] = {
#define FINDING(id, code_, family_, least_, worst_, root_cause_, meaning_, fix_) \
	[id] = { .code = code_, .family = family_, .least = least_, .worst = worst_, \
		 .root_cause = root_cause_, .meaning = meaning_, .fix = fix_ },
#include "findings/finding_codes.h"
#undef FINDING
};

const struct finding_kind *finding_kinds(size_t *nr)
{
	*nr = sizeof(kinds) / sizeof(kinds[0]);
	return kinds;
}

const struct finding_kind *finding_kind_find(const char *code)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++)
		if (!strcmp(kinds[i].code, code))
			return &kinds[i];
	return NULL;
}

const struct finding_kind *finding_kind(enum finding_code code)
{
	return (unsigned int)code < FC_COUNT ? &kinds[code] : NULL;
}

const char *finding_default_fix(enum finding_code code)
{
	const struct finding_kind *k = finding_kind(code);

	return k ? k->fix : NULL;
}

int finding_kinds_print(FILE *out)
{
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		const struct finding_kind *k = &kinds[i];

		if (k->least == k->worst)
			fprintf(out, "%s\t%s", k->code,
				finding_severity_name(k->worst));
		else
			fprintf(out, "%s\t%s-%s", k->code,
				finding_severity_name(k->least),
				finding_severity_name(k->worst));
		fprintf(out, "\t%s\t%s\t%s\n", k->family, k->meaning,
			k->fix ? k->fix : "-");
	}
	return fflush(out) || ferror(out) ? -1 : 0;
}
