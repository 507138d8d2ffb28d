// SPDX-License-Identifier: GPL-2.0
/*
 * systemd's private bus, for --until-target (sdbus.h). The D-Bus wire format as the specification gives it:
 * a 16-byte fixed header (byte order 'l' or 'B', type, flags, version 1, body length, serial, the header fields'
 * array length), the fields (code, variant) each 8-aligned, the body 8-aligned after them; every alignment is
 * counted from the message's first byte.
 */
#include <errno.h>
#include <poll.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

#include "boot/sdbus.h"
#include "util/xalloc.h"

#define SDBUS_SOCKET "/run/systemd/private"
/* systemd's signals are a few hundred bytes: a message this large is no reply of ours */
#define SDBUS_MAX (1u << 20)

static size_t align(size_t off, size_t to)
{
	return (off + to - 1) & ~(to - 1);
}

static uint32_t get_u32(const unsigned char *m, size_t off, bool big)
{
	if (big)
		return (uint32_t)m[off] << 24 | (uint32_t)m[off + 1] << 16 | (uint32_t)m[off + 2] << 8 | m[off + 3];
	return (uint32_t)m[off + 3] << 24 | (uint32_t)m[off + 2] << 16 | (uint32_t)m[off + 1] << 8 | m[off];
}

char *sdbus_unit_path(const char *unit)
{
	static const char prefix[] = "/org/freedesktop/systemd1/unit/";
	char *p = xmalloc(sizeof(prefix) + 3 * strlen(unit)), *q = p + sizeof(prefix) - 1;

	memcpy(p, prefix, sizeof(prefix) - 1);
	for (const unsigned char *s = (const unsigned char *)unit; *s; s++) {
		if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))
			*q++ = (char)*s;
		else
			q += sprintf(q, "_%02x", *s);
	}
	*q = 0;
	return p;
}

long sdbus_msg_size(const unsigned char *m, size_t len, size_t max)
{
	uint64_t fields, body, total;
	bool big;

	if (len < 16)
		return 0;
	if ((m[0] != 'l' && m[0] != 'B') || m[3] != 1)
		return -1;
	big = m[0] == 'B';
	body = get_u32(m, 4, big);
	fields = get_u32(m, 12, big);
	total = align(16 + fields, 8) + body;
	if (total > max)
		return -1;
	return len < total ? 0 : (long)total;
}

/* A string of a body or header at *off (type 's', 'o' or 'g'), end excluded: NULL when it overruns. */
static const char *get_str(const unsigned char *m, size_t *off, size_t end, char type, bool big)
{
	size_t n, o = *off;

	if (type == 'g') {
		if (o >= end)
			return NULL;
		n = m[o++];
	} else {
		o = align(o, 4);
		if (o + 4 > end)
			return NULL;
		n = get_u32(m, o, big);
		o += 4;
	}
	if (n >= end || o + n >= end || m[o + n])
		return NULL;
	*off = o + n + 1;
	return (const char *)m + o;
}

int sdbus_msg_parse(const unsigned char *m, size_t size, struct sdbus_msg *out)
{
	bool big = size && m[0] == 'B';
	size_t off = 16, end;

	memset(out, 0, sizeof(*out));
	out->member = out->interface = out->signature = "";
	if (size < 16)
		return -1;
	out->type = m[1];
	end = 16 + (size_t)get_u32(m, 12, big);
	out->body_len = get_u32(m, 4, big);
	out->body_off = align(end, 8);
	if (end > size || out->body_off + out->body_len != size)
		return -1;
	out->body = m + out->body_off;
	while ((off = align(off, 8)) < end) {
		int code = m[off++];
		const char *sig = get_str(m, &off, end, 'g', big), *s = NULL;

		/* every field the specification defines is of one basic type */
		if (!sig || strlen(sig) != 1)
			return -1;
		switch (sig[0]) {
		case 's':
		case 'o':
		case 'g':
			if (!(s = get_str(m, &off, end, sig[0], big)))
				return -1;
			break;
		case 'u':
			off = align(off, 4);
			if (off + 4 > end)
				return -1;
			if (code == 5)
				out->reply_serial = get_u32(m, off, big);
			off += 4;
			break;
		default: return -1;
		}
		if (code == 2 && s)
			out->interface = s;
		else if (code == 3 && s)
			out->member = s;
		else if (code == 8 && s)
			out->signature = s;
	}
	return 0;
}

