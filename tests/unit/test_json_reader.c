// SPDX-License-Identifier: GPL-2.0
/* The streaming JSON reader and bounded input: events, strings, numbers, errors with their place, chunk edges. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "util/input.h"
#include "util/json_reader.h"

/* Every event of text as one line: "{ k:a s:b [ n:1 ] }", or "ERROR: message" at the first problem. */
static char *events(const char *text, size_t len)
{
	struct json_reader jr;
	struct strbuf sb = STRBUF_INIT;
	enum jr_event ev;

	jr_init_mem(&jr, text, len, 4);
	while ((ev = jr_next(&jr)) != JR_EOF) {
		if (sb.len)
			strbuf_addch(&sb, ' ');
		switch (ev) {
		case JR_ERROR: strbuf_addf(&sb, "ERROR: %s", jr_error(&jr)); goto out;
		case JR_OBJECT: strbuf_addch(&sb, '{'); break;
		case JR_OBJECT_END: strbuf_addch(&sb, '}'); break;
		case JR_ARRAY: strbuf_addch(&sb, '['); break;
		case JR_ARRAY_END: strbuf_addch(&sb, ']'); break;
		case JR_KEY: strbuf_addf(&sb, "k:%s", jr.text.buf); break;
		case JR_STRING: strbuf_addf(&sb, "s:%s", jr.text.buf); break;
		case JR_NUMBER: strbuf_addf(&sb, "%c:%s", jr.is_int ? 'i' : 'd', jr.text.buf); break;
		case JR_TRUE: strbuf_addstr(&sb, "true"); break;
		case JR_FALSE: strbuf_addstr(&sb, "false"); break;
		case JR_NULL: strbuf_addstr(&sb, "null"); break;
		default: strbuf_addstr(&sb, "?"); break;
		}
	}
out:
	jr_release(&jr);
	return strbuf_detach(&sb);
}

static void expect(const char *text, const char *want)
{
	char *got = events(text, strlen(text));

	if (strcmp(got, want))
		fail_msg("%s: expected '%s', got '%s'", text, want, got);
	free(got);
}

static void test_events(void **state)
{
	expect("{\"a\": [1, -2.5e3, true, false, null, \"x\"], \"b\": {}}",
	       "{ k:a [ i:1 d:-2.5e3 true false null s:x ] k:b { } }");
	expect("  \n 42 \n", "i:42");
	expect("\"\"", "s:");
	expect("[[[]]]", "[ [ [ ] ] ]");
	expect("0", "i:0");
	expect("-0.0", "d:-0.0");
	expect("1E+2", "d:1E+2");
}

static void test_syntax_errors(void **state)
{
	expect("", "ERROR: not JSON: empty file");
	expect("  ", "ERROR: not JSON: unexpected end of data at line 1, column 3");
	expect("{\"a\": 1,\n \"b\":", "{ k:a i:1 k:b ERROR: not JSON: unexpected end of data at line 2, column 6");
	expect("{\"a\" 1}", "{ k:a ERROR: not JSON: unexpected character at line 1, column 6");
	expect("{\"a\": 1}\n}", "{ k:a i:1 } ERROR: not JSON: unexpected character at line 2, column 1");
	expect("[1,]", "[ i:1 ERROR: not JSON: unexpected character at line 1, column 4");
	expect("{,}", "{ ERROR: not JSON: unexpected character at line 1, column 2");
	expect("[1 2]", "[ i:1 ERROR: not JSON: unexpected character at line 1, column 4");
	expect("tru", "ERROR: not JSON: unexpected end of data at line 1, column 4");
	expect("trux", "ERROR: not JSON: unexpected character at line 1, column 4");
	expect("nul1", "ERROR: not JSON: unexpected character at line 1, column 4");
	expect("[[[[[1]]]]]", "[ [ [ [ ERROR: not JSON: nesting too deep at line 1, column 5");
	/* numbers as RFC 8259 has them, nothing else */
	expect("01", "ERROR: not JSON: unexpected character at line 1, column 2");
	expect("1.", "ERROR: not JSON: unexpected end of data at line 1, column 3");
	expect(".5", "ERROR: not JSON: unexpected character at line 1, column 1");
	expect("+1", "ERROR: not JSON: unexpected character at line 1, column 1");
	expect("-", "ERROR: not JSON: unexpected end of data at line 1, column 2");
	expect("1e", "ERROR: not JSON: unexpected end of data at line 1, column 3");
	expect("1x", "ERROR: not JSON: unexpected character at line 1, column 2");
	expect("[NaN]", "[ ERROR: not JSON: unexpected character at line 1, column 2");
	/* strings */
	expect("\"a\nb\"", "ERROR: not JSON: a control character in a string at line 1, column 3");
	expect("\"\\q\"", "ERROR: not JSON: unexpected character at line 1, column 3");
	expect("\"\\u12G4\"", "ERROR: not JSON: unexpected character at line 1, column 6");
	expect("\"abc", "ERROR: not JSON: unexpected end of data at line 1, column 5");
	expect("\"\xc0\x80\"", "ERROR: not JSON: invalid UTF-8 in a string at line 1, column 4");
	expect("\"\xed\xa0\x80\"", "ERROR: not JSON: invalid UTF-8 in a string at line 1, column 5");
	expect("\"\xf5\x80\x80\x80\"", "ERROR: not JSON: invalid UTF-8 in a string at line 1, column 6");
	expect("\"\xe2\x82\"", "ERROR: not JSON: invalid UTF-8 in a string at line 1, column 4");
	expect("\"\xff\"", "ERROR: not JSON: invalid UTF-8 in a string at line 1, column 3");

	char *got = events("\0", 1);
	assert_string_equal(got, "ERROR: not JSON: unexpected character at line 1, column 1");
	free(got);
}

