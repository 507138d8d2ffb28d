// SPDX-License-Identifier: GPL-2.0
/* The JSON writer, the kfootprint/1 writer and reader: exact output, escaping, round trips, bad input. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <unistd.h>

#include <cmocka.h>
#include <json-c/json.h>

#include "fp_load.h"
#include "fp_sample.h"
#include "footprint/footprint_json.h"
#include "footprint/csite.h"
#include "footprint/kfunc.h"
#include "footprint/merge.h"
#include "util/json_writer.h"

/* Everything fp__write_json() writes for fp, as a string (caller frees). */
static char *to_json(const struct footprint *fp)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fp__write_json(fp, f), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The offset of the last occurrence of needle in s: equal to strstr's when it occurs once. */
static long strrstr_offset(const char *s, const char *needle)
{
	const char *p, *last = NULL;

	for (p = strstr(s, needle); p; p = strstr(p + 1, needle))
		last = p;
	return last ? last - s : -1;
}

/* Loads a document the writer wrote: no message, and written again it is the same bytes. */
static struct footprint *round_trip(const char *a)
{
	char *msg, *b;
	struct footprint *back = load_capturing(a, "mem", &msg);

	assert_string_equal(msg, "");
	free(msg);
	assert_non_null(back);
	b = to_json(back);
	assert_string_equal(a, b);
	free(b);
	return back;
}

static void test_writer_layout(void **state)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer_t *w = jsonw_new(f);

	jsonw_start_object(w);
	jsonw_string_field(w, "a", "x");
	jsonw_name(w, "list");
	jsonw_start_array(w);
	jsonw_start_object_inline(w);
	jsonw_u64_field(w, "n", 18446744073709551615ull);
	jsonw_int_field(w, "i", -3);
	jsonw_name(w, "e");
	jsonw_start_object(w); /* inherits the inline layout */
	jsonw_end_object(w);
	jsonw_name(w, "v");
	jsonw_start_array(w);
	jsonw_bool(w, true);
	jsonw_null(w);
	jsonw_end_array(w);
	jsonw_end_object(w);
	jsonw_end_array(w);
	jsonw_name(w, "empty");
	jsonw_start_array(w);
	jsonw_end_array(w);
	jsonw_fixed_field(w, "f", 0.25, 3);
	jsonw_fixed_field(w, "negzero", -0.0, 2);
	jsonw_ns_as_s_field(w, "t", 1234567890123ull);
	jsonw_string_field(w, "nul", NULL);
	jsonw_end_object(w);
	jsonw_destroy(&w);
	assert_null(w);
	fclose(f);
	assert_string_equal(buf, "{\n"
				 "  \"a\": \"x\",\n"
				 "  \"list\": [\n"
				 "    {\"n\": 18446744073709551615, \"i\": -3, \"e\": {}, \"v\": [true, null]}\n"
				 "  ],\n"
				 "  \"empty\": [],\n"
				 "  \"f\": 0.250,\n"
				 "  \"negzero\": 0.00,\n"
				 "  \"t\": 1234.567890123,\n"
				 "  \"nul\": null\n"
				 "}\n");
	free(buf);
}

/* One document in a style, written by jsonw; and the same document built with json-c. */
static char *styled(unsigned style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer_t *w = jsonw_new_style(f, style);

	jsonw_start_object(w);
	jsonw_string_field(w, "s", "tab\there \"q\" nl\n cr\r bs\b ff\f bel\a caf\xc3\xa9 a/b");
	jsonw_int_field(w, "i", -7);
	jsonw_u64_field(w, "u", 18446744073709551615ull);
	jsonw_null_field(w, "n");
	jsonw_name(w, "a");
	jsonw_start_array(w);
	jsonw_string(w, "x");
	jsonw_start_object(w);
	jsonw_bool_field(w, "t", true);
	jsonw_name(w, "e");
	jsonw_start_array(w);
	jsonw_end_array(w);
	jsonw_end_object(w);
	jsonw_end_array(w);
	jsonw_name(w, "o");
	jsonw_start_object(w);
	jsonw_end_object(w);
	jsonw_end_object(w);
	jsonw_destroy(&w);
	fclose(f);
	return buf;
}

static json_object *jsonc_doc(void)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array(), *in = json_object_new_object();

	json_object_object_add(o, "s",
			       json_object_new_string("tab\there \"q\" nl\n cr\r bs\b ff\f bel\a caf\xc3\xa9 a/b"));
	json_object_object_add(o, "i", json_object_new_int(-7));
	json_object_object_add(o, "u", json_object_new_uint64(18446744073709551615ull));
	json_object_object_add(o, "n", NULL);
	json_object_array_add(a, json_object_new_string("x"));
	json_object_object_add(in, "t", json_object_new_boolean(1));
	json_object_object_add(in, "e", json_object_new_array());
	json_object_array_add(a, in);
	json_object_object_add(o, "a", a);
	json_object_object_add(o, "o", json_object_new_object());
	return o;
}

/*
 * The layouts map -F json and map databases were first published with came from json-c: the writer's styles
 * give the same bytes, so those documents did not change when json-c stopped writing them.
 */
static void test_writer_styles_match_jsonc(void **state)
{
	json_object *o = jsonc_doc();
	char *pretty = styled(JSONW_SHORT_ESCAPES | JSONW_OPEN_EMPTY),
	     *plain = styled(JSONW_COMPACT | JSONW_SHORT_ESCAPES);
	char *want = NULL;

	(void)state;
	want = strdup(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
							    JSON_C_TO_STRING_NOSLASHESCAPE));
	assert_non_null(want);
	assert_int_equal(strlen(pretty), strlen(want) + 1);
	assert_memory_equal(pretty, want, strlen(want));
	assert_int_equal(pretty[strlen(want)], '\n');
	assert_string_equal(plain,
			    json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN | JSON_C_TO_STRING_NOSLASHESCAPE));
	free(want);
	free(pretty);
	free(plain);
	json_object_put(o);
}

