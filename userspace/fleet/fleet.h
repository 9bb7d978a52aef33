/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fleet comparison (--compare-fleet): many saved JSON reports (or
 * baselines, the same format), grouped by model, BIOS version and kernel
 * release; each group's majority is its reference, and every server that
 * differs from it is listed by what differs, worst first; each group is
 * compared with its model's other groups, and the reports' identities
 * with each other.
 */
#ifndef P2PDIAG_FLEET_FLEET_H
#define P2PDIAG_FLEET_FLEET_H

#include <stdbool.h>
#include <stdio.h>

/*
 * fleet_compare() - compare the reports in @paths (files, or directories
 * whose regular *.json files are read, in name order) and print the
 * result on @out, as text or (@json) JSON; each input that cannot be read
 * is said on @errout, listed in the result, and the others are compared.
 * @tolerance: the share a figure may fall below its group's median.
 * Return: the exit status: 0 no outlier (or information only); 1
 * outliers, groups that differ from their model's others, facts without
 * a majority, duplicated or stale reports; 2 any of those with a pair
 * blocked; 3 an input that could not be read (unless @skip_unreadable;
 * never over a 2), none could be, or the result could not be written.
 */
int fleet_compare(char *const *paths, unsigned int nr_paths, double tolerance,
		  bool skip_unreadable, bool json, FILE *out, FILE *errout);

#endif /* P2PDIAG_FLEET_FLEET_H */