static void test_strings(void **state)
{
	/* escapes, pairs of surrogates, and lone ones as U+FFFD */
	expect("\"\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "s:\"\\/\b\f\n\r\t");
	expect("\"\\u00e9\\u20ac\\ud83d\\ude00\"", "s:\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80");
	expect("\"\\ud83d\"", "s:\xef\xbf\xbd");
	expect("\"\\ude00x\"", "s:\xef\xbf\xbdx");
	expect("\"\\ud83d\\n\"", "s:\xef\xbf\xbd\n");
	expect("\"\\ud83d\\u0041\"", "s:\xef\xbf\xbd"
				     "A");
	expect("\"caf\xc3\xa9 \xf0\x9f\x98\x80\"", "s:caf\xc3\xa9 \xf0\x9f\x98\x80");

	/* \u0000 is a NUL inside text.len, for the caller to refuse */
	struct json_reader jr;

	jr_init_mem(&jr, "\"a\\u0000b\"", 10, 4);
	assert_int_equal(jr_next(&jr), JR_STRING);
	assert_int_equal(jr.text.len, 3);
	assert_memory_equal(jr.text.buf, "a\0b", 3);
	jr_release(&jr);
}

static void test_limits(void **state)
{
	size_t n = JR_MAX_STRING + 10;
	char *big = malloc(n + 3);

	big[0] = '"';
	memset(big + 1, 'a', n);
	big[n + 1] = '"';
	big[n + 2] = '\0';
	char *got = events(big, n + 2);
	/* said where the reader noticed it, past the first 1 MiB */
	assert_int_equal(strncmp(got, "ERROR: a string longer than 1 MiB at line 1, column 10485", 57), 0);
	free(got);
	memset(big, '1', JR_MAX_NUMBER + 1);
	got = events(big, JR_MAX_NUMBER + 1);
	assert_string_equal(got, "ERROR: a number of more than 1024 characters at line 1, column 1");
	free(got);
	memset(big, '1', JR_MAX_NUMBER);
	got = events(big, JR_MAX_NUMBER);
	assert_int_equal(got[0], 'i');
	free(got);
	free(big);
}

/* jr_skip() reads past a value; jr_resync() back to where a container's members or elements are. */
static void test_skip_and_resync(void **state)
{
	const char *t = "{\"a\": {\"x\": [1, {\"y\": 2}]}, \"b\": 3, \"c\": [4, [5, 6], 7]}";
	struct json_reader jr;

	jr_init_mem(&jr, t, strlen(t), 8);
	assert_int_equal(jr_next(&jr), JR_OBJECT);
	assert_int_equal(jr_next(&jr), JR_KEY);
	assert_int_equal(jr_skip(&jr, jr_next(&jr)), 0);
	assert_int_equal(jr_next(&jr), JR_KEY);
	assert_string_equal(jr.text.buf, "b");
	/* a key read, its value not: resync reads the value */
	assert_int_equal(jr_resync(&jr, 1), 0);
	assert_int_equal(jr_next(&jr), JR_KEY);
	assert_string_equal(jr.text.buf, "c");
	/* deep inside a value: resync climbs back out */
	assert_int_equal(jr_next(&jr), JR_ARRAY);
	assert_int_equal(jr_next(&jr), JR_NUMBER);
	assert_int_equal(jr_next(&jr), JR_ARRAY);
	assert_int_equal(jr_resync(&jr, 1), 0);
	assert_int_equal(jr.depth, 1);
	assert_int_equal(jr_next(&jr), JR_OBJECT_END);
	assert_int_equal(jr_next(&jr), JR_EOF);
	jr_release(&jr);
}