/* The byte rule is the same in every style: invalid UTF-8 as \\xHH, a backslash doubled. */
static void test_writer_styles_same_byte_rule(void **state)
{
	const unsigned styles[] = {0, JSONW_SHORT_ESCAPES | JSONW_OPEN_EMPTY, JSONW_COMPACT | JSONW_SHORT_ESCAPES};

	(void)state;
	for (size_t i = 0; i < sizeof(styles) / sizeof(styles[0]); i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);
		json_writer_t *w = jsonw_new_style(f, styles[i]);

		jsonw_start_array_inline(w);
		jsonw_string(w, "caf\xe9\\x");
		jsonw_end_array(w);
		jsonw_destroy(&w);
		fclose(f);
		assert_non_null(strstr(buf, "\"caf\\\\xe9\\\\\\\\x\""));
		free(buf);
	}
}

static char *write_string(const char *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_writer_t *w = jsonw_new(f);

	jsonw_start_array_inline(w);
	jsonw_string(w, s);
	jsonw_end_array(w);
	jsonw_destroy(&w);
	fclose(f);
	return buf;
}

/* JSON text -> json-c -> jsonw_unescape_bytes(): what a reader of our files gets back. */
static char *read_back(const char *json)
{
	struct json_tokener *tok = json_tokener_new();
	struct json_object *o;
	bool had_nul;
	char *s;

	json_tokener_set_flags(tok, JSON_TOKENER_STRICT | JSON_TOKENER_VALIDATE_UTF8);
	o = json_tokener_parse_ex(tok, json, (int)strlen(json));
	assert_non_null(o);
	assert_int_equal(json_tokener_get_error(tok), json_tokener_success);
	s = jsonw_unescape_bytes(json_object_get_string(json_object_array_get_idx(o, 0)), &had_nul);
	assert_false(had_nul);
	json_object_put(o);
	json_tokener_free(tok);
	return s;
}

static void test_writer_escapes(void **state)
{
	/* quote, backslash, control bytes, DEL kept, valid UTF-8 kept, invalid bytes as \xHH */
	const char *in = "a\"b\\c\x01\n\x1f\x7f \xc3\xa9 \xff\xfe \xe2\x82 \xed\xa0\x80 \xf0\x9f\x98\x80";
	char *out = write_string(in), *back;

	assert_string_equal(out, "[\"a\\\"b\\\\\\\\c\\u0001\\u000a\\u001f\x7f \xc3\xa9 \\\\xff\\\\xfe \\\\xe2\\\\x82 "
				 "\\\\xed\\\\xa0\\\\x80 \xf0\x9f\x98\x80\"]\n");
	back = read_back(out);
	assert_string_equal(back, in);
	free(back);
	free(out);
}

/* Every single byte and many random byte strings survive write -> parse -> unescape unchanged. */
static void test_writer_bytes_round_trip(void **state)
{
	char s[40];

	for (int c = 1; c < 256; c++) {
		char *out, *back;

		s[0] = (char)c;
		s[1] = '\\';
		s[2] = 'x';
		s[3] = '4';
		s[4] = '1';
		s[5] = '\0';
		out = write_string(s);
		back = read_back(out);
		assert_string_equal(back, s);
		free(out);
		free(back);
	}
	srand(42);
	for (int i = 0; i < 2000; i++) {
		size_t n = (size_t)(rand() % 38);
		char *out, *back;

		for (size_t j = 0; j < n; j++) {
			/* biased towards the interesting bytes */
			static const char pick[] = "\\x0f\"\x80\xc3\xa9\xe2\xf0\x9f\xff";
			s[j] = rand() % 3 ? pick[rand() % (sizeof(pick) - 1)] : (char)(1 + rand() % 255);
		}
		s[n] = '\0';
		out = write_string(s);
		back = read_back(out);
		assert_string_equal(back, s);
		free(out);
		free(back);
	}
}

static void test_unescape_leniency(void **state)
{
	bool nul;
	char *s = jsonw_unescape_bytes("C:\\dir\\x4G\\", &nul);

	/* a single backslash not starting \\ or \xHH is kept: hand-written files stay readable */
	assert_string_equal(s, "C:\\dir\\x4G\\");
	assert_false(nul);
	free(s);
	s = jsonw_unescape_bytes("a\\x00b", &nul);
	assert_true(nul);
	free(s);
}

static void test_footprint_json_exact_lines(void **state)
{
	struct footprint *fp = sample_fp();
	char *js = to_json(fp);

	/* head of the document, as DESIGN.md shows it */
	assert_non_null(
	    strstr(js, "{\n  \"schema\": \"kfootprint/1\",\n  \"tool\": \"kfootprint " KF_VERSION "\",\n"
		       "  \"host\": {\"kernel\": \"6.18.44\", \"arch\": \"x86_64\"},\n"
		       "  \"workload\": {\"argv\": [\"sh\", \"-c\", \"ls /tmp | wc -l\"], \"attached_pids\": [], "
		       "\"label\": \"startup\", \"user\": \"root\"},\n"
		       "  \"backend\": \"ptrace\",\n  \"started_at\": \"2026-11-29T10:00:00Z\",\n"
		       "  \"elapsed_s\": 0.500000000,\n  \"exit\": {\"code\": 0},\n  \"complete\": true,\n"
		       "  \"lost_events\": 0,\n  \"syscalls\": [\n"));
	/* sorted by calls, then name */
	const char *rows[] = {
	    "    {\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, \"calls\": 12, \"errors\": 0, \"errnos\": {}, "
	    "\"time_s\": 0.024000000, \"class\": \"Filesystem\"},\n",
	    "    {\"name\": \"openat\", \"abi\": \"x86_64\", \"nr\": 257, \"calls\": 10, \"errors\": 3, \"errnos\": "
	    "{\"ENOENT\": 3}, \"time_s\": 0.010000000, \"class\": \"Filesystem\"},\n",
	    "    {\"name\": \"wait4\", \"abi\": \"x86_64\", \"nr\": 61, \"calls\": 3, \"errors\": 1, \"errnos\": "
	    "{\"ECHILD\": 1}, \"time_s\": 0.300000000, \"class\": \"Process Mgmt.\"},\n",
	    "    {\"name\": \"clone\", \"abi\": \"x86_64\", \"nr\": 56,",
	    "    {\"name\": \"exit_group\", \"abi\": \"x86_64\", \"nr\": 231,",
	    "    {\"name\": \"open\", \"abi\": \"i386\", \"nr\": 5, \"calls\": 2, \"errors\": 1, \"errnos\": "
	    "{\"EACCES\": 1}, \"time_s\": 0.002000000, \"class\": \"Filesystem\"}\n  ],\n",
	};
	const char *at = js;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *p = strstr(at, rows[i]);

		if (!p)
			fail_msg("row %zu not found in order: %s", i, rows[i]);
		else
			at = p;
	}
	/* a process: still running, a killed one with core, files with modes, per-ABI syscall keys */
	assert_non_null(
	    strstr(js, "      \"pid\": 100,\n      \"ppid\": 99,\n      \"threads\": 1,\n      \"execs\": 0,\n"
		       "      \"attached\": false,\n      \"comm\": \"sh\",\n      \"exe\": \"/usr/bin/dash\",\n"
		       "      \"argv\": [\"sh\", \"-c\", \"ls /tmp | wc -l\"],\n      \"start_s\": 0.000000000,\n"
		       "      \"end_s\": null,\n      \"exit\": null,\n"));
	assert_non_null(
	    strstr(js, "      \"end_s\": 1.360000000,\n      \"exit\": {\"signal\": \"SIGKILL\", \"core\": true},\n"));
	assert_non_null(strstr(js,
			       "      \"files\": [\n"
			       "        {\"path\": \"/etc/ld.so.cache\", \"mode\": \"r\", \"opens\": 2, \"errors\": 0, "
			       "\"opens_read\": 2, \"opens_write\": 0},\n"
			       "        {\"path\": \"/nonexistent\", \"mode\": \"\", \"opens\": 0, \"errors\": 3, "
			       "\"opens_read\": 0, \"opens_write\": 0},\n"
			       "        {\"path\": \"/tmp/rw\", \"mode\": \"rw\", \"opens\": 1, \"errors\": 0, "
			       "\"opens_read\": 1, \"opens_write\": 1}\n      ],\n"));
	assert_non_null(strstr(js, "      \"syscalls\": {\n"
				   "        \"exit_group\": {\"calls\": 1, \"errors\": 0, \"time_s\": 0.000000000},\n"
				   "        \"openat\": {\"calls\": 10, \"errors\": 3, \"time_s\": 0.010000000},\n"
				   "        \"i386:open\": {\"calls\": 2, \"errors\": 1, \"time_s\": 0.002000000}\n"
				   "      }\n"));
	assert_null(strstr(js, "incomplete_why"));
	free(js);
	fp__free(fp);
}

