/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_BOOT_SDBUS_H
#define KF_BOOT_SDBUS_H

#include <stddef.h>
#include <stdint.h>

/*
 * Has systemd reached a unit (a target reached, a service started)? Asked of systemd itself over its private
 * D-Bus socket (/run/systemd/private, there from its start, before any bus daemon), as systemctl does early in
 * a boot: the unit's ActiveState once connected, and again after each JobRemoved signal of that unit (systemd
 * sends every signal to every direct connection). A file test cannot tell: systemd 252 links
 * /run/systemd/units/invocation:UNIT only for units that run processes, never for a target.
 *
 * Only the few D-Bus messages this needs: a little-endian Properties.Get method call is written; replies, errors
 * and signals of either byte order are read, anything else skipped.
 */
struct sdbus_watch {
	const char *unit;   /* the unit's name, as systemd knows it: basic.target */
	char *path;	    /* its object path: /org/freedesktop/systemd1/unit/basic_2etarget */
	const char *socket; /* /run/systemd/private */
	int fd;		    /* -1: not connected */
	uint32_t serial;    /* of our last call */
	uint32_t pending;   /* the serial whose reply says the state, 0 for none */
	unsigned char *buf; /* what was read and not yet parsed */
	size_t len, cap;
	char state[32]; /* the last ActiveState systemd said ("" before any) */
	/* what PID 1 did for the watch: connections, messages it sent (its signals, our replies), our calls */
	unsigned long connects, msgs, calls;
};

/* Watches UNIT over socket (NULL: /run/systemd/private); connects on the first poll. */
void sdbus_watch_init(struct sdbus_watch *w, const char *unit, const char *socket);
/*
 * Connects if need be, then reads what systemd sent for at most timeout_ms. 1 when the unit is active
 * (ActiveState "active" or "reloading"), else 0: not yet, or systemd not there (the next poll tries again).
 */
int sdbus_watch_poll(struct sdbus_watch *w, int timeout_ms);
void sdbus_watch_release(struct sdbus_watch *w);

/* systemd's object path label of a unit name (bus_label_escape): [A-Za-z0-9] kept, any other byte _xx. */
char *sdbus_unit_path(const char *unit);

/* One message of len bytes at m, as far as the watch needs it. */
struct sdbus_msg {
	int type; /* 1 call, 2 return, 3 error, 4 signal */
	uint32_t reply_serial;
	const char *member, *interface, *signature; /* "" when absent */
	const unsigned char *body;		    /* the body's first byte, at its offset in m (8-aligned) */
	size_t body_off, body_len;
};
/*
 * The size of the whole message at the start of m (len bytes read so far): 0 when more bytes are needed, -1 when
 * it is no D-Bus message or larger than max.
 */
long sdbus_msg_size(const unsigned char *m, size_t len, size_t max);
/* Parses a whole message (size from sdbus_msg_size); strings point into m. 0, or -1 when malformed. */
int sdbus_msg_parse(const unsigned char *m, size_t size, struct sdbus_msg *out);
/*
 * The string arguments of a body: the idx-th of the signature's top-level items if it is a string, an object
 * path, or a variant holding a string. NULL otherwise.
 */
const char *sdbus_msg_string(const unsigned char *m, size_t size, const struct sdbus_msg *msg, int idx);
/* A Properties.Get of property on the unit's path into out (cap bytes): its size, or -1 when it does not fit. */
long sdbus_get_call(unsigned char *out, size_t cap, uint32_t serial, const char *path, const char *interface,
		    const char *property);

#endif
