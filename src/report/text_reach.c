// SPDX-License-Identifier: GPL-2.0
// The text report's "reached" section (text_internal.h): what each system call reached beyond its name.
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "report/report_util.h"
#include "report/text_internal.h"

/* How many refinements of one kind a line of the reached section names; the rest is counted. */
#define REACH_ITEMS 8

/*
 * One syscall's refinements, most calls first, grouped by kind in the order of their first: the fd kinds bare
 * ("write: 120 pipe, 30 file:ext4"), the others after their kind ("ioctl 76 TCGETS on chr:136:0").
 */
static void reach_line(struct strbuf *sb, const struct fp_sysstat *s)
{
	struct fp_reach **v = fp_sysstat_reach_sorted(s);
	const char *kinds[FP_REACH_MAX];
	size_t nkinds = 0;
	char buf[64];

	for (struct fp_reach **rp = v; *rp; rp++) {
		bool seen = false;

		for (size_t k = 0; k < nkinds; k++)
			seen |= !strcmp(kinds[k], (*rp)->kind);
		if (!seen)
			kinds[nkinds++] = (*rp)->kind;
	}
	strbuf_addf(sb, "  %s:", rpt_sc_name(s, buf, sizeof(buf)));
	for (size_t k = 0; k < nkinds; k++) {
		uint64_t rest = 0;
		size_t n = 0;

		strbuf_addstr(sb, k ? "; " : " ");
		if (strcmp(kinds[k], "fd"))
			strbuf_addf(sb, "%s ", kinds[k]);
		for (struct fp_reach **rp = v; *rp; rp++) {
			const struct fp_reach *r = *rp;

			if (strcmp(r->kind, kinds[k]))
				continue;
			if (n++ >= REACH_ITEMS) {
				rest += r->calls;
				continue;
			}
			strbuf_addf(sb, "%s%" PRIu64 " ", n > 1 ? ", " : "", r->calls);
			rpt_add_display(sb, r->value);
			if (r->fd) {
				strbuf_addstr(sb, " on ");
				rpt_add_display(sb, r->fd);
			}
			if (r->errors)
				strbuf_addf(sb, " (%" PRIu64 " failed)", r->errors);
		}
		if (rest)
			strbuf_addf(sb, ", others %" PRIu64, rest);
	}
	if (s->reach_other)
		strbuf_addf(sb, "; %" PRIu64 " more, past the %d kept", s->reach_other, FP_REACH_MAX);
	strbuf_addch(sb, '\n');
	free(v);
}

/*
 * What the calls reached, beyond their names: per syscall (most calls first) the kinds of fd, socket families,
 * ioctl commands, namespaces, ... it reached, with the calls of each. Nothing when none were recorded.
 */
void text_reached_section(struct strbuf *sb, const struct footprint *fp)
{
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, text_cmp_calls);
	bool any = false;

	for (struct fp_sysstat **sp = v; *sp; sp++) {
		if (!(*sp)->nreach && !(*sp)->reach_other)
			continue;
		if (!any)
			strbuf_addstr(sb,
				      "\nreached, by system call: calls of each fd kind, socket, ioctl command, ...\n");
		any = true;
		reach_line(sb, *sp);
	}
	free(v);
}
