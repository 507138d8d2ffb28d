// SPDX-License-Identifier: GPL-2.0
/*
 * systemd's bus messages as boot --until-target reads and writes them (src/boot/sdbus.h): the unit's object path,
 * our Properties.Get read back field by field, a JobRemoved signal and a Get reply in either byte order (built
 * here byte by byte after the D-Bus specification), and every cut or corrupted copy refused without reading
 * past its end (the ASan build runs this too).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "boot/sdbus.h"

struct msg {
	unsigned char b[1024];
	size_t len;
	bool big;
};

static void pad(struct msg *m, size_t to)
{
	while (m->len % to)
		m->b[m->len++] = 0;
}

static void u32(struct msg *m, uint32_t v)
{
	pad(m, 4);
	for (int i = 0; i < 4; i++)
		m->b[m->len++] = m->big ? (unsigned char)(v >> (24 - 8 * i)) : (unsigned char)(v >> (8 * i));
}

static void str(struct msg *m, const char *s)
{
	u32(m, (uint32_t)strlen(s));
	memcpy(m->b + m->len, s, strlen(s) + 1);
	m->len += strlen(s) + 1;
}

static void sig(struct msg *m, const char *s)
{
	m->b[m->len++] = (unsigned char)strlen(s);
	memcpy(m->b + m->len, s, strlen(s) + 1);
	m->len += strlen(s) + 1;
}

static void field(struct msg *m, unsigned char code, const char *type, const char *s, uint32_t v)
{
	pad(m, 8);
	m->b[m->len++] = code;
	sig(m, type);
	if (type[0] == 'u')
		u32(m, v);
	else if (type[0] == 'g')
		sig(m, s);
	else
		str(m, s);
}

/* the fixed header; the lengths are set by end() */
static void start(struct msg *m, bool big, unsigned char type, uint32_t serial)
{
	memset(m, 0, sizeof(*m));
	m->big = big;
	m->b[0] = big ? 'B' : 'l';
	m->b[1] = type;
	m->b[3] = 1;
	m->len = 8;
	u32(m, serial);
	u32(m, 0);
}

static size_t body_at;

static void body(struct msg *m)
{
	size_t fields = m->len - 16, keep = m->len;

	m->len = 12;
	u32(m, (uint32_t)fields);
	m->len = keep;
	pad(m, 8);
	body_at = m->len;
}

static void end(struct msg *m)
{
	size_t keep = m->len;

	m->len = 4;
	u32(m, (uint32_t)(keep - body_at));
	m->len = keep;
}

/* JobRemoved(id, job, unit, result), as systemd's manager signals it */
static void job_removed(struct msg *m, bool big, const char *unit, const char *result)
{
	start(m, big, 4, 77);
	field(m, 1, "o", "/org/freedesktop/systemd1", 0);
	field(m, 2, "s", "org.freedesktop.systemd1.Manager", 0);
	field(m, 3, "s", "JobRemoved", 0);
	field(m, 8, "g", "uoss", 0);
	body(m);
	u32(m, 42);
	str(m, "/org/freedesktop/systemd1/job/42");
	str(m, unit);
	str(m, result);
	end(m);
}

/* the reply to a Properties.Get: a variant holding a string */
static void get_reply(struct msg *m, bool big, uint32_t reply_to, const char *value)
{
	start(m, big, 2, 3);
	field(m, 5, "u", NULL, reply_to);
	field(m, 6, "s", ":1.0", 0);
	field(m, 8, "g", "v", 0);
	body(m);
	sig(m, "s");
	str(m, value);
	end(m);
}

static void test_unit_path(void **state)
{
	char *p = sdbus_unit_path("basic.target");

	assert_string_equal(p, "/org/freedesktop/systemd1/unit/basic_2etarget");
	free(p);
	/* systemd's own examples: dbus.service, and a template instance with its '@' and '-' */
	p = sdbus_unit_path("getty@tty1-x.service");
	assert_string_equal(p, "/org/freedesktop/systemd1/unit/getty_40tty1_2dx_2eservice");
	free(p);
}