static void test_round_trip_identical_bytes(void **state)
{
	struct footprint *fp = sample_fp(), *back;
	char *a;

	fp__set_incomplete(fp, "duration");
	fp->lost_events = 7;
	fp->procs[1]->attached = true;
	strcpy(fp->procs[1]->comm, "l\\s\x01");
	fp__open(fp, fp->procs[1], "/tmp/caf\xc3\xa9/\xff\xfe\\x41\\\\", O_WRONLY, 0, 4);
	fp__proc_exec(fp, fp->procs[1], "/usr/bin/env", NULL, NULL); /* ls → env: a chain of two */
	fp->procs[1]->cwd = strdup("/srv/caf\xc3\xa9");
	a = to_json(fp);
	assert_non_null(strstr(a, "\"cwd\": \"/srv/caf\xc3\xa9\""));
	assert_non_null(strstr(a, "\"exec_chain\": [\"/usr/bin/ls\", \"/usr/bin/env\"]"));
	back = round_trip(a);

	/* and the structure came back, not just the bytes */
	assert_int_equal(back->nprocs, 3);
	assert_false(back->complete);
	assert_string_equal(back->incomplete_why, "duration");
	assert_int_equal(back->lost_events, 7);
	assert_string_equal(back->procs[1]->comm, "l\\s\x01");
	assert_true(back->procs[1]->attached);
	assert_string_equal(back->procs[1]->exec_chain[1], "/usr/bin/env");
	assert_null(back->procs[1]->exec_chain[2]);
	assert_null(back->procs[2]->exec_chain); /* one exec: its exe says it */
	assert_string_equal(back->procs[1]->cwd, "/srv/caf\xc3\xa9");
	assert_null(back->procs[2]->cwd); /* unknown: none written, none read */
	assert_true(back->procs[0]->end_s < 0);
	assert_int_equal(back->procs[2]->exit.kind, FP_EXIT_SIGNAL);
	assert_int_equal(back->procs[2]->exit.value, SIGKILL);
	assert_true(back->procs[2]->exit.core);
	struct fp_sysstat *open32 = fp_sctab_find(&back->syscalls, KF_ABI_I386, 5);
	assert_non_null(open32);
	assert_string_equal(open32->name, "open");
	assert_int_equal(open32->time_ns, MS(2));
	assert_int_equal(open32->nerrnos, 1);
	assert_int_equal(open32->errnos[0].err, EACCES);
	assert_int_equal(fp_sctab_find(&back->procs[1]->syscalls, KF_ABI_I386, 5)->calls, 2);
	struct fp_file **files = fp_proc_files_sorted(back->procs[1]);
	int found = 0;
	for (struct fp_file **f = files; *f; f++) {
		if (!strcmp((*f)->path, "/tmp/caf\xc3\xa9/\xff\xfe\\x41\\\\")) {
			found = 1;
			assert_int_equal((*f)->opens_write, 4);
		}
	}
	free(files);
	assert_true(found);
	free(a);
	fp__free(back);
	fp__free(fp);
}

/* host_pid (only where it differs) and seccomp_killed (only when a filter killed a task) round-trip. */
static void test_host_pid_and_seccomp_kills(void **state)
{
	struct footprint *fp = sample_fp(), *back;
	char *a, *msg;

	fp->procs[1]->host_pid = 4242;
	fp__seccomp_kill(fp, fp->procs[2], KF_ABI_X86_64, sample_nr(KF_ABI_X86_64, "getppid"), 1);
	fp__seccomp_kill(fp, fp->procs[2], KF_ABI_I386, sample_nr(KF_ABI_I386, "getpid"), 2);
	a = to_json(fp);
	assert_non_null(strstr(a, "\"pid\": 101,\n      \"ppid\": 100,\n      \"host_pid\": 4242,\n"));
	assert_int_equal(strstr(a, "host_pid") - a, strrstr_offset(a, "host_pid"));
	assert_non_null(strstr(a, "\"seccomp_killed\": {\"getppid\": 1, \"i386:getpid\": 2}"));
	assert_int_equal(strstr(a, "seccomp_killed") - a, strrstr_offset(a, "seccomp_killed"));
	back = round_trip(a);
	assert_int_equal(back->procs[0]->host_pid, 0);
	assert_int_equal(back->procs[1]->host_pid, 4242);
	assert_int_equal(back->procs[2]->seccomp_kills.count, 2);
	assert_int_equal(
	    fp_sctab_find(&back->procs[2]->seccomp_kills, KF_ABI_I386, sample_nr(KF_ABI_I386, "getpid"))->calls, 2);
	free(a);
	fp__free(back);
	fp__free(fp);
	/* a bad entry is refused with the one-line error */
	back = load_capturing("{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, "
			      "\"seccomp_killed\": {\"no_such_call\": 1}}]}",
			      "k.json", &msg);
	assert_null(back);
	assert_non_null(strstr(msg, "unknown syscall 'no_such_call'"));
	free(msg);
}

