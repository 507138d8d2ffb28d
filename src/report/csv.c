// SPDX-License-Identifier: GPL-2.0
/*
 * One row per (ABI, syscall) under a header line: abi,name,nr,calls,errors,time_s,class. Fields are quoted
 * as RFC 4180 says (a field holding a comma, a double quote, CR or LF is put in double quotes, its quotes
 * doubled); lines end in LF, which RFC 4180 readers accept and Unix tools expect. Rows are in the JSON's order:
 * calls descending, then name. An incomplete footprint ends with a comment line: "# footprint INCOMPLETE: why".
 * A footprint that recorded what calls reached has one more column, reached: its refinements most calls first, as
 * "kind:value[@fd]=calls" joined by ';' ("fd:pipe=120;fd:file:ext4=30;ioctl:TCGETS@chr:136:0=2").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "footprint/footprint_json.h"
#include "report/report.h"
#include "report/report_util.h"

static void reached(struct strbuf *sb, const struct fp_sysstat *s)
{
	struct fp_reach **v = fp_sysstat_reach_sorted(s);
	struct strbuf f = STRBUF_INIT;

	for (struct fp_reach **rp = v; *rp; rp++) {
		strbuf_addf(&f, "%s%s:%s", rp == v ? "" : ";", (*rp)->kind, (*rp)->value);
		if ((*rp)->fd)
			strbuf_addf(&f, "@%s", (*rp)->fd);
		strbuf_addf(&f, "=%" PRIu64, (*rp)->calls);
	}
	if (s->reach_other)
		strbuf_addf(&f, "%sother=%" PRIu64, s->nreach ? ";" : "", s->reach_other);
	strbuf_addch(sb, ',');
	rpt_add_csv_field(sb, f.buf ? f.buf : "");
	strbuf_release(&f);
	free(v);
}

static int render(const struct footprint *fp, FILE *out)
{
	struct fp_sysstat **v = fp_sctab_sorted(&fp->syscalls, fp_sysstat_cmp_calls);
	struct strbuf sb = STRBUF_INIT;
	int ret;

	strbuf_addstr(&sb, fp->reach ? "abi,name,nr,calls,errors,time_s,class,reached\n"
				     : "abi,name,nr,calls,errors,time_s,class\n");
	for (struct fp_sysstat **sp = v; *sp; sp++) {
		const struct fp_sysstat *s = *sp;

		rpt_add_csv_field(&sb, kf_abi_name(s->abi));
		strbuf_addch(&sb, ',');
		rpt_add_csv_field(&sb, s->name);
		strbuf_addf(&sb, ",%d,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ".%09" PRIu64 ",", s->nr, s->calls, s->errors,
			    s->time_ns / 1000000000u, s->time_ns % 1000000000u);
		rpt_add_csv_field(&sb, fp_sysstat_class(s));
		if (fp->reach)
			reached(&sb, s);
		strbuf_addch(&sb, '\n');
	}
	/* After the rows, so that header-reading tools are unaffected; readers that skip comments drop it. */
	if (!fp->complete) {
		strbuf_addstr(&sb, "# footprint ");
		rpt_add_incomplete(&sb, fp);
		strbuf_addch(&sb, '\n');
	}
	ret = rpt_flush(&sb, out);
	strbuf_release(&sb);
	free(v);
	return ret;
}

const struct renderer renderer_csv = {
    {"csv", "one row per syscall: abi,name,nr,calls,errors,time_s,class"}, render, NULL, false};
