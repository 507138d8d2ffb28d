// SPDX-License-Identifier: GPL-2.0
#include "util/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "util/error.h"
#include "util/strbuf.h"
#include "util/xalloc.h"

/* As many links as the kernel follows in one lookup (MAXSYMLINKS) */
#define MAX_LINKS 40

/* One line, through error() or, for an optional file, debug(); errno appended when err is not 0. */
__attribute__((format(printf, 3, 4))) static int report(const struct atomic_file *af, int err, const char *fmt, ...)
{
	char msg[2048];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (af->flags & AF_QUIET)
		debug("%s%s%s", msg, err ? ": " : "", err ? strerror(err) : "");
	else
		error("%s%s%s%s%s", af->context ? af->context : "", af->context ? ": " : "", msg, err ? ": " : "",
		      err ? strerror(err) : "");
	errno = err ? err : EPERM;
	return -1;
}

static const char *owner_name(uid_t uid, char *buf, size_t len)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		snprintf(buf, len, "%s (uid %u)", pw->pw_name, (unsigned)uid);
	else
		snprintf(buf, len, "uid %u", (unsigned)uid);
	return buf;
}

/* Who may point kfootprint at a file: root, and the user it runs as. */
static bool trusted(uid_t uid)
{
	return uid == 0 || uid == geteuid();
}

/* A directory where others may add, remove or rename entries. */
static bool shared_dir(const struct stat *dir)
{
	return dir->st_mode & (S_ISVTX | S_IWGRP | S_IWOTH);
}

/* The descriptor a path names without a lookup ("/dev/stdout"), or -1. */
static int named_fd(const char *path)
{
	const char *n = NULL;
	char *end;
	long fd;

	if (!strcmp(path, "/dev/stdout"))
		return 1;
	if (!strcmp(path, "/dev/stderr"))
		return 2;
	if (!strncmp(path, "/dev/fd/", 8))
		n = path + 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		n = path + 14;
	if (!n || *n < '0' || *n > '9')
		return -1;
	errno = 0;
	fd = strtol(n, &end, 10);
	return *end || errno || fd > INT_MAX ? -1 : (int)fd;
}

struct walk {
	int dirfd;
	struct strbuf at; /* the directory walked to, for messages */
	int links;
};