/* at_attach (-p: calls in progress at attach) is written only when > 0, read back, and never more than calls. */
static void test_at_attach(void **state)
{
	struct footprint *fp = sample_fp(), *back;
	int nr = sample_nr(KF_ABI_X86_64, "getppid");
	char *a, *msg;

	(void)state;
	fp__account(fp, fp->procs[1], KF_ABI_X86_64, nr, 0, 1, 0);
	fp__at_attach(fp, KF_ABI_X86_64, nr, 1);
	a = to_json(fp);
	assert_non_null(strstr(a, "\"at_attach\": 1"));
	assert_int_equal(strstr(a, "at_attach") - a, strrstr_offset(a, "at_attach"));
	back = round_trip(a);
	assert_int_equal(fp_sctab_find(&back->syscalls, KF_ABI_X86_64, nr)->at_attach, 1);
	assert_int_equal(fp_sctab_find(&back->syscalls, KF_ABI_I386, 5)->at_attach, 0);
	free(a);
	fp__free(back);
	fp__free(fp);
	back = load_capturing("{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", "
			      "\"nr\": 0, \"calls\": 1, \"at_attach\": 2}]}",
			      "a.json", &msg);
	assert_null(back);
	assert_non_null(strstr(msg, "at_attach: 2 is out of range"));
	free(msg);
}

/* Nanosecond counts beyond what a double holds come back exactly; odd doubles print back the same. */
static void test_round_trip_extremes(void **state)
{
	struct footprint *fp = sample_fp(), *back;
	char *a;

	/* the workload-wide time and the process's: together under 2^63 ns, the reader's bound on times added up */
	fp__account(fp, fp->procs[0], KF_ABI_X86_64, 0, 0, 1, 2305843009213693951ull - MS(24));
	fp__account(fp, NULL, KF_ABI_X86_64, 1, 0, 1, 123456789012345678ull);
	fp->procs[0]->start_s = -0.0000000001;
	fp->procs[1]->start_s = 12345678901.123456789;
	fp->procs[2]->end_s = 1e300;
	fp->elapsed_s = 0.1 + 0.2;
	a = to_json(fp);
	assert_non_null(strstr(a, "\"time_s\": 2305843009.213693951"));
	assert_non_null(strstr(a, "\"time_s\": 123456789.012345678"));
	assert_non_null(strstr(a, "\"start_s\": 0.000000000,"));
	back = round_trip(a);
	assert_int_equal(fp_sctab_find(&back->syscalls, KF_ABI_X86_64, 1)->time_ns, 123456789012345678ull);
	free(a);
	fp__free(back);
	fp__free(fp);
}

/* The same aggregates reached in another order (hash tables filled differently) give the same bytes. */
static void test_deterministic_order(void **state)
{
	struct footprint *a = fp__new(), *b = fp__new();
	struct fp_proc *pa = fp__proc_new(a, 7, 1, 0), *pb = fp__proc_new(b, 7, 1, 0);
	char path[32], *ja, *jb;
	int n = (int)kf_syscall_count(KF_ABI_X86_64);

	for (int i = 0; i < n; i++) {
		const struct kf_syscall *ra = kf_syscall_at(KF_ABI_X86_64, (size_t)i);
		const struct kf_syscall *rb = kf_syscall_at(KF_ABI_X86_64, (size_t)(n - 1 - i));

		fp__account(a, pa, KF_ABI_X86_64, ra->nr, i % 3 ? 0 : ENOENT, (uint64_t)(ra->nr % 5 + 1), 10);
		fp__account(b, pb, KF_ABI_X86_64, rb->nr, (n - 1 - i) % 3 ? 0 : ENOENT, (uint64_t)(rb->nr % 5 + 1), 10);
	}
	for (int i = 0; i < 300; i++) {
		snprintf(path, sizeof(path), "/f/%d", i);
		fp__open(a, pa, path, i % 2 ? O_RDONLY : O_WRONLY, 0, 1);
		snprintf(path, sizeof(path), "/f/%d", 299 - i);
		fp__open(b, pb, path, (299 - i) % 2 ? O_RDONLY : O_WRONLY, 0, 1);
	}
	ja = to_json(a);
	jb = to_json(b);
	assert_string_equal(ja, jb);
	free(ja);
	free(jb);
	fp__free(a);
	fp__free(b);
}

static void test_save_and_load_file(void **state)
{
	struct footprint *fp = sample_fp(), *back;
	char dir[] = "/tmp/kf-test-save.XXXXXX", path[256], *msg;

	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/fp.json", dir);
	assert_int_equal(fp__save(fp, path), 0);
	back = fp__load(path);
	assert_non_null(back);
	char *a = to_json(fp), *b = to_json(back);
	assert_string_equal(a, b);
	free(a);
	free(b);
	fp__free(back);
	unlink(path);
	rmdir(dir);
	/* into a directory that does not exist: an error, no crash */
	snprintf(path, sizeof(path), "%s/no/such/dir.json", dir);
	int fd = open("/dev/null", O_WRONLY), saved = dup(2);
	fflush(stderr);
	dup2(fd, 2);
	assert_int_equal(fp__save(fp, path), -1);
	dup2(saved, 2);
	close(saved);
	close(fd);
	(void)msg;
	fp__free(fp);
}

