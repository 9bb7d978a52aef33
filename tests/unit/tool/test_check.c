// SPDX-License-Identifier: GPL-2.0
/*
 * check.c's run_select(): the indices a test keeps come back in order and
 * counted, the reports' and GPUDirect's own arrays are sized from that
 * count, and keeping nothing allocates nothing.
 */
#include <stdio.h>
#include <stdlib.h>

#include "tool_util.h"
#include "p2pdiag/decode.h"

void test_check(struct ktap *k);

static bool is_gpu(const struct check_run *r, unsigned int i, const void *unused)
{
	(void)unused;
	return p2pd_device_kind(r->in.model->fn[i].class_code) == P2PD_KIND_GPU;
}

static bool is_multiple(const struct check_run *r, unsigned int i, const void *arg)
{
	(void)r;
	return i % *(const unsigned int *)arg == 0;
}

static bool never(const struct check_run *r, unsigned int i, const void *unused)
{
	(void)r;
	(void)i;
	(void)unused;
	return false;
}

void test_check(struct ktap *k)
{
	struct p2pd_model m = { 0 };
	struct check_run r = { 0 };
	unsigned int *idx = NULL, three = 3, one = 1, i;
	int n;
	bool in_order = true;

	switch_model(&m, 0, 0x8086);
	r.in.model = &m;

	n = run_select(&r, m.nr_fn, is_gpu, NULL, &idx);
	CHECK(k, n == 3 && idx &&
	      m.fn[idx[0]].addr == P2PD_ADDR(0, 3, 0, 0) &&
	      m.fn[idx[1]].addr == P2PD_ADDR(0, 4, 0, 0) &&
	      m.fn[idx[2]].addr == P2PD_ADDR(0, 5, 0, 0),
	      "run_select: the three GPUs of the switch tree, in the model's order");
	free(idx);

	n = run_select(&r, 10, is_multiple, &three, &idx);
	CHECK(k, n == 4 && idx && idx[0] == 0 && idx[1] == 3 && idx[2] == 6 &&
	      idx[3] == 9, "run_select: the caller's argument reaches the test (0, 3, 6, 9 of 10)");
	free(idx);

	n = run_select(&r, 1000, is_multiple, &one, &idx);
	for (i = 0; idx && i < 1000; i++)
		in_order &= idx[i] == i;
	CHECK(k, n == 1000 && idx && in_order, "run_select: every index kept, in increasing order");
	free(idx);

	idx = &three;	/* run_select() sets it, whatever it held */
	n = run_select(&r, m.nr_fn, never, NULL, &idx);
	CHECK(k, n == 0 && !idx, "run_select: none kept is 0 with no array");

	idx = &three;
	n = run_select(&r, 0, is_multiple, &one, &idx);
	CHECK(k, n == 0 && !idx, "run_select: an empty list is 0 with no array");

	free(m.fn);
}