/*
 * jr_close_unchecked(): the rest of the open container read past, brackets and quotes inside strings (escaped
 * ones too) not counted, lines still counted for a later message; the events after it as jr_next() gives them.
 */
static void test_close_unchecked(void **state)
{
	const char *t = "{\"a\": {\"x\": \"]}\\\\\", \"y\": \"\\\"}\", \"z\": [1, {\"w\": \"[\"}]\n},\n \"b\": [2]}";
	struct json_reader jr;

	jr_init_mem(&jr, t, strlen(t), 8);
	assert_int_equal(jr_next(&jr), JR_OBJECT);
	assert_int_equal(jr_next(&jr), JR_KEY);
	assert_int_equal(jr_next(&jr), JR_OBJECT);
	assert_int_equal(jr_next(&jr), JR_KEY);
	assert_string_equal(jr.text.buf, "x");
	assert_int_equal(jr_close_unchecked(&jr), 0);
	assert_int_equal(jr.depth, 1);
	assert_int_equal(jr_next(&jr), JR_KEY);
	assert_string_equal(jr.text.buf, "b");
	assert_int_equal(jr_next(&jr), JR_ARRAY);
	assert_int_equal(jr_close_unchecked(&jr), 0);
	assert_int_equal(jr_next(&jr), JR_OBJECT_END);
	assert_int_equal(jr_next(&jr), JR_EOF);
	jr_release(&jr);

	/* a container that never closes: the reader stops with where it ended */
	jr_init_mem(&jr, "[1, \"]\n", 7, 8);
	assert_int_equal(jr_next(&jr), JR_ARRAY);
	assert_int_equal(jr_close_unchecked(&jr), -1);
	assert_non_null(strstr(jr_error(&jr), "unexpected end of data"));
	assert_int_equal(jr_next(&jr), JR_ERROR);
	jr_release(&jr);
	(void)state;
}

static char *tmpfile_with(const char *data, size_t len)
{
	char *path = strdup("/tmp/kf-unit-jr.XXXXXX");
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, data, len), (ssize_t)len);
	close(fd);
	return path;
}

/* Tokens across the reader's 64 KiB chunks: a UTF-8 sequence, an escape, a number, a literal, a key. */
static void test_chunk_edges(void **state)
{
	static const char *const tails[] = {
	    "\"\xf0\x9f\x98\x80\"", "\"\\ud83d\\ude00\"", "123456.75e-2", "false", "{\"key\": null}", "\"\\n\"",
	};
	static const char *const want[] = {
	    "s:\xf0\x9f\x98\x80", "s:\xf0\x9f\x98\x80", "d:123456.75e-2", "false", "{ k:key null }", "s:\n",
	};

	for (size_t t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
		for (size_t shift = 1; shift < strlen(tails[t]); shift++) {
			size_t pad = 65536 - shift, len = pad + strlen(tails[t]) + 2;
			char *doc = malloc(len + 1), *path, *why = NULL;
			struct kf_input in;
			struct json_reader jr;
			struct strbuf sb = STRBUF_INIT;
			enum jr_event ev;

			memset(doc, ' ', pad);
			doc[pad - 1] = '\n';
			doc[0] = '[';
			sprintf(doc + pad, "%s]\n", tails[t]);
			path = tmpfile_with(doc, len);
			assert_int_equal(kf_input_open(&in, path, 1 << 20, &why), 0);
			jr_init_input(&jr, &in, 4);
			assert_int_equal(jr_next(&jr), JR_ARRAY);
			while ((ev = jr_next(&jr)) != JR_ARRAY_END) {
				if (ev == JR_ERROR)
					fail_msg("tail %zu shift %zu: %s", t, shift, jr_error(&jr));
				strbuf_addf(&sb, "%s%s", sb.len ? " " : "",
					    ev == JR_STRING	  ? "s:"
					    : ev == JR_NUMBER	  ? "d:"
					    : ev == JR_FALSE	  ? "false"
					    : ev == JR_OBJECT	  ? "{"
					    : ev == JR_OBJECT_END ? "}"
					    : ev == JR_KEY	  ? "k:"
					    : ev == JR_NULL	  ? "null"
								  : "?");
				if (ev == JR_STRING || ev == JR_NUMBER || ev == JR_KEY)
					strbuf_addstr(&sb, jr.text.buf);
			}
			assert_string_equal(sb.buf, want[t]);
			assert_int_equal(jr_next(&jr), JR_EOF);
			/* line and column are counted across chunks as well */
			jr_release(&jr);
			kf_input_close(&in);
			strbuf_release(&sb);
			unlink(path);
			free(path);
			free(doc);
		}
	}
}