static void test_get_call(void **state)
{
	unsigned char b[512];
	long n = sdbus_get_call(b, sizeof(b), 9, "/org/freedesktop/systemd1/unit/basic_2etarget",
				"org.freedesktop.systemd1.Unit", "ActiveState");
	struct sdbus_msg m;

	assert_true(n > 16);
	assert_int_equal(sdbus_msg_size(b, (size_t)n, 4096), n);
	assert_int_equal(sdbus_msg_parse(b, (size_t)n, &m), 0);
	assert_int_equal(m.type, 1);
	assert_int_equal(b[0], 'l');
	assert_int_equal(b[8], 9);
	assert_string_equal(m.interface, "org.freedesktop.DBus.Properties");
	assert_string_equal(m.member, "Get");
	assert_string_equal(m.signature, "ss");
	assert_int_equal(m.body_off % 8, 0);
	assert_string_equal(sdbus_msg_string(b, (size_t)n, &m, 0), "org.freedesktop.systemd1.Unit");
	assert_string_equal(sdbus_msg_string(b, (size_t)n, &m, 1), "ActiveState");
	assert_null(sdbus_msg_string(b, (size_t)n, &m, 2));
	/* too small a buffer: refused, not cut */
	assert_int_equal(sdbus_get_call(b, 100, 9, "/org/freedesktop/systemd1/unit/basic_2etarget",
					"org.freedesktop.systemd1.Unit", "ActiveState"),
			 -1);
}

static void test_signal_and_reply(void **state)
{
	struct msg m;
	struct sdbus_msg p;

	for (int big = 0; big < 2; big++) {
		job_removed(&m, big, "basic.target", "done");
		assert_int_equal(sdbus_msg_size(m.b, m.len, 4096), (long)m.len);
		/* two messages back to back: the first one's size */
		memcpy(m.b + m.len, m.b, m.len);
		assert_int_equal(sdbus_msg_size(m.b, 2 * m.len, 4096), (long)m.len);
		assert_int_equal(sdbus_msg_parse(m.b, m.len, &p), 0);
		assert_int_equal(p.type, 4);
		assert_string_equal(p.member, "JobRemoved");
		assert_string_equal(p.interface, "org.freedesktop.systemd1.Manager");
		assert_string_equal(p.signature, "uoss");
		assert_string_equal(sdbus_msg_string(m.b, m.len, &p, 1), "/org/freedesktop/systemd1/job/42");
		assert_string_equal(sdbus_msg_string(m.b, m.len, &p, 2), "basic.target");
		assert_string_equal(sdbus_msg_string(m.b, m.len, &p, 3), "done");
		assert_null(sdbus_msg_string(m.b, m.len, &p, 0)); /* a u, no string */

		get_reply(&m, big, 9, "active");
		assert_int_equal(sdbus_msg_parse(m.b, m.len, &p), 0);
		assert_int_equal(p.type, 2);
		assert_int_equal(p.reply_serial, 9);
		assert_string_equal(sdbus_msg_string(m.b, m.len, &p, 0), "active");
	}
}

static void test_cut_and_corrupt(void **state)
{
	struct msg m;
	struct sdbus_msg p;

	job_removed(&m, false, "basic.target", "done");
	/* every prefix: more bytes needed, never a size */
	for (size_t n = 0; n < m.len; n++) {
		unsigned char *cut = malloc(n ? n : 1);

		memcpy(cut, m.b, n);
		assert_int_equal(sdbus_msg_size(cut, n, 4096), 0);
		free(cut);
	}
	/* larger than the caller's bound, or not D-Bus at all */
	assert_int_equal(sdbus_msg_size(m.b, m.len, m.len - 1), -1);
	m.b[0] = 'x';
	assert_int_equal(sdbus_msg_size(m.b, m.len, 4096), -1);
	/* every byte changed in turn: parsed or refused, each in a buffer of exactly its size (ASan: no overrun) */
	for (size_t i = 0; i < m.len; i++) {
		for (int v = 0; v < 256; v += 51) {
			struct msg c;
			unsigned char *b;
			long size;

			job_removed(&c, false, "basic.target", "done");
			c.b[i] = (unsigned char)v;
			size = sdbus_msg_size(c.b, c.len, 4096);
			if (size <= 0 || (size_t)size > c.len)
				continue;
			b = malloc((size_t)size);
			memcpy(b, c.b, (size_t)size);
			if (!sdbus_msg_parse(b, (size_t)size, &p))
				for (int k = 0; k < 5; k++)
					sdbus_msg_string(b, (size_t)size, &p, k);
			free(b);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_unit_path),
	    cmocka_unit_test(test_get_call),
	    cmocka_unit_test(test_signal_and_reply),
	    cmocka_unit_test(test_cut_and_corrupt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