static void test_unknown_names_and_fields(void **state)
{
	const char *text =
	    "{\"schema\": \"kfootprint/1.3\", \"future\": {\"x\": [1, 2]},\n"
	    " \"syscalls\": [{\"name\": \"frobnicate\", \"abi\": \"x86_64\", \"nr\": 4000, \"calls\": 5,"
	    " \"errors\": 5, \"errnos\": {\"ENOSYS\": 5}, \"time_s\": 1, \"class\": \"Experimental\","
	    " \"kernel\": {\"file\": \"x.c\"}}],\n"
	    " \"processes\": [{\"pid\": 5, \"comm\": \"a-very-long-command-name\","
	    " \"files\": [{\"path\": \"/x\", \"mode\": \"w\", \"opens\": 2}],"
	    " \"syscalls\": {\"frobnicate\": {\"calls\": 5, \"errors\": 5}, \"i386:getpid\": {\"calls\": 1}}}]}";
	char *msg;
	struct footprint *fp = load_capturing(text, "t.json", &msg);

	assert_string_equal(msg, "");
	free(msg);
	assert_non_null(fp);
	struct fp_sysstat *s = fp_sctab_find(&fp->syscalls, KF_ABI_X86_64, 4000);
	assert_non_null(s);
	assert_string_equal(s->name, "frobnicate");
	assert_string_equal(fp_sysstat_class(s), "Experimental");
	assert_int_equal(s->time_ns, 1000000000ull);
	assert_string_equal(fp->procs[0]->comm, "a-very-long-com");
	assert_int_equal(fp_sctab_find(&fp->procs[0]->syscalls, KF_ABI_X86_64, 4000)->calls, 5);
	assert_int_equal(fp_sctab_find(&fp->procs[0]->syscalls, KF_ABI_I386, 20)->calls, 1);
	assert_true(fp->procs[0]->end_s < 0);
	struct fp_file **files = fp_proc_files_sorted(fp->procs[0]);
	assert_int_equal(files[0]->opens_write, 2);
	assert_int_equal(files[0]->opens_read, 0);
	free(files);
	fp__free(fp);
}

struct bad {
	const char *text;
	const char *msg; /* the whole line printed */
};

static void test_load_errors(void **state)
{
	static const struct bad cases[] = {
	    {"", "kfootprint: 'f.json': not JSON: empty file\n"},
	    {"hello", "kfootprint: 'f.json': not JSON: "},
	    {"{\"schema\": \"kfootprint/1\",\n  \"syscalls\": [", "kfootprint: 'f.json': not JSON: "},
	    {"{\"schema\": \"kfootprint/1\"}\n}",
	     "kfootprint: 'f.json': not JSON: unexpected character at line 2, column 1\n"},
	    {"{\"schema\": \"kfootprint/1\",\n \"x\": tru}", "kfootprint: 'f.json': not JSON: "},
	    {"[1, 2]", "kfootprint: 'f.json': not a kfootprint footprint (expected a JSON object)\n"},
	    {"{}", "kfootprint: 'f.json': schema: missing\n"},
	    {"{\"schema\": 1}", "kfootprint: 'f.json': schema: expected string, got int\n"},
	    {"{\"schema\": \"other/1\"}", "kfootprint: 'f.json': not a kfootprint footprint (schema 'other/1')\n"},
	    {"{\"schema\": \"kfootprint/2\"}",
	     "kfootprint: 'f.json': schema 'kfootprint/2' is not supported (this kfootprint reads kfootprint/1)\n"},
	    {"{\"schema\": \"kfootprint/x\"}", "kfootprint: 'f.json': bad schema version 'kfootprint/x'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": {}}",
	     "kfootprint: 'f.json': syscalls: expected array, got object\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": -1}]}",
	     "kfootprint: 'f.json': syscalls[0].calls: expected an unsigned integer, got a negative one\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": \"3\"}]}",
	     "kfootprint: 'f.json': syscalls[0].calls: expected int, got string\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"pdp11\", \"nr\": 0, "
	     "\"calls\": 3}]}",
	     "kfootprint: 'f.json': syscalls[0].abi: unknown ABI 'pdp11'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3, \"errors\": 4}]}",
	     "kfootprint: 'f.json': syscalls[0].errors: 4 is out of range\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3, \"errnos\": {\"EBOGUS\": 1}}]}",
	     "kfootprint: 'f.json': syscalls[0].errnos: unknown errno 'EBOGUS'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, "
	     "\"calls\": 3}, {\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 0, \"calls\": 1}]}",
	     "kfootprint: 'f.json': syscalls[1]: x86_64 syscall 0 listed twice\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 1, "
	     "\"calls\": 3}]}",
	     "kfootprint: 'f.json': syscalls[0]: x86_64 syscall 1 is 'write', not 'read'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"read\", \"abi\": \"x86_64\", \"nr\": 4000, "
	     "\"calls\": 3}]}",
	     "kfootprint: 'f.json': syscalls[0]: x86_64 syscall 'read' is number 0, not 4000\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"i386:x\", \"abi\": \"x86_64\", \"nr\": 4000, "
	     "\"calls\": 3}]}",
	     "kfootprint: 'f.json': syscalls[0].name: 'i386:x' is not a syscall name\n"},
	    {"{\"schema\": \"kfootprint/1\", \"syscalls\": [{\"name\": \"x\", \"abi\": \"x86_64\", \"nr\": 4000, "
	     "\"calls\": 3}, {\"name\": \"x\", \"abi\": \"x86_64\", \"nr\": 4001, \"calls\": 1}]}",
	     "kfootprint: 'f.json': syscalls[1]: x86_64 syscall 'x' listed twice\n"},
	    {"{\"schema\": \"kfootprint/1\", \"exit\": {\"signal\": \"SIGWHAT\"}}",
	     "kfootprint: 'f.json': exit.signal: unknown signal 'SIGWHAT'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"elapsed_s\": \"soon\"}",
	     "kfootprint: 'f.json': elapsed_s: expected double, got string\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"ppid\": 1}]}",
	     "kfootprint: 'f.json': processes[0].pid: missing\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"files\": [{\"path\": \"/a\", "
	     "\"mode\": \"x\"}]}]}",
	     "kfootprint: 'f.json': processes[0].files[0].mode: expected \"r\", \"w\" or \"rw\", got 'x'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"syscalls\": {\"nosuchcall\": "
	     "{\"calls\": 1}}}]}",
	     "kfootprint: 'f.json': processes[0].syscalls: unknown syscall 'nosuchcall'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"argv\": [\"a\", 2]}]}",
	     "kfootprint: 'f.json': processes[0].argv[1]: expected string\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"exec_chain\": [\"a\", {}]}]}",
	     "kfootprint: 'f.json': processes[0].exec_chain[1]: expected string\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"exec_chain\": "
	     "[\"a\", \"b\", \"c\", \"d\", \"e\"]}]}",
	     "kfootprint: 'f.json': processes[0].exec_chain: more than 4 programs\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"exe\": \"a\\u0000b\"}]}",
	     "kfootprint: 'f.json': processes[0].exe: contains a NUL character\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"cwd\": 7}]}",
	     "kfootprint: 'f.json': processes[0].cwd: expected string, got int\n"},
	    {"{\"schema\": \"kfootprint/1\", \"processes\": [{\"pid\": 1, \"syscalls\": {\"a\\nb\\u001b[2J\": "
	     "{\"calls\": 1}}}]}",
	     "kfootprint: 'f.json': processes[0].syscalls: unknown syscall 'a?b?[2J'\n"},
	    {"{\"schema\": \"kfootprint/\\n2\"}", "kfootprint: 'f.json': bad schema version 'kfootprint/?2'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"workload\": {\"attached_pids\": [0]}}",
	     "kfootprint: 'f.json': workload.attached_pids: expected positive integers\n"},
	    {"{\"schema\": \"kfootprint/1\", \"x\": "
	     "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}",
	     "kfootprint: 'f.json': not JSON: nesting too deep at line 1, column "},
	    {"{\"schema\": \"kfootprint/1\", \"label\": \"\xff\"}", "kfootprint: 'f.json': not JSON: "},
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *msg;
		struct footprint *fp = load_capturing(cases[i].text, "f.json", &msg);

		if (fp)
			fail_msg("case %zu loaded: %s", i, cases[i].text);
		if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, msg);
		/* one line, always */
		assert_non_null(strchr(msg, '\n'));
		assert_string_equal(strchr(msg, '\n'), "\n");
		free(msg);
	}
}