static void test_input_limits(void **state)
{
	struct kf_input in;
	char buf[4096], *why = NULL, *path;
	struct strbuf sb = STRBUF_INIT;
	ssize_t n;
	int p[2];

	/* a regular file past the limit is refused before reading */
	path = tmpfile_with("0123456789", 10);
	assert_int_equal(kf_input_open(&in, path, 9, &why), -1);
	assert_string_equal(why, "larger than 9 bytes, the limit of this input");
	free(why);
	assert_int_equal(kf_input_read_all(path, 10, &sb, &why), 0);
	assert_string_equal(sb.buf, "0123456789");
	strbuf_release(&sb);
	unlink(path);
	free(path);
	/* a device is read up to the limit, and refused past it */
	assert_int_equal(kf_input_open(&in, "/dev/zero", 1 << 20, &why), 0);
	size_t total = 0;
	while ((n = kf_input_read(&in, buf, sizeof(buf), &why)) > 0)
		total += (size_t)n;
	assert_int_equal(n, -1);
	assert_int_equal(total, 1 << 20);
	assert_string_equal(why, "larger than 1 MiB, the limit of this input");
	free(why);
	kf_input_close(&in);
	/* exactly at the limit is fine */
	assert_int_equal(pipe(p), 0);
	assert_int_equal(write(p[1], "abcd", 4), 4);
	close(p[1]);
	in = (struct kf_input){.fd = p[0], .limit = 4, .held = -1};
	assert_int_equal(kf_input_read(&in, buf, sizeof(buf), &why), 4);
	assert_int_equal(kf_input_read(&in, buf, sizeof(buf), &why), 0);
	close(p[0]);
	/* a directory, a FIFO with no writer: refused at once */
	assert_int_equal(kf_input_open(&in, "/tmp", 100, &why), -1);
	assert_string_equal(why, strerror(EISDIR));
	free(why);
	char fifo[] = "/tmp/kf-unit-fifo.XXXXXX";
	int fd = mkstemp(fifo);
	close(fd);
	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	assert_int_equal(kf_input_open(&in, fifo, 100, &why), -1);
	assert_non_null(strstr(why, "a FIFO with no writer"));
	free(why);
	/* with a writer there, its first byte is kept for the first read */
	int w = open(fifo, O_RDWR | O_NONBLOCK);
	assert_true(w >= 0);
	assert_int_equal(write(w, "xyz", 3), 3);
	assert_int_equal(kf_input_open(&in, fifo, 100, &why), 0);
	close(w);
	n = kf_input_read(&in, buf, sizeof(buf), &why);
	assert_int_equal(n, 1);
	assert_int_equal(buf[0], 'x');
	n = kf_input_read(&in, buf, sizeof(buf), &why);
	assert_int_equal(n, 2);
	assert_memory_equal(buf, "yz", 2);
	kf_input_close(&in);
	unlink(fifo);
	char sz[32];
	assert_string_equal(kf_input_size(1ull << 30, sz, sizeof(sz)), "1 GiB");
	assert_string_equal(kf_input_size(16ull << 20, sz, sizeof(sz)), "16 MiB");
	assert_string_equal(kf_input_size(1000, sz, sizeof(sz)), "1000 bytes");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_events),	    cmocka_unit_test(test_syntax_errors),
	    cmocka_unit_test(test_strings),	    cmocka_unit_test(test_limits),
	    cmocka_unit_test(test_skip_and_resync), cmocka_unit_test(test_close_unchecked),
	    cmocka_unit_test(test_chunk_edges),	    cmocka_unit_test(test_input_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