static int walk_root(struct walk *w, bool absolute)
{
	int fd = open(absolute ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (w->dirfd >= 0)
		close(w->dirfd);
	w->dirfd = fd;
	strbuf_reset(&w->at);
	strbuf_addstr(&w->at, absolute ? "/" : "");
	return 0;
}

/* The walked path of an entry of the current directory, for messages. */
static char *walked(const struct walk *w, const char *comp)
{
	const char *sep = w->at.len && w->at.buf[w->at.len - 1] != '/' ? "/" : "";

	return xasprintf("%s%s%s", w->at.buf, sep, comp);
}

/*
 * Walks path one component at a time from the current directory (or /) and never lets the kernel follow a
 * symbolic link: each one is checked, read and its text walked in its place. Leaves w->dirfd on the directory
 * of the final entry and returns that entry's name (malloc'd), with *st filled (st_mode 0 when it does not
 * exist yet); NULL after reporting.
 */
static char *walk(const struct atomic_file *af, struct walk *w, struct stat *st)
{
	char *rest = xstrdup(af->path), *p = rest, *name = NULL;
	char who[128];

	if (walk_root(w, rest[0] == '/') < 0) {
		report(af, errno, "'%s'", af->path);
		goto out;
	}
	for (;;) {
		char *comp, *end, *link, *where;
		bool last;
		ssize_t n;

		while (*p == '/')
			p++;
		if (!*p) { /* "/", "dir/": a directory, never a file we could write */
			report(af, EISDIR, "'%s'", af->path);
			goto out;
		}
		comp = p;
		end = strchrnul(p, '/');
		last = !*end;
		p = last ? end : end + 1;
		*end = '\0';
		if (fstatat(w->dirfd, comp, st, AT_SYMLINK_NOFOLLOW) < 0) {
			if (last && errno == ENOENT) {
				memset(st, 0, sizeof(*st));
				name = xstrdup(comp);
			} else {
				report(af, errno, "'%s'", af->path);
			}
			goto out;
		}
		if (S_ISLNK(st->st_mode)) {
			if (!trusted(st->st_uid)) {
				where = walked(w, comp);
				report(
				    af, 0,
				    "'%s': %s%s%sa symbolic link of %s: not followed (kfootprint follows only links of "
				    "root or of its own user)",
				    af->path, strcmp(where, af->path) ? "'" : "", strcmp(where, af->path) ? where : "",
				    strcmp(where, af->path) ? "' is " : "", owner_name(st->st_uid, who, sizeof(who)));
				free(where);
				goto out;
			}
			if (++w->links > MAX_LINKS) {
				report(af, ELOOP, "'%s'", af->path);
				goto out;
			}
			link = xmalloc(PATH_MAX);
			n = readlinkat(w->dirfd, comp, link, PATH_MAX - 1);
			if (n <= 0) {
				report(af, n < 0 ? errno : ENOENT, "'%s'", af->path);
				free(link);
				goto out;
			}
			link[n] = '\0';
			/* the link's text takes its place, what followed it (a trailing slash too) after it */
			char *next = xasprintf("%s%s%s", link, last ? "" : "/", p);

			free(link);
			free(rest);
			rest = p = next;
			if (*p == '/' && walk_root(w, true) < 0) {
				report(af, errno, "'%s'", af->path);
				goto out;
			}
			continue;
		}
		if (last) {
			name = xstrdup(comp);
			goto out;
		}
		if (!S_ISDIR(st->st_mode)) {
			report(af, ENOTDIR, "'%s'", af->path);
			goto out;
		}
		/* O_NOFOLLOW: the directory just checked, not a link put in its place since */
		int fd = openat(w->dirfd, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

		if (fd < 0) {
			report(af, errno, "'%s'", af->path);
			goto out;
		}
		close(w->dirfd);
		w->dirfd = fd;
		where = walked(w, comp);
		strbuf_reset(&w->at);
		strbuf_addstr(&w->at, where);
		free(where);
	}
out:
	free(rest);
	return name;
}

/* Where the replacement of a file of another user is not ours to make. */
static int check_owner(const struct atomic_file *af, const struct stat *st, const struct stat *dir)
{
	char who[128];

	if (st->st_uid == geteuid() || !shared_dir(dir))
		return 0;
	return report(af, 0,
		      "'%s': a file of %s in a directory others can write to: not replaced (remove it or choose "
		      "another name)",
		      af->path, owner_name(st->st_uid, who, sizeof(who)));
}

static void random_suffix(char *out, size_t n)
{
	static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[16];

	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		struct timespec ts;

		/* O_EXCL and linkat refuse a taken name: a guessable one only costs a retry */
		clock_gettime(CLOCK_MONOTONIC, &ts);
		srandom((unsigned)ts.tv_nsec ^ (unsigned)getpid());
		for (size_t i = 0; i < sizeof(rnd); i++)
			rnd[i] = (unsigned char)random();
	}
	for (size_t i = 0; i < n; i++)
		out[i] = alphabet[rnd[i % sizeof(rnd)] % (sizeof(alphabet) - 1)];
	out[n] = '\0';
}

/*
 * "NAME.tmp." and six random characters in dirfd, not taken yet (the caller creates it with O_EXCL or linkat,
 * which check).
 */
static char *tmp_name(const char *name)
{
	char sfx[8];

	random_suffix(sfx, 6);
	return xasprintf("%.200s.tmp.%s", name, sfx);
}

/*
 * The new file: unnamed in dirfd where the filesystem allows it (nothing is left behind if kfootprint dies),
 * else under a fresh temporary name, created exclusively and never through a link.
 */
static int create_new(struct atomic_file *af, mode_t mode)
{
	int fd = openat(af->dirfd, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);

	/* naming it at commit takes CAP_DAC_READ_SEARCH or /proc/self/fd: without /proc, a name from the start */
	if (fd >= 0 && access("/proc/self/fd", X_OK) < 0) {
		close(fd);
		fd = -1;
		errno = EOPNOTSUPP;
	}
	if (fd >= 0)
		return fd;
	if (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL)
		return -1;
	for (int tries = 0; tries < 100; tries++) {
		af->tmp = tmp_name(af->name);
		fd = openat(af->dirfd, af->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
		if (fd >= 0 || errno != EEXIST)
			break;
		free(af->tmp);
		af->tmp = NULL;
	}
	if (fd < 0) {
		free(af->tmp);
		af->tmp = NULL;
	}
	return fd;
}

static void release(struct atomic_file *af)
{
	if (af->dirfd >= 0)
		close(af->dirfd);
	free(af->path);
	free(af->dir);
	free(af->name);
	free(af->tmp);
	memset(af, 0, sizeof(*af));
	af->dirfd = -1;
}

/* A device, a FIFO or a descriptor: written where it is. */
static int open_in_place(struct atomic_file *af, const struct stat *st, const struct stat *dir)
{
	char who[128];
	struct stat now;
	int fd;

	if (S_ISBLK(st->st_mode))
		return report(af, 0, "'%s': a block device: kfootprint does not write over one", af->path);
	if (!trusted(st->st_uid) && shared_dir(dir))
		return report(af, 0, "'%s': a %s of %s in a directory others can write to: not written into", af->path,
			      S_ISFIFO(st->st_mode) ? "FIFO" : "special file",
			      owner_name(st->st_uid, who, sizeof(who)));
	/* a FIFO waits for its reader here, as the shell's redirection would */
	fd = openat(af->dirfd, af->name, O_WRONLY | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return report(af, errno, "'%s'", af->path);
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev || now.st_ino != st->st_ino) {
		close(fd);
		return report(af, 0, "'%s': replaced while it was being opened", af->path);
	}
	af->f = fdopen(fd, "w");
	if (!af->f) {
		close(fd);
		return report(af, errno, "'%s'", af->path);
	}
	close(af->dirfd);
	af->dirfd = -1;
	return 0;
}

int atomic_file_open(struct atomic_file *af, const char *path, unsigned flags)
{
	struct walk w = {.dirfd = -1, .at = STRBUF_INIT};
	struct stat st, dir;
	mode_t mode = flags & AF_PRIVATE ? 0600 : 0644;
	bool keep = false;
	int fd;

	memset(af, 0, sizeof(*af));
	af->dirfd = -1;
	af->flags = flags;
	af->path = xstrdup(path);
	if (!strcmp(path, "-")) {
		af->f = stdout;
		return 0;
	}
	fd = named_fd(path);
	if (fd >= 0) {
		int fl = fcntl(fd, F_GETFL);

		if (fl < 0 || (fl & O_ACCMODE) == O_RDONLY) {
			report(af, EBADF, "'%s'", path);
			goto fail;
		}
		fd = fcntl(fd, F_DUPFD_CLOEXEC, 3);
		if (fd < 0 || !(af->f = fdopen(fd, "w"))) {
			report(af, errno, "'%s'", path);
			if (fd >= 0)
				close(fd);
			goto fail;
		}
		return 0;
	}
	if (!*path) {
		report(af, ENOENT, "''");
		goto fail;
	}
	af->name = walk(af, &w, &st);
	af->dirfd = w.dirfd;
	af->dir = strbuf_detach(&w.at);
	if (!af->name)
		goto fail;
	if (fstat(af->dirfd, &dir) < 0) {
		report(af, errno, "'%s'", path);
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		report(af, EISDIR, "'%s'", path);
		goto fail;
	}
	if (st.st_mode && !S_ISREG(st.st_mode)) {
		if (open_in_place(af, &st, &dir) < 0)
			goto fail;
		return 0;
	}
	if (st.st_mode) {
		if (check_owner(af, &st, &dir) < 0)
			goto fail;
		/* the user's own file keeps its permissions (without special bits); anyone else's are not copied */
		if (st.st_uid == geteuid() && st.st_nlink == 1) {
			keep = true;
			mode = st.st_mode & (flags & AF_PRIVATE ? 0700 : 0777);
		}
	}
	fd = create_new(af, mode);
	if (fd < 0) {
		report(af, errno, "'%s'", path);
		goto fail;
	}
	/* a kept mode is the file's as it was, umask aside */
	if (keep && fchmod(fd, mode) < 0) {
		report(af, errno, "'%s'", path);
		close(fd);
		goto fail_tmp;
	}
	af->f = fdopen(fd, "w");
	if (!af->f) {
		report(af, errno, "'%s'", path);
		close(fd);
		goto fail_tmp;
	}
	return 0;
fail_tmp:
	if (af->tmp)
		unlinkat(af->dirfd, af->tmp, 0);
fail:
	release(af);
	return -1;
}

/* Gives the unnamed new file its temporary name, ready for the rename. */
static int name_new(struct atomic_file *af)
{
	char proc[64];
	int fd = fileno(af->f);

	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	for (int tries = 0; tries < 100; tries++) {
		af->tmp = tmp_name(af->name);
		if (linkat(fd, "", af->dirfd, af->tmp, AT_EMPTY_PATH) == 0 ||
		    ((errno == ENOENT || errno == EPERM) &&
		     linkat(AT_FDCWD, proc, af->dirfd, af->tmp, AT_SYMLINK_FOLLOW) == 0))
			return 0;
		int err = errno;

		free(af->tmp);
		af->tmp = NULL;
		errno = err;
		if (errno != EEXIST)
			break;
	}
	return -1;
}

/*
 * The target again, just before the rename: another user may have put something at its name during the run
 * (in a directory others can write to). Not replaced then; the output stays under its temporary name.
 */
static int check_again(struct atomic_file *af)
{
	struct stat st, dir;
	char who[128];

	if (fstatat(af->dirfd, af->name, &st, AT_SYMLINK_NOFOLLOW) < 0 || fstat(af->dirfd, &dir) < 0 ||
	    trusted(st.st_uid) || !shared_dir(&dir))
		return 0;
	return report(af, 0, "'%s': now an entry of %s: not replaced; the output is in '%s%s%s'", af->path,
		      owner_name(st.st_uid, who, sizeof(who)), af->dir,
		      af->dir[0] && af->dir[strlen(af->dir) - 1] != '/' ? "/" : "", af->tmp);
}

int atomic_file_commit(struct atomic_file *af)
{
	int ret = 0;

	if (!af->f)
		return -1;
	if (af->f == stdout) {
		if (fflush(af->f) || ferror(af->f))
			ret = report(af, errno, "writing standard output");
		release(af);
		return ret;
	}
	if (af->dirfd < 0) {
		int bad = ferror(af->f);

		if (fclose(af->f) || bad)
			ret = report(af, errno, "writing '%s'", af->path);
		af->f = NULL;
		release(af);
		return ret;
	}
	if (fflush(af->f) || ferror(af->f)) {
		ret = report(af, errno, "writing '%s'", af->path);
	} else if (!af->tmp && name_new(af) < 0) {
		ret = report(af, errno, "'%s'", af->path);
	} else if (fclose(af->f)) {
		af->f = NULL;
		ret = report(af, errno, "writing '%s'", af->path);
	} else {
		af->f = NULL;
		if (check_again(af) < 0) {
			release(af); /* the output is kept where the message says */
			return -1;
		}
		if (renameat(af->dirfd, af->tmp, af->dirfd, af->name) < 0)
			ret = report(af, errno, "'%s'", af->path);
		else {
			release(af);
			return 0;
		}
	}
	if (af->f)
		fclose(af->f);
	af->f = NULL;
	if (af->tmp)
		unlinkat(af->dirfd, af->tmp, 0);
	release(af);
	return ret;
}

void atomic_file_abort(struct atomic_file *af)
{
	if (!af->f)
		return;
	if (af->f != stdout)
		fclose(af->f);
	if (af->tmp && af->dirfd >= 0)
		unlinkat(af->dirfd, af->tmp, 0);
	release(af);
}

int atomic_file_finish(struct atomic_file *af, int (*write)(FILE *out, const void *ctx), const void *ctx)
{
	if (write(af->f, ctx) < 0) {
		if (af->f == stdout)
			report(af, errno, "writing standard output");
		else
			report(af, errno, "writing '%s'", af->path);
		atomic_file_abort(af);
		return -1;
	}
	return atomic_file_commit(af);
}

int atomic_file_write(const char *path, unsigned flags, FILE *dflt, int (*write)(FILE *out, const void *ctx),
		      const void *ctx)
{
	struct atomic_file af;

	if (!path) {
		/* stdout is checked once more at exit (main.c), where buffered write errors surface */
		if (write(dflt, ctx) < 0)
			return perror_msg("writing %s", dflt == stderr ? "standard error" : "standard output");
		return 0;
	}
	if (atomic_file_open(&af, path, flags) < 0)
		return -1;
	return atomic_file_finish(&af, write, ctx);
}

unsigned atomic_file_flags_like(const char *input)
{
	struct stat st;

	if (!input || !strcmp(input, "-") || stat(input, &st) < 0 || !S_ISREG(st.st_mode))
		return 0;
	return st.st_mode & S_IROTH ? 0 : AF_PRIVATE;
}

/* What names one file: its device and inode when it exists, else its path with the directory resolved. */
struct file_id {
	bool known; /* false: "-" as an output, or not a regular file (a terminal, /dev/null, a pipe) */
	bool exists;
	dev_t dev;
	ino_t ino;
	char *resolved;
};

static void identify(const char *path, bool input, struct file_id *id)
{
	struct stat st;
	int rc;

	memset(id, 0, sizeof(*id));
	if (!path || (!input && !strcmp(path, "-")))
		return;
	/* standard input may be a file of its own: `report -o X - <X` */
	rc = !strcmp(path, "-") ? fstat(STDIN_FILENO, &st) : stat(path, &st);
	if (rc == 0) {
		if (!S_ISREG(st.st_mode))
			return;
		id->known = id->exists = true;
		id->dev = st.st_dev;
		id->ino = st.st_ino;
		return;
	}
	if (errno != ENOENT || !*path || input)
		return; /* an input that cannot be read, or a path that cannot be: atomic_file_open() says why */
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, (size_t)(slash - path + 1)) : xstrdup(".");
	char *real = realpath(dir, NULL);

	if (real) {
		id->known = true;
		id->resolved = xasprintf("%s/%s", real, slash ? slash + 1 : path);
	}
	free(real);
	free(dir);
}

static bool same_file(const struct file_id *a, const struct file_id *b)
{
	if (!a->known || !b->known || a->exists != b->exists)
		return false;
	if (a->exists)
		return a->dev == b->dev && a->ino == b->ino;
	return !strcmp(a->resolved, b->resolved);
}

int atomic_file_distinct(const char *const *inputs, size_t nin, const char *const *outputs, size_t nout)
{
	struct file_id *in = xcalloc(nin + 1, sizeof(*in)), *out = xcalloc(nout + 1, sizeof(*out));
	int ret = 0;

	for (size_t i = 0; i < nin; i++)
		identify(inputs[i], true, &in[i]);
	for (size_t o = 0; o < nout && !ret; o++) {
		identify(outputs[o], false, &out[o]);
		for (size_t i = 0; i < nin && !ret; i++)
			if (same_file(&out[o], &in[i]))
				ret = error(
				    "'%s': the same file as the input '%s': refused, an output never replaces an input",
				    outputs[o], strcmp(inputs[i], "-") ? inputs[i] : "standard input");
		for (size_t p = 0; p < o && !ret; p++)
			if (same_file(&out[o], &out[p]))
				ret = error(
				    "'%s': the same file as the output '%s': refused, one would replace the other",
				    outputs[o], outputs[p]);
	}
	for (size_t i = 0; i < nin; i++)
		free(in[i].resolved);
	for (size_t o = 0; o < nout; o++)
		free(out[o].resolved);
	free(in);
	free(out);
	return ret;
}