/* kernel_functions: written by name with "under" by syscall, read back to the same bytes, merged by sums. */
static void test_kernel_functions(void **state)
{
	struct footprint *fp = sample_fp(), *back, *other, *m;
	struct fp_kfunc *f;
	char *a, *msg, name[32];

	fp__kfuncs(fp, "function_graph", true)->lost = 0;
	fp__kfunc_hit(fp, "vfs_read", "read", 3);
	fp__kfunc_hit(fp, "vfs_read", "pread64", 1);
	fp__kfunc_hit(fp, "eventfd_write", "write", 2);
	fp__kfunc_hit(fp, "handle_mm_fault", NULL, 5);
	fp__kfunc_hit(fp, "ksys_read.constprop.0", "read", 3);
	a = to_json(fp);
	assert_non_null(strstr(a,
			       "\"kernel_functions\": {\n    \"method\": \"function_graph\",\n"
			       "    \"exhaustive\": true,\n    \"lost\": 0,\n    \"functions\": [\n"
			       "      {\"name\": \"eventfd_write\", \"hits\": 2, \"under\": {\"write\": 2}},\n"
			       "      {\"name\": \"handle_mm_fault\", \"hits\": 5},\n"
			       "      {\"name\": \"ksys_read.constprop.0\", \"hits\": 3, \"under\": {\"read\": 3}},\n"
			       "      {\"name\": \"vfs_read\", \"hits\": 4, \"under\": {\"pread64\": 1, \"read\": 3}}\n"
			       "    ]\n  }"));
	back = round_trip(a);
	assert_string_equal(fp_kfuncs_of(back)->method, "function_graph");
	assert_int_equal(fp_kfuncs_of(back)->nfuncs, 4);
	assert_int_equal(fp__kfunc(back, "vfs_read")->hits, 4);
	fp__free(back);

	/* the bound on "under": the first 16 in byte order kept, whatever the order of hits */
	for (int i = 20; i > 0; i--) {
		snprintf(name, sizeof(name), "sc%02d", i);
		fp__kfunc_hit(fp, "many", name, 1);
	}
	f = fp__kfunc(fp, "many");
	assert_int_equal(f->nunder, FP_KFUNC_UNDER_MAX);
	assert_int_equal(f->under_other, 4);
	for (uint32_t i = 0; i < f->nunder; i++)
		assert_true(strcmp(f->under[i].syscall, "sc16") <= 0);

	/* merging: hits summed, method kept when equal, else "mixed"; exhaustive only when every source is */
	other = sample_fp();
	free(other->started_at);
	other->started_at = strdup("2030-01-01T00:00:00Z");
	fp__kfuncs(other, "sampled", false)->lost = 7;
	fp__kfunc_hit(other, "vfs_read", NULL, 10);
	m = fp_merge_new();
	fp_merge_add(m, fp);
	fp_merge_add(m, other);
	fp_merge_add(m, other); /* again: nothing added */
	fp_merge_finish(m, NULL);
	assert_string_equal(fp_kfuncs_of(m)->method, "mixed");
	assert_false(fp_kfuncs_of(m)->exhaustive);
	assert_int_equal(fp_kfuncs_of(m)->lost, 7);
	assert_int_equal(fp__kfunc(m, "vfs_read")->hits, 14);
	assert_int_equal(fp__kfunc(m, "vfs_read")->nunder, 2);
	free(a);
	a = to_json(m);
	fp__free(m);
	/* the other order gives the same bytes */
	m = fp_merge_new();
	fp_merge_add(m, other);
	fp_merge_add(m, fp);
	fp_merge_finish(m, NULL);
	msg = to_json(m);
	assert_string_equal(a, msg);
	free(msg);
	free(a);
	fp__free(m);
	fp__free(other);
	fp__free(fp);

	/* bad members, one line each */
	static const struct bad cases[] = {
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"guess\"}}",
	     "kfootprint: 'f.json': kernel_functions.method: unknown method 'guess'\n"},
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"function\", \"exhaustive\": true, "
	     "\"lost\": 0}}",
	     "kfootprint: 'f.json': kernel_functions.functions: missing\n"},
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"sampled\", \"exhaustive\": true, "
	     "\"lost\": 0, \"functions\": []}}",
	     "kfootprint: 'f.json': kernel_functions.exhaustive: sampled stacks are not exhaustive\n"},
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"function\", \"exhaustive\": true, "
	     "\"lost\": 0, \"functions\": [{\"name\": \"a b\", \"hits\": 1}]}}",
	     "kfootprint: 'f.json': kernel_functions.functions[0].name: 'a b' is not a kernel symbol\n"},
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"function\", \"exhaustive\": true, "
	     "\"lost\": 0, \"functions\": [{\"name\": \"f\", \"hits\": 1}, {\"name\": \"f\", \"hits\": 1}]}}",
	     "kfootprint: 'f.json': kernel_functions.functions[1].name: 'f' given twice\n"},
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"function\", \"exhaustive\": true, "
	     "\"lost\": 0, \"functions\": [{\"name\": \"f\", \"hits\": 1, \"under\": {\"read\": 2}}]}}",
	     "kfootprint: 'f.json': kernel_functions.functions[0].under: the hits add up to more than the "
	     "function's\n"},
	    {"{\"schema\": \"kfootprint/1\", \"kernel_functions\": {\"method\": \"function\", \"exhaustive\": true, "
	     "\"lost\": 0, \"functions\": [{\"name\": \"f\", \"hits\": 1, \"under\": {\"a-b\": 1}}]}}",
	     "kfootprint: 'f.json': kernel_functions.functions[0].under: 'a-b' is not a syscall name\n"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		back = load_capturing(cases[i].text, "f.json", &msg);
		if (back)
			fail_msg("case %zu loaded: %s", i, cases[i].text);
		if (strcmp(msg, cases[i].msg))
			fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, msg);
		free(msg);
	}
}

