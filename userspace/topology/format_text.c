// SPDX-License-Identifier: GPL-2.0
/* Whole ABI texts as malloc'd strings (see format_text.h). */
#include <stdlib.h>
#include <string.h>

#include "uapi/p2pdiag/abi.h"
#include "p2pdiag/endpoint_groups.h"
#include "topology/format_text.h"

/* One pass to count, one to write: @put(@b, @ctx) twice. */
static char *two_passes(void (*put)(struct p2pd_buf *b, const void *ctx),
			const void *ctx, size_t *len)
{
	struct p2pd_buf b;
	char *s;

	p2pd_buf_init(&b, NULL, 0);
	put(&b, ctx);
	s = malloc(b.len + 1);
	if (!s)
		return NULL;
	p2pd_buf_init(&b, s, b.len + 1);
	put(&b, ctx);
	p2pd_buf_terminate(&b);
	*len = b.len;
	return s;
}

struct model_text {
	void (*fn)(struct p2pd_buf *, const struct p2pd_model *);
	const struct p2pd_model *m;
};

static void put_model_text(struct p2pd_buf *b, const void *ctx)
{
	const struct model_text *t = ctx;

	t->fn(b, t->m);
}

char *format_text(void (*fn)(struct p2pd_buf *, const struct p2pd_model *),
		  const struct p2pd_model *m, size_t *len)
{
	const struct model_text t = { fn, m };

	return two_passes(put_model_text, &t, len);
}

/* What one of the pairs texts needs: the model, its groups, a limit. */
struct pairs_text {
	const struct p2pd_model *m;
	struct p2pd_groups g;
	unsigned long limit;		/* 0: the grouped text */
	int trailer;
};

static void put_pairs_text(struct p2pd_buf *b, const void *ctx)
{
	const struct pairs_text *t = ctx;

	if (t->limit && t->trailer)
		p2pd_format_pairs_limit_file(b, t->m, &t->g, t->limit);
	else if (t->limit)
		p2pd_format_pairs_limit(b, t->m, &t->g, t->limit);
	else if (t->trailer)
		p2pd_format_pairs_grouped_file(b, t->m, &t->g);
	else
		p2pd_format_pairs_grouped(b, t->m, &t->g);
}

static char *pairs_text(struct pairs_text *t, size_t *len)
{
	int *storage = calloc((size_t)P2PD_GROUP_INTS_PER_FN *
			      (t->m->nr_fn ? t->m->nr_fn : 1), sizeof(int));
	char *s = NULL;

	if (!storage)
		return NULL;
	p2pd_groups_attach(&t->g, storage, t->m->nr_fn);
	if (!p2pd_group_endpoints(t->m, &t->g))
		s = two_passes(put_pairs_text, t, len);
	free(storage);
	return s;
}

char *format_pairs_file(const struct p2pd_model *m, size_t *len)
{
	struct pairs_text t = { .m = m, .trailer = 1 };

	return pairs_text(&t, len);
}

/* The limit= of a header that says status=limit-exceeded, else 0. */
static unsigned long header_limit(const char *text, size_t len)
{
	static const char key[] = " status=" P2PD_PAIRS_STATUS_LIMIT " limit=";
	const char *nl = memchr(text, '\n', len), *at;
	char head[256];
	size_t n = nl ? (size_t)(nl - text) : len;

	if (n >= sizeof(head))
		return 0;
	memcpy(head, text, n);
	head[n] = '\0';
	at = strstr(head, key);
	return at ? strtoul(at + sizeof(key) - 1, NULL, 10) : 0;
}

char *format_pairs_like(const struct p2pd_model *m, const char *module_text,
			size_t module_len, size_t *len)
{
	struct pairs_text t = { .m = m };

	t.limit = header_limit(module_text, module_len);
	return pairs_text(&t, len);
}

char *release_text(char buf[RELEASE_TEXT_MAX], unsigned int release)
{
	struct p2pd_buf b;

	p2pd_buf_init(&b, buf, RELEASE_TEXT_MAX);
	p2pd_put_release(&b, release);
	p2pd_buf_terminate(&b);
	return buf;
}