const char *sdbus_msg_string(const unsigned char *m, size_t size, const struct sdbus_msg *msg, int idx)
{
	bool big = m[0] == 'B';
	size_t off = msg->body_off, end = msg->body_off + msg->body_len;

	if (end > size)
		return NULL;
	for (int i = 0; msg->signature[i]; i++) {
		char t = msg->signature[i];
		const char *s = NULL;

		switch (t) {
		case 'y': off++; break;
		case 'b':
		case 'u':
		case 'i': off = align(off, 4) + 4; break;
		case 's':
		case 'o':
		case 'g': s = get_str(m, &off, end, t, big); break;
		case 'v': {
			/* only a variant holding one string is of use here */
			const char *vs = get_str(m, &off, end, 'g', big);

			if (!vs || strlen(vs) != 1 || !strchr("sog", vs[0]))
				return NULL;
			s = get_str(m, &off, end, vs[0], big);
			break;
		}
		default: return NULL;
		}
		if (off > end || (!s && strchr("sogv", t)))
			return NULL;
		if (i == idx)
			return s;
	}
	return NULL;
}

/* --- writing a call ------------------------------------------------------------------------------------ */
struct out {
	unsigned char *p;
	size_t len, cap;
	bool full;
};

static void put(struct out *o, const void *b, size_t n)
{
	if (o->len + n > o->cap) {
		o->full = true;
		return;
	}
	memcpy(o->p + o->len, b, n);
	o->len += n;
}

static void pad(struct out *o, size_t to)
{
	static const unsigned char zeros[8];

	put(o, zeros, align(o->len, to) - o->len);
}

static void put_u32(struct out *o, uint32_t v)
{
	unsigned char b[4] = {v & 0xff, v >> 8 & 0xff, v >> 16 & 0xff, v >> 24 & 0xff};

	pad(o, 4);
	put(o, b, 4);
}

static void put_str(struct out *o, const char *s)
{
	put_u32(o, (uint32_t)strlen(s));
	put(o, s, strlen(s) + 1);
}

/* A header field: code, then a variant of one basic type: its signature, then the value. */
static void put_field(struct out *o, unsigned char code, char type, const char *s)
{
	unsigned char h[4] = {code, 1, (unsigned char)type, 0};

	pad(o, 8);
	put(o, h, 4);
	if (type == 'g') {
		unsigned char n = (unsigned char)strlen(s);

		put(o, &n, 1);
		put(o, s, strlen(s) + 1);
	} else {
		put_str(o, s);
	}
}

long sdbus_get_call(unsigned char *buf, size_t cap, uint32_t serial, const char *path, const char *interface,
		    const char *property)
{
	/* little-endian, method call, no flags, version 1; lengths filled in below */
	static const unsigned char fixed[16] = {'l', 1, 0, 1};
	struct out o = {buf, 0, cap, false};
	size_t body;

	put(&o, fixed, sizeof(fixed));
	put_field(&o, 1, 'o', path);
	put_field(&o, 6, 's', "org.freedesktop.systemd1");
	put_field(&o, 2, 's', "org.freedesktop.DBus.Properties");
	put_field(&o, 3, 's', "Get");
	put_field(&o, 8, 'g', "ss");
	if (o.full)
		return -1;
	{
		uint32_t fields = (uint32_t)(o.len - 16);

		memcpy(buf + 12, (unsigned char[4]){fields & 0xff, fields >> 8 & 0xff, fields >> 16 & 0xff, 0}, 4);
	}
	pad(&o, 8);
	body = o.len;
	put_str(&o, interface);
	put_str(&o, property);
	if (o.full)
		return -1;
	body = o.len - body;
	memcpy(buf + 4, (unsigned char[4]){body & 0xff, body >> 8 & 0xff, body >> 16 & 0xff, 0}, 4);
	memcpy(buf + 8, (unsigned char[4]){serial & 0xff, serial >> 8 & 0xff, serial >> 16 & 0xff, serial >> 24}, 4);
	return (long)o.len;
}

/* --- the watch ----------------------------------------------------------------------------------------- */
void sdbus_watch_init(struct sdbus_watch *w, const char *unit, const char *socket)
{
	memset(w, 0, sizeof(*w));
	w->unit = unit;
	w->path = sdbus_unit_path(unit);
	w->socket = socket ? socket : SDBUS_SOCKET;
	w->fd = -1;
}

static void disconnect(struct sdbus_watch *w)
{
	if (w->fd >= 0)
		close(w->fd);
	w->fd = -1;
	w->len = 0;
	w->pending = 0;
}

static int send_all(int fd, const void *b, size_t n)
{
	for (const char *p = b; n;) {
		ssize_t k = send(fd, p, n, MSG_NOSIGNAL);

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return -1;
		p += k;
		n -= (size_t)k;
	}
	return 0;
}

static int ask_state(struct sdbus_watch *w)
{
	unsigned char call[512];
	long n;

	if (!++w->serial)
		w->serial = 1;
	n = sdbus_get_call(call, sizeof(call), w->serial, w->path, "org.freedesktop.systemd1.Unit", "ActiveState");
	if (n < 0 || send_all(w->fd, call, (size_t)n) < 0)
		return -1;
	w->pending = w->serial;
	w->calls++;
	return 0;
}