/* A stack of two frames: libc's eventfd, then the caller at offset off (named, with a line, when named). */
static void add_stack(struct fp_csite_key *k, uint64_t off, const char *fn, uint64_t n)
{
	struct fp_csite_frame f[2] = {
	    {.module = "/lib/libc.so.6", .offset = 0x108e07, .function = "eventfd"},
	    {.module = "/tmp/app", .offset = off, .function = (char *)fn, .file = fn ? "main.c" : NULL, .line = 7},
	};

	fp_csite_add(k, f, 2, n);
}

/* call_sites: written by key, read back to the same bytes, bounded per key, merged by sums in either order. */
static void test_call_sites(void **state)
{
	struct footprint *fp = sample_fp(), *back, *other, *m;
	struct fp_csites *c = fp__csites(fp, 8);
	struct fp_csite_key *k;
	char *a, *b, *msg;

	add_stack(fp__csite_key(c, "eventfd2", 0, NULL), 0x1145, "main", 2);
	add_stack(fp__csite_key(c, "eventfd2", 0, NULL), 0x1100, NULL, 1);
	add_stack(fp__csite_key(c, "eventfd2", 0, NULL), 0x1145, "main", 1);
	add_stack(fp__csite_key(c, "eventfd2", 22, NULL), 0x11a1, "main", 4);
	fp_csite_add(fp__csite_key(c, "execve", 0, NULL), NULL, 0, 1);
	add_stack(fp__csite_key(c, "read", 0, "fd pipe"), 0x1200, "main", 1);
	assert_int_equal(c->nkeys, 4);
	a = to_json(fp);
	assert_non_null(strstr(a,
			       "\"call_sites\": {\n    \"depth\": 8,\n    \"exhaustive\": true,\n    \"keys\": [\n"
			       "      {\n        \"syscall\": \"eventfd2\",\n        \"calls\": 4,\n"
			       "        \"stacks\": [\n          {\n            \"calls\": 1,\n"
			       "            \"frames\": [\n              {\"module\": \"/lib/libc.so.6\", \"offset\": "
			       "1084935, \"function\": \"eventfd\"},\n              {\"module\": \"/tmp/app\", "
			       "\"offset\": 4352}\n            ]\n          },\n"));
	assert_non_null(strstr(a, "{\"module\": \"/tmp/app\", \"offset\": 4421, \"function\": \"main\", \"file\": "
				  "\"main.c\", \"line\": 7}"));
	assert_non_null(strstr(a, "\"syscall\": \"eventfd2\",\n        \"errno\": \"EINVAL\",\n        \"calls\": 4,"));
	assert_non_null(strstr(a, "\"syscall\": \"execve\",\n        \"calls\": 1,\n        \"unwound_none\": 1,\n"
				  "        \"stacks\": []"));
	assert_non_null(strstr(a, "\"syscall\": \"read\",\n        \"reached\": \"fd pipe\",\n        \"calls\": 1,"));
	back = round_trip(a);
	b = to_json(back);
	assert_string_equal(a, b);
	free(b);
	fp__free(back);

	/* the bound: the first 16 stacks in (module, offset) order kept, whatever the order of calls */
	k = fp__csite_key(c, "read", 0, NULL);
	for (uint64_t off = 20; off > 0; off--)
		add_stack(k, off, NULL, off);
	assert_int_equal(k->nstacks, FP_CSITE_STACKS_MAX);
	assert_int_equal(k->other, 17 + 18 + 19 + 20);
	assert_int_equal(k->calls, 210);
	for (uint32_t i = 0; i < k->nstacks; i++)
		assert_int_equal(k->stacks[i].frames[1].offset, i + 1);
	free(a);
	a = to_json(fp);
	back = round_trip(a);
	b = to_json(back);
	assert_string_equal(a, b);
	free(b);
	fp__free(back);

	/* merging: sums, the same bytes in either order; a source without call sites makes them not exhaustive */
	other = sample_fp();
	free(other->started_at);
	other->started_at = strdup("2030-01-01T00:00:00Z");
	add_stack(fp__csite_key(fp__csites(other, 4), "eventfd2", 0, NULL), 0x1145, "main", 10);
	add_stack(fp__csite_key(fp__csites(other, 4), "read", 0, NULL), 0, NULL, 5);
	m = fp_merge_new();
	fp_merge_add(m, fp);
	fp_merge_add(m, other);
	fp_merge_add(m, other); /* again: nothing added */
	fp_merge_finish(m, NULL);
	assert_int_equal(fp_csites_of(m)->depth, 4);
	assert_true(fp_csites_of(m)->exhaustive);
	k = fp__csite_key(fp_csites_of(m), "eventfd2", 0, NULL);
	assert_int_equal(k->calls, 14);
	assert_int_equal(k->nstacks, 2);
	k = fp__csite_key(fp_csites_of(m), "read", 0, NULL);
	assert_int_equal(k->calls, 215);
	assert_int_equal(k->other, 17 + 18 + 19 + 20 + 16);
	free(a);
	a = to_json(m);
	fp__free(m);
	m = fp_merge_new();
	fp_merge_add(m, other);
	fp_merge_add(m, fp);
	fp_merge_finish(m, NULL);
	b = to_json(m);
	assert_string_equal(a, b);
	free(b);
	free(a);
	fp__free(m);
	fp__free(other);
	fp__free(fp);

	/* bad members, one line each */
#define CS "{\"schema\": \"kfootprint/1\", \"call_sites\": {\"depth\": 2, \"exhaustive\": true, \"keys\": ["
#define FR "{\"module\": \"/a\", \"offset\": 1}"
	static const struct bad cases[] = {
	    {"{\"schema\": \"kfootprint/1\", \"call_sites\": {\"depth\": 0, \"exhaustive\": true, \"keys\": []}}",
	     "kfootprint: 'f.json': call_sites.depth: 0\n"},
	    {"{\"schema\": \"kfootprint/1\", \"call_sites\": {\"depth\": 33, \"exhaustive\": true, \"keys\": []}}",
	     "kfootprint: 'f.json': call_sites.depth: "},
	    {"{\"schema\": \"kfootprint/1\", \"call_sites\": {\"exhaustive\": true, \"keys\": []}}",
	     "kfootprint: 'f.json': call_sites.depth: missing before the keys\n"},
	    {"{\"schema\": \"kfootprint/1\", \"call_sites\": {\"depth\": 2, \"keys\": []}}",
	     "kfootprint: 'f.json': call_sites.exhaustive: missing\n"},
	    {CS "{\"syscall\": \"a-b\", \"calls\": 0, \"stacks\": []}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].syscall: 'a-b' is not a syscall name\n"},
	    {CS "{\"syscall\": \"read\", \"errno\": \"EBOGUS\", \"calls\": 0, \"stacks\": []}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].errno: 'EBOGUS' is not an errno name\n"},
	    {CS "{\"calls\": 0, \"stacks\": []}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].syscall: missing before the stacks\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 0, \"stacks\": []}, {\"syscall\": \"read\", \"calls\": 0, "
		"\"stacks\": []}]}}",
	     "kfootprint: 'f.json': call_sites.keys[1].syscall: 'read' with this errno and reached given twice\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 2, \"stacks\": [{\"calls\": 1, \"frames\": [" FR "]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].calls: not the sum of the stacks', other, unwound_none and "
	     "unsampled\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 2, \"stacks\": [{\"calls\": 1, \"frames\": [" FR
		"]}, {\"calls\": 1, \"frames\": [" FR "]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[1].frames: a stack given twice\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 1, \"stacks\": [{\"calls\": 1, \"frames\": [" FR ", " FR ", " FR
		"]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[0].frames[2]: more than depth 2 frames\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 1, \"stacks\": [{\"calls\": 1, \"frames\": [{\"offset\": 1}]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[0].frames[0].module: missing\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 1, \"stacks\": [{\"calls\": 1, \"frames\": [{\"module\": \"\", "
		"\"offset\": 1}]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[0].frames[0].module: '' is not a name\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 1, \"stacks\": [{\"calls\": 1, \"frames\": [{\"module\": \"/a\", "
		"\"offset\": 1, \"file\": \"a.c\"}]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[0].frames[0].line: missing\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 0, \"stacks\": [{\"calls\": 0, \"frames\": [" FR "]}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[0].calls: empty\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 1, \"stacks\": [{\"calls\": 1, \"frames\": []}]}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].stacks[0].frames: empty\n"},
	    {CS "{\"syscall\": \"read\", \"calls\": 0, \"stacks\": [], \"reached\": \"fd pipe\"}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].reached: after the stacks\n"},
	    {CS "{\"syscall\": \"read\", \"reached\": \"fd\\npipe\", \"calls\": 0, \"stacks\": []}]}}",
	     "kfootprint: 'f.json': call_sites.keys[0].reached: 'fd"},
	};
#undef CS
#undef FR
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		back = load_capturing(cases[i].text, "f.json", &msg);
		if (back)
			fail_msg("case %zu loaded: %s", i, cases[i].text);
		if (strncmp(msg, cases[i].msg, strlen(cases[i].msg)) || !strchr(msg, '\n') || strchr(msg, '\n')[1])
			fail_msg("case %zu: expected '%s', got '%s'", i, cases[i].msg, msg);
		free(msg);
	}
}

