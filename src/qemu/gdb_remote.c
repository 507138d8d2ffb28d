// SPDX-License-Identifier: GPL-2.0
/*
 * A GDB remote serial protocol client, as much of it as the gdb method needs: packets "$data#ck" with their
 * acknowledgements until QStartNoAckMode turns them off, register and memory reads, breakpoints, continue and
 * the stop replies. While it waits for a reply it keeps reading QEMU's console: a guest that writes to a full pipe
 * would stop, and its stub with it.
 */
#include <errno.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "qemu/gdb_remote.h"
#include "util/error.h"

int kfq_gdb_connect(struct kfq_gdb *g, const char *path, struct kfq_qemu *q, double timeout)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	double end = kfq_now() + timeout;

	memset(g, 0, sizeof(*g));
	g->fd = -1;
	g->q = q;
	if (strlen(path) >= sizeof(sa.sun_path))
		return error("qemu: gdb socket path too long: '%s'", path);
	strcpy(sa.sun_path, path);
	/* QEMU makes the socket once it has parsed its options: try until then, or until it exited */
	while (kfq_now() < end) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			return perror_msg("qemu: socket");
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
			g->fd = fd;
			return 0;
		}
		close(fd);
		if (waitpid(q->pid, &q->status, WNOHANG) == q->pid) {
			q->reaped = true;
			return -1;
		}
		usleep(20000);
	}
	return error("qemu: QEMU's gdb stub did not answer on '%s' within %.0f s", path, timeout);
}

void kfq_gdb_close(struct kfq_gdb *g)
{
	if (g->fd >= 0)
		close(g->fd);
	g->fd = -1;
}

static int write_all(int fd, const char *s, size_t n)
{
	while (n) {
		/* MSG_NOSIGNAL: a guest that powered off closed the socket; that is its end, not ours */
		ssize_t w = send(fd, s, n, MSG_NOSIGNAL);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		s += w;
		n -= (size_t)w;
	}
	return 0;
}

int kfq_gdb_send(struct kfq_gdb *g, const char *fmt, ...)
{
	char body[512], pkt[600];
	unsigned ck = 0;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(body))
		return error("qemu: gdb packet too long");
	for (int i = 0; i < n; i++)
		ck += (unsigned char)body[i];
	n = snprintf(pkt, sizeof(pkt), "$%s#%02x", body, ck & 0xff);
	g->packets++;
	if (write_all(g->fd, pkt, (size_t)n) < 0) {
		if (errno == EPIPE || errno == ECONNRESET) {
			g->closed = true;
			return 0;
		}
		return perror_msg("qemu: writing to QEMU's gdb stub");
	}
	return 0;
}

/* A whole packet at the head of g->in: its body copied to out (NUL-terminated), consumed. 1, or 0: not yet. */
static int take_packet(struct kfq_gdb *g, char *out, size_t cap)
{
	char *start, *hash;

	/* acknowledgements and anything before a packet */
	start = memchr(g->in, '$', g->inlen);
	if (!start) {
		g->inlen = 0;
		return 0;
	}
	hash = memchr(start, '#', g->inlen - (size_t)(start - g->in));
	if (!hash || (size_t)(hash - g->in) + 3 > g->inlen)
		return 0;
	size_t n = (size_t)(hash - start - 1);

	if (n >= cap)
		n = cap - 1;
	memcpy(out, start + 1, n);
	out[n] = 0;
	size_t used = (size_t)(hash - g->in) + 3;

	memmove(g->in, g->in + used, g->inlen - used);
	g->inlen -= used;
	/* the guest may have ended with this packet (W00): a failed acknowledgement is its end, not an error */
	if (!g->noack && write_all(g->fd, "+", 1) < 0)
		g->closed = true;
	return 1;
}

int kfq_gdb_recv(struct kfq_gdb *g, char *out, size_t cap, double end, volatile sig_atomic_t *stop,
		 void (*line)(void *ctx, const char *l), void *ctx)
{
	struct kfq_qemu *q = g->q;

	for (;;) {
		int r = take_packet(g, out, cap);

		if (r)
			return 1;
		if (end && kfq_now() >= end) {
			q->timed_out = true;
			return 0;
		}
		if (stop && *stop) {
			q->interrupted = true;
			return 0;
		}
		struct pollfd p[3] = {{g->fd, POLLIN, 0}, {q->out, POLLIN, 0}, {q->err, POLLIN, 0}};

		r = poll(p, 3, 250);
		if (r < 0 && errno != EINTR)
			return perror_msg("qemu: poll");
		if (r <= 0)
			continue;
		if (p[1].revents || p[2].revents)
			kfq_qemu_pump(q, p[1].revents, p[2].revents, line, ctx);
		if (!p[0].revents)
			continue;
		if (g->inlen == sizeof(g->in))
			g->inlen = 0; /* a reply larger than any asked for: dropped */
		ssize_t got = read(g->fd, g->in + g->inlen, sizeof(g->in) - g->inlen);

		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0) {
			g->closed = true;
			return 0; /* QEMU went away: the guest powered off */
		}
		g->inlen += (size_t)got;
	}
}

int kfq_gdb_cmd(struct kfq_gdb *g, char *reply, size_t cap, void (*line)(void *ctx, const char *l), void *ctx,
		const char *fmt, ...)
{
	char body[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(body) || kfq_gdb_send(g, "%s", body) < 0)
		return -1;
	/* a stopped guest answers at once: 30 s means the stub is gone */
	if (g->closed) {
		strcpy(reply, "X00"); /* as if the stub had said the guest ended */
		return 0;
	}
	n = kfq_gdb_recv(g, reply, cap, kfq_now() + 30, NULL, line, ctx);
	if (n == 0 && g->closed) {
		strcpy(reply, "X00");
		return 0;
	}
	if (n <= 0)
		return n < 0 ? -1 : error("qemu: QEMU's gdb stub did not answer '%.20s'", body);
	return 0;
}

static int unhex(char c)
{
	return c >= '0' && c <= '9'   ? c - '0'
	       : c >= 'a' && c <= 'f' ? c - 'a' + 10
	       : c >= 'A' && c <= 'F' ? c - 'A' + 10
				      : -1;
}

size_t kfq_gdb_hex(const char *hex, unsigned char *out, size_t cap)
{
	size_t n = 0;

	for (; hex[0] && hex[1] && n < cap; hex += 2) {
		int hi = unhex(hex[0]), lo = unhex(hex[1]);

		if (hi < 0 || lo < 0)
			break;
		out[n++] = (unsigned char)(hi << 4 | lo);
	}
	return n;
}

uint64_t kfq_le64(const unsigned char *b, size_t n)
{
	uint64_t v = 0;

	for (size_t i = n; i > 0; i--)
		v = v << 8 | b[i - 1];
	return v;
}

int kfq_gdb_mem(struct kfq_gdb *g, uint64_t addr, void *buf, size_t len, void (*line)(void *ctx, const char *l),
		void *ctx)
{
	char reply[2 * 512 + 8];

	if (len > 512)
		return -1;
	if (kfq_gdb_cmd(g, reply, sizeof(reply), line, ctx, "m%llx,%zx", (unsigned long long)addr, len) < 0)
		return -1;
	if (reply[0] == 'E' || reply[0] == 'X' || kfq_gdb_hex(reply, buf, len) != len)
		return 1; /* not mapped: the caller decides */
	return 0;
}