/*
 * SASL EXTERNAL as our uid (its decimal digits in hex), then BEGIN: what sd-bus expects of a client of a direct
 * connection, with no Hello after it (there is no bus daemon to name us).
 */
static int connect_bus(struct sdbus_watch *w)
{
	struct sockaddr_un a = {.sun_family = AF_UNIX};
	struct timeval tv = {.tv_sec = 2};
	char uid[16], auth[64] = "", line[256];
	size_t n = 0, k = 1;

	if (strlen(w->socket) >= sizeof(a.sun_path))
		return -1;
	strcpy(a.sun_path, w->socket);
	w->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (w->fd < 0)
		return -1;
	if (connect(w->fd, (struct sockaddr *)&a, sizeof(a)) < 0)
		goto fail;
	/* systemd answers at once; a stuck peer must not hold the watch */
	setsockopt(w->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(w->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	snprintf(uid, sizeof(uid), "%u", (unsigned)geteuid());
	k += (size_t)snprintf(auth + 1, sizeof(auth) - 1, "AUTH EXTERNAL ");
	for (const char *c = uid; *c; c++)
		k += (size_t)snprintf(auth + k, sizeof(auth) - k, "%02x", (unsigned char)*c);
	k += (size_t)snprintf(auth + k, sizeof(auth) - k, "\r\n");
	if (send_all(w->fd, auth, k) < 0)
		goto fail;
	while (n < sizeof(line) - 1 && !memmem(line, n, "\r\n", 2)) {
		ssize_t r = recv(w->fd, line + n, sizeof(line) - 1 - n, 0);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			goto fail;
		n += (size_t)r;
	}
	if (n < 3 || memcmp(line, "OK ", 3) || send_all(w->fd, "BEGIN\r\n", 7) < 0 || ask_state(w) < 0)
		goto fail;
	w->connects++;
	return 0;
fail:
	disconnect(w);
	return -1;
}

static bool is_active(const char *state)
{
	return !strcmp(state, "active") || !strcmp(state, "reloading");
}

/* One whole message: our reply, or a signal that the unit's job ended (then its state is asked again). */
static int handle(struct sdbus_watch *w, const unsigned char *m, size_t size)
{
	struct sdbus_msg msg;
	const char *s;

	if (sdbus_msg_parse(m, size, &msg) < 0)
		return -1;
	w->msgs++;
	if ((msg.type == 2 || msg.type == 3) && w->pending && msg.reply_serial == w->pending) {
		w->pending = 0;
		s = msg.type == 2 ? sdbus_msg_string(m, size, &msg, 0) : NULL;
		snprintf(w->state, sizeof(w->state), "%s", s ? s : "");
		return 0;
	}
	if (msg.type == 4 && !strcmp(msg.member, "JobRemoved") &&
	    !strcmp(msg.interface, "org.freedesktop.systemd1.Manager") && !strcmp(msg.signature, "uoss") &&
	    (s = sdbus_msg_string(m, size, &msg, 2)) && !strcmp(s, w->unit))
		return ask_state(w);
	return 0;
}

int sdbus_watch_poll(struct sdbus_watch *w, int timeout_ms)
{
	struct pollfd p;
	long size;

	if (w->fd < 0 && connect_bus(w) < 0) {
		/* not there yet (systemd starting, or not the init at all): the next poll tries again */
		usleep((useconds_t)timeout_ms * 1000);
		return 0;
	}
	p = (struct pollfd){w->fd, POLLIN, 0};
	if (poll(&p, 1, timeout_ms) == 1) {
		ssize_t r;

		if (w->cap - w->len < 4096) {
			w->cap = w->cap ? 2 * w->cap : 16384;
			w->buf = xrealloc(w->buf, w->cap);
		}
		r = recv(w->fd, w->buf + w->len, w->cap - w->len, MSG_DONTWAIT);
		if (r == 0 || (r < 0 && errno != EINTR && errno != EAGAIN)) {
			disconnect(w);
			return 0;
		}
		if (r > 0)
			w->len += (size_t)r;
	}
	while ((size = sdbus_msg_size(w->buf, w->len, SDBUS_MAX)) != 0) {
		if (size < 0 || handle(w, w->buf, (size_t)size) < 0) {
			disconnect(w);
			return 0;
		}
		memmove(w->buf, w->buf + size, w->len - (size_t)size);
		w->len -= (size_t)size;
	}
	return is_active(w->state);
}

void sdbus_watch_release(struct sdbus_watch *w)
{
	disconnect(w);
	free(w->path);
	free(w->buf);
	w->path = NULL;
	w->buf = NULL;
	w->cap = 0;
}