static void test_load_missing_file(void **state)
{
	struct stderr_capture c;
	char *msg;

	(void)state;
	stderr_capture(&c);
	assert_null(fp__load("/nonexistent/fp.json"));
	assert_null(fp__load("/tmp"));
	msg = stderr_captured(&c);
	assert_string_equal(msg, "kfootprint: '/nonexistent/fp.json': No such file or directory\n"
				 "kfootprint: '/tmp': Is a directory\n");
	free(msg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_writer_layout),
	    cmocka_unit_test(test_writer_styles_match_jsonc),
	    cmocka_unit_test(test_writer_styles_same_byte_rule),
	    cmocka_unit_test(test_writer_escapes),
	    cmocka_unit_test(test_writer_bytes_round_trip),
	    cmocka_unit_test(test_unescape_leniency),
	    cmocka_unit_test(test_footprint_json_exact_lines),
	    cmocka_unit_test(test_round_trip_identical_bytes),
	    cmocka_unit_test(test_round_trip_extremes),
	    cmocka_unit_test(test_host_pid_and_seccomp_kills),
	    cmocka_unit_test(test_at_attach),
	    cmocka_unit_test(test_deterministic_order),
	    cmocka_unit_test(test_save_and_load_file),
	    cmocka_unit_test(test_unknown_names_and_fields),
	    cmocka_unit_test(test_load_errors),
	    cmocka_unit_test(test_load_missing_file),
	    cmocka_unit_test(test_kernel_functions),
	    cmocka_unit_test(test_call_sites),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
