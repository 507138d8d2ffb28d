// SPDX-License-Identifier: GPL-2.0
/*
 * bpf backend: the program cache. Verifying the programs is most of a run's start-up, and the kernel verifies
 * the same instructions again on every run. So a run that loaded them pins the programs and every map of the
 * object in bpffs, under a key that names exactly what was loaded; the next run with the same key takes them
 * (BPF_OBJ_GET), gives the fresh skeleton its maps (bpf_map__reuse_fd), loads nothing, and attaches by fd.
 *
 * What makes it exact is that the maps carry nothing from one run to the next: each piece of state is reset
 * before the programs are attached (reset_maps(), docs/bpf.md#the-cache); task storage, which lives as long as its
 * task, carries the generation of its run (struct kf_task.gen) and counts as none in another. One run uses a
 * cache at a time (an exclusive flock on a root-owned file in /run/kfootprint), and only an orderly end marks it
 * clean: a run that died holding it leaves it unmarked, and the next drops it and loads afresh. The links are
 * the run's own: nothing runs between runs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "bpf/kfrec.h"
#include "kfrec.skel.h"
#include "trace/bpf_int.h"
#include "util/error.h"
#include "util/xalloc.h"

#define BPFFS	     "/sys/fs/bpf"
#define CACHE_ROOT   BPFFS "/kfootprint"
#define LOCK_DIR     "/run/kfootprint"
#define PROGS_MAX    16
#define CACHES_KEPT  8 /* other keys' caches kept when one more is made (each holds up to ~1.9 MB of kernel memory) */
#define KEY_HEX	     32
#define MAP_KEY_MAX  512
#define ARRAY_ZEROED 64 /* arrays with more entries than this are not reset entry by entry: no cache */

struct cached_prog {
	const char *name; /* the object's */
	const char *tp;	  /* the raw tracepoint it attaches to */
	int fd;
	int link;
	struct bpf_prog_info base; /* its statistics when this run took it */
};

struct bpf_cache {
	int lock_fd; /* LOCK_DIR/KEY.lock, flock'ed while this run holds the cache */
	int root_fd; /* CACHE_ROOT */
	char key[KEY_HEX + 1];
	bool loaded; /* the programs and maps came from the cache */
	bool build;  /* loaded afresh: pinned at an orderly end */
	size_t nprogs;
	struct cached_prog prog[PROGS_MAX];
};

/* A 128-bit hash of the key's parts: two 64-bit lanes over 8-byte words, then murmur3's finaliser. */
struct key_hash {
	uint64_t a, b, n;
};

static uint64_t rotl(uint64_t x, int r)
{
	return x << r | x >> (64 - r);
}

static uint64_t fmix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdull;
	k ^= k >> 33;
	k *= 0xc4ceb9fe1a85ec53ull;
	return k ^ (k >> 33);
}

static void hash_word(struct key_hash *h, uint64_t w)
{
	h->a = rotl(h->a ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
	h->b = (rotl(h->b + w, 27) ^ h->a) * 0x9e3779b97f4a7c15ull + 0x52dce729;
}

/* Each part with its length: parts never run into each other. */
static void hash_add(struct key_hash *h, const void *p, size_t len)
{
	const unsigned char *c = p;
	uint64_t w;

	hash_word(h, len);
	for (; len >= 8; len -= 8, c += 8) {
		memcpy(&w, c, 8);
		hash_word(h, w);
	}
	w = 0;
	memcpy(&w, c, len);
	hash_word(h, w);
	h->n++;
}

static void hash_str(struct key_hash *h, const char *s)
{
	hash_add(h, s, strlen(s));
}

/*
 * The key: what the kernel was given, or would be. The object's ELF as built into this binary, its .rodata as the
 * user side filled it, which programs load, each map's shape (the ring's size is set at run time), the BTF that
 * CO-RE relocated against, libbpf's version (it relocates) and the kernel's; and KF_BPF_CACHE's name, if any.
 */
static void make_key(struct bpf_session *s, const char *btf_what, const void *btf, size_t btf_len, char *out)
{
	struct key_hash h = {0x6b66726563ull, 0x6361636865ull, 0};
	const char *tag = getenv("KF_BPF_CACHE");
	struct bpf_object *obj = s->skel->obj;
	struct bpf_program *p;
	struct bpf_map *m;
	struct utsname u;
	const void *v;
	size_t sz;

	/* The protocol between runs (what is reset, the generation, the claims, the mark): a new one, a new number. */
	hash_str(&h, "kfootprint bpf cache 2");
	/* KF_BPF_CACHE=NAME: a cache of NAME's own, which runs with another value (or none) never take or hold (a
	 * test counting its cache's links or taking its lock shares the machine with other runs of this build). */
	if (tag && *tag && strcmp(tag, "1")) {
		hash_str(&h, "tag");
		hash_str(&h, tag);
	}
	v = kfrec_bpf__elf_bytes(&sz);
	hash_add(&h, v, sz);
	v = bpf_map__initial_value(s->skel->maps.rodata, &sz);
	hash_add(&h, v, v ? sz : 0);
	bpf_object__for_each_program(p, obj)
	{
		hash_str(&h, bpf_program__name(p));
		hash_word(&h, bpf_program__autoload(p));
	}
	bpf_object__for_each_map(m, obj)
	{
		uint32_t shape[5] = {bpf_map__type(m), bpf_map__key_size(m), bpf_map__value_size(m),
				     bpf_map__max_entries(m), bpf_map__map_flags(m)};

		hash_str(&h, bpf_map__name(m));
		hash_add(&h, shape, sizeof(shape));
	}
	hash_str(&h, btf_what);
	hash_add(&h, btf, btf ? btf_len : 0);
	hash_word(&h, (uint64_t)libbpf_major_version() << 32 | libbpf_minor_version());
	if (!uname(&u)) {
		hash_str(&h, u.release);
		hash_str(&h, u.version);
	}
	snprintf(out, KEY_HEX + 1, "%016llx%016llx", (unsigned long long)fmix(h.a ^ h.n),
		 (unsigned long long)fmix(h.b + h.a));
}

/* A directory of root's that no one else can change: neither its entries nor, through a link, which it is. */
static int private_dir(int at, const char *name, bool make, char *why, size_t len)
{
	struct stat st;
	int fd;

	if (make && mkdirat(at, name, 0700) < 0 && errno != EEXIST) {
		snprintf(why, len, "'%s': %s", name, strerror(errno));
		return -1;
	}
	fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "'%s': %s", name, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || st.st_uid != 0 || (st.st_mode & 077)) {
		snprintf(why, len, "'%s' is not a private directory of root's", name);
		close(fd);
		return -1;
	}
	return fd;
}

/* A path to name in the directory open as fd, for the calls that take a path: no lookup outside of it. */
static const char *in_dir(char *buf, size_t len, int fd, const char *prefix, const char *name)
{
	size_t n = (size_t)snprintf(buf, len, "/proc/self/fd/%d/%s", fd, prefix);

	/* bpffs refuses names with a dot (.rodata, .bss): those become '_' */
	for (; *name && n + 1 < len; name++)
		buf[n++] = *name == '.' ? '_' : *name;
	buf[n] = '\0';
	return buf;
}

/* Unpins everything in the cache of key, and its directory. */
static void drop_dir(int root_fd, const char *key)
{
	int fd = openat(root_fd, key, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct dirent *de;
	DIR *d;

	if (fd < 0)
		return;
	d = fdopendir(fd);
	if (!d) {
		close(fd);
		return;
	}
	while ((de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, ".."))
			unlinkat(fd, de->d_name, 0);
	closedir(d);
	if (unlinkat(root_fd, key, AT_REMOVEDIR) < 0 && errno != ENOENT)
		debug("backend bpf: removing the cache '%s': %s", key, strerror(errno));
}

/* The lock file of key in LOCK_DIR, root's and nobody else's, flock'ed without waiting; -1 and why. */
static int take_lock(int lock_dir, const char *key, char *why, size_t len)
{
	char name[KEY_HEX + 8];
	struct stat st;
	int fd;

	snprintf(name, sizeof(name), "%s.lock", key);
	fd = openat(lock_dir, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		snprintf(why, len, "'" LOCK_DIR "/%s': %s", name, strerror(errno));
		return -1;
	}
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 || st.st_nlink != 1) {
		snprintf(why, len, "'" LOCK_DIR "/%s' is not a file of root's", name);
		close(fd);
		return -1;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
		snprintf(why, len, errno == EWOULDBLOCK ? "another run holds it" : "'" LOCK_DIR "/%s': %s", name,
			 strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

/*
 * The clean mark of the cache of key: "clean DEV INO" of its directory, so that it stands for that directory
 * only. The lock is in /run, and a run in a mount namespace of its own (its own bpffs, docs/bpf.md#the-cache)
 * shares it: its mark must not vouch for the directory of the same key in another bpffs, left by a run that died.
 */
static size_t clean_mark(int root_fd, const char *key, char *buf, size_t len)
{
	struct stat st;

	if (fstatat(root_fd, key, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return 0;
	return (size_t)snprintf(buf, len, "clean %llx %llx\n", (unsigned long long)st.st_dev,
				(unsigned long long)st.st_ino);
}

/* Whether the run that held the cache last ended in order (and so left it whole and its claims removed). */
static bool marked_clean(int lock_fd, int root_fd, const char *key)
{
	char buf[64], want[64];
	size_t len = clean_mark(root_fd, key, want, sizeof(want));
	ssize_t n = pread(lock_fd, buf, sizeof(buf), 0);

	return len && n == (ssize_t)len && !memcmp(buf, want, len);
}

/*
 * A cache other than this run's, and when a run last took it (its lock file's mtime: emptied at the start of a run,
 * marked at its end); 0 for a cache without a lock file.
 */
struct cache_age {
	char key[KEY_HEX + 1];
	struct timespec used;
};

static int cmp_age(const void *a, const void *b)
{
	const struct timespec *x = &((const struct cache_age *)a)->used, *y = &((const struct cache_age *)b)->used;

	return x->tv_sec != y->tv_sec ? (x->tv_sec > y->tv_sec) - (x->tv_sec < y->tv_sec)
				      : (x->tv_nsec > y->tv_nsec) - (x->tv_nsec < y->tv_nsec);
}

/*
 * Keeps the number of caches bounded: when there are CACHES_KEPT others, those no run holds are dropped, the least
 * lately used first (a key seen once, an old binary's, other options'), so a key in use stays.
 */
static void prune(struct bpf_cache *c, int lock_dir)
{
	struct cache_age *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int fd = dup(c->root_fd);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;

	if (!d) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d))) {
		char name[KEY_HEX + 8];
		struct stat st;

		if (de->d_name[0] == '.' || !strcmp(de->d_name, c->key) || strlen(de->d_name) != KEY_HEX)
			continue;
		XGROW(v, cap, n + 1);
		memcpy(v[n].key, de->d_name, KEY_HEX + 1);
		snprintf(name, sizeof(name), "%s.lock", v[n].key);
		memset(&v[n].used, 0, sizeof(v[n].used));
		if (!fstatat(lock_dir, name, &st, AT_SYMLINK_NOFOLLOW))
			v[n].used = st.st_mtim;
		n++;
	}
	closedir(d);
	if (n)
		qsort(v, n, sizeof(*v), cmp_age);
	for (size_t i = 0; i < n && n - i >= CACHES_KEPT; i++) {
		char why[16];
		int lk = take_lock(lock_dir, v[i].key, why, sizeof(why));

		if (lk < 0)
			continue;
		if (ftruncate(lk, 0) == 0)
			drop_dir(c->root_fd, v[i].key);
		close(lk);
	}
	free(v);
}

/* Whether this run could use a cache at all; why not, if not. */
static bool cache_wanted(struct bpf_session *s, char *why, size_t len)
{
	const char *env = getenv("KF_BPF_CACHE"), *split = getenv("KF_BPF_SPLIT");
	struct bpf_program *p;

	if (env && !strcmp(env, "0"))
		snprintf(why, len, "KF_BPF_CACHE=0");
	else if (split && !strcmp(split, "1"))
		snprintf(why, len, "KF_BPF_SPLIT=1 loads the programs in parts");
	else if (kf_verbose >= 2)
		snprintf(why, len, "-vv: the verifier's statistics need a load");
	else if (geteuid() != 0)
		snprintf(why, len, "not root: the cache and its lock are root's");
	else
		why[0] = '\0';
	if (why[0])
		return false;
	bpf_object__for_each_program(p, s->skel->obj)
	{
		if (!bpf_program__autoload(p))
			continue;
		/* Attached by fd here: raw tracepoints only (kf_misc is a kprobe, loaded where binfmt_misc can run). */
		if (strncmp(bpf_program__section_name(p), "raw_tp/", 7)) {
			snprintf(why, len, "program %s is not a raw tracepoint's", bpf_program__name(p));
			return false;
		}
	}
	return true;
}

static void close_progs(struct bpf_cache *c)
{
	for (size_t i = 0; i < c->nprogs; i++) {
		if (c->prog[i].link >= 0)
			close(c->prog[i].link);
		if (c->prog[i].fd >= 0)
			close(c->prog[i].fd);
		c->prog[i].link = c->prog[i].fd = -1;
	}
}

/* The programs to load, in the object's order: their names and tracepoints. false when there are too many. */
static bool list_progs(struct bpf_session *s, struct bpf_cache *c)
{
	struct bpf_program *p;

	bpf_object__for_each_program(p, s->skel->obj)
	{
		if (!bpf_program__autoload(p))
			continue;
		if (c->nprogs == PROGS_MAX)
			return false;
		c->prog[c->nprogs++] = (struct cached_prog){
		    .name = bpf_program__name(p), .tp = bpf_program__section_name(p) + 7, .fd = -1, .link = -1};
	}
	return true;
}

/* Takes the cached programs (checked to be those, by type and name), with their statistics so far. */
static int get_progs(struct bpf_cache *c, int dir, char *why, size_t len)
{
	char path[PATH_MAX];

	for (size_t i = 0; i < c->nprogs; i++) {
		struct cached_prog *cp = &c->prog[i];
		__u32 ilen = sizeof(cp->base);

		cp->fd = bpf_obj_get(in_dir(path, sizeof(path), dir, "p_", cp->name));
		if (cp->fd < 0) {
			snprintf(why, len, "program %s: %s", cp->name, strerror(errno));
			return -1;
		}
		memset(&cp->base, 0, sizeof(cp->base));
		if (bpf_obj_get_info_by_fd(cp->fd, &cp->base, &ilen) < 0 ||
		    cp->base.type != BPF_PROG_TYPE_RAW_TRACEPOINT ||
		    strncmp(cp->base.name, cp->name, sizeof(cp->base.name) - 1)) {
			snprintf(why, len, "program %s: not the one pinned", cp->name);
			return -1;
		}
	}
	return 0;
}

/* Takes the cached maps, checked to have this object's shapes; fds[] in the object's order. */
static int get_maps(struct bpf_session *s, int dir, int *fds, char *why, size_t len)
{
	char path[PATH_MAX];
	struct bpf_map *m;
	int i = 0;

	bpf_object__for_each_map(m, s->skel->obj)
	{
		struct bpf_map_info info = {};
		__u32 ilen = sizeof(info);
		int fd = bpf_obj_get(in_dir(path, sizeof(path), dir, "m_", bpf_map__name(m)));

		fds[i++] = fd;
		if (fd < 0) {
			snprintf(why, len, "map %s: %s", bpf_map__name(m), strerror(errno));
			return -1;
		}
		if (bpf_obj_get_info_by_fd(fd, &info, &ilen) < 0 || info.type != bpf_map__type(m) ||
		    info.key_size != bpf_map__key_size(m) || info.value_size != bpf_map__value_size(m) ||
		    info.max_entries != bpf_map__max_entries(m) || info.map_flags != bpf_map__map_flags(m)) {
			snprintf(why, len, "map %s: not of this object's shape", bpf_map__name(m));
			return -1;
		}
	}
	return 0;
}

/*
 * Every entry of a hash deleted: the keys walked first, then deleted (deleting while walking would restart the
 * walk at the first bucket each time, quadratic in a large map), until a walk finds none.
 */
static int empty_hash(int fd, size_t key_size)
{
	unsigned char *keys = NULL;
	size_t n, cap = 0;
	int rc = 0;

	if (!key_size || key_size > MAP_KEY_MAX)
		return -1;
	do {
		n = 0;
		for (;;) {
			XGROW(keys, cap, (n + 1) * key_size);
			if (bpf_map_get_next_key(fd, n ? keys + (n - 1) * key_size : NULL, keys + n * key_size) < 0)
				break;
			n++;
		}
		if (errno != ENOENT)
			rc = -1;
		for (size_t i = 0; i < n && !rc; i++)
			if (bpf_map_delete_elem(fd, keys + i * key_size) < 0 && errno != ENOENT)
				rc = -1;
	} while (n && !rc);
	free(keys);
	return rc;
}

/* An array's entries zeroed (a per-CPU array's on every CPU). */
static int zero_array(int fd, const struct bpf_map *m, bool per_cpu)
{
	size_t n = bpf_map__max_entries(m), vsz = (bpf_map__value_size(m) + 7) & ~(size_t)7;
	int cpus = per_cpu ? libbpf_num_possible_cpus() : 1;
	void *zero;
	int rc = 0;

	if (n > ARRAY_ZEROED || cpus <= 0)
		return -1;
	zero = xcalloc((size_t)cpus, vsz);
	for (__u32 k = 0; k < n && !rc; k++)
		rc = bpf_map_update_elem(fd, &k, zero, BPF_ANY);
	free(zero);
	return rc;
}

/* What an earlier run left in the ring, not read: discarded (consumer = producer), nothing being written. */
static int empty_ring(int fd)
{
	long page = sysconf(_SC_PAGESIZE);
	unsigned long *cons = mmap(NULL, (size_t)page, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	unsigned long *prod = mmap(NULL, (size_t)page, PROT_READ, MAP_SHARED, fd, page);
	int rc = cons != MAP_FAILED && prod != MAP_FAILED ? 0 : -1;

	if (!rc)
		__atomic_store_n(cons, __atomic_load_n(prod, __ATOMIC_ACQUIRE), __ATOMIC_RELEASE);
	if (cons != MAP_FAILED)
		munmap(cons, (size_t)page);
	if (prod != MAP_FAILED)
		munmap(prod, (size_t)page);
	return rc;
}

/*
 * Every piece of state the maps keep, made as a fresh load has it (docs/bpf.md#the-cache): hashes emptied, arrays
 * zeroed, the ring emptied, .bss zeroed but for a new run generation, which makes the task storage of tasks that
 * outlived earlier runs count as none; `claims` holds nothing of a live task (bpf_release_claims() at the end
 * of each run). A map of another kind, or that cannot be reset: -1, no cache.
 */
static int reset_maps(struct bpf_session *s, char *why, size_t len)
{
	struct kfrec_bpf *sk = s->skel;
	struct bpf_map *m;

	bpf_object__for_each_map(m, sk->obj)
	{
		int fd = bpf_map__fd(m), rc = 0;

		if (m == sk->maps.rodata)
			continue; /* frozen, and in the key */
		if (m == sk->maps.bss) {
			uint32_t gen = sk->bss->run_gen + 1;

			memset(sk->bss, 0, sizeof(*sk->bss));
			s->run_gen = sk->bss->run_gen = gen ? gen : 1;
			continue;
		}
		switch (bpf_map__type(m)) {
		case BPF_MAP_TYPE_HASH:
		case BPF_MAP_TYPE_PERCPU_HASH:
		case BPF_MAP_TYPE_LRU_HASH:
		case BPF_MAP_TYPE_LRU_PERCPU_HASH: rc = empty_hash(fd, bpf_map__key_size(m)); break;
		case BPF_MAP_TYPE_ARRAY:
		case BPF_MAP_TYPE_PERCPU_ARRAY:
			rc = zero_array(fd, m, bpf_map__type(m) == BPF_MAP_TYPE_PERCPU_ARRAY);
			break;
		case BPF_MAP_TYPE_RINGBUF: rc = empty_ring(fd); break;
		case BPF_MAP_TYPE_TASK_STORAGE: rc = m == sk->maps.tasks || m == sk->maps.claims ? 0 : -1; break;
		default: rc = -1;
		}
		if (rc) {
			snprintf(why, len, "map %s could not be reset", bpf_map__name(m));
			return -1;
		}
	}
	return 0;
}

/* The skeleton given the cached maps, its .bss mapped onto the kernel's as libbpf's load does. */
static int reuse_maps(struct bpf_session *s, int *fds, char *why, size_t len)
{
	struct bpf_map *bss = s->skel->maps.bss;
	size_t page = (size_t)sysconf(_SC_PAGESIZE), sz = ((size_t)bpf_map__value_size(bss) + page - 1) & ~(page - 1);
	struct bpf_map *m;
	int i = 0;

	bpf_object__for_each_map(m, s->skel->obj)
	{
		if (bpf_map__reuse_fd(m, fds[i++]) < 0) {
			snprintf(why, len, "map %s: %s", bpf_map__name(m), strerror(errno));
			return -1;
		}
	}
	if (mmap(s->skel->bss, sz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED, bpf_map__fd(bss), 0) == MAP_FAILED) {
		snprintf(why, len, "mapping .bss: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/*
 * Takes what the cache of c->key holds: 1 when the skeleton runs on it, 0 when nothing of the skeleton was
 * touched (load afresh), -1 when the skeleton was given some of it (open it again).
 */
static int take_cache(struct bpf_session *s, struct bpf_cache *c, char *why, size_t len)
{
	int nmaps = 0, *fds, dir, rc = 0;
	struct bpf_map *m;

	bpf_object__for_each_map(m, s->skel->obj) nmaps++;
	dir = openat(c->root_fd, c->key, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0) {
		snprintf(why, len, "none yet for this key");
		return 0;
	}
	fds = xcalloc((size_t)nmaps, sizeof(*fds));
	for (int i = 0; i < nmaps; i++)
		fds[i] = -1;
	if (get_progs(c, dir, why, len) || get_maps(s, dir, fds, why, len))
		rc = 0;
	else if (reuse_maps(s, fds, why, len) || reset_maps(s, why, len))
		rc = -1;
	else
		rc = 1;
	for (int i = 0; i < nmaps; i++)
		if (fds[i] >= 0)
			close(fds[i]); /* the skeleton has its own copies */
	free(fds);
	close(dir);
	if (rc != 1)
		close_progs(c);
	return rc;
}

int bpf_cache_open(struct bpf_session *s, const char *btf_what, const void *btf, size_t btf_len)
{
	struct bpf_cache *c;
	char why[PATH_MAX + 64];
	int lock_dir, rc;

	if (!cache_wanted(s, why, sizeof(why))) {
		debug("backend bpf: no program cache: %s", why);
		return 0;
	}
	c = xcalloc(1, sizeof(*c));
	c->lock_fd = c->root_fd = -1;
	make_key(s, btf_what, btf, btf_len, c->key);
	if (!list_progs(s, c)) {
		debug("backend bpf: no program cache: more than %d programs", PROGS_MAX);
		free(c);
		return 0;
	}
	lock_dir = private_dir(AT_FDCWD, LOCK_DIR, true, why, sizeof(why));
	if (lock_dir >= 0 && bpffs_ready(lock_dir, BPFFS, why, sizeof(why)) < 0) {
		close(lock_dir);
		lock_dir = -1;
	}
	c->root_fd = lock_dir < 0 ? -1 : private_dir(AT_FDCWD, CACHE_ROOT, true, why, sizeof(why));
	c->lock_fd = c->root_fd < 0 ? -1 : take_lock(lock_dir, c->key, why, sizeof(why));
	if (c->lock_fd < 0) {
		debug("backend bpf: no program cache %s: %s: loading privately", c->key, why);
		if (lock_dir >= 0)
			close(lock_dir);
		if (c->root_fd >= 0)
			close(c->root_fd);
		free(c);
		return 0;
	}
	s->cache = c;
	/* From here until an orderly end marks it again, the cache counts as left by a run that died. */
	if (faccessat(c->root_fd, c->key, F_OK, AT_SYMLINK_NOFOLLOW) < 0) {
		snprintf(why, sizeof(why), "none yet for this key");
		rc = 0;
	} else if (!marked_clean(c->lock_fd, c->root_fd, c->key)) {
		snprintf(why, sizeof(why), "not left clean by the run that held it last: dropped");
		rc = 0;
	} else if (ftruncate(c->lock_fd, 0) < 0) {
		snprintf(why, sizeof(why), "marking it in use: %s", strerror(errno));
		rc = -1;
	} else {
		rc = take_cache(s, c, why, sizeof(why));
	}
	if (rc == 1) {
		c->loaded = true;
		close(lock_dir);
		debug("backend bpf: programs from the cache " CACHE_ROOT "/%s (generation %u): no load", c->key,
		      s->run_gen);
		return 1;
	}
	/* Whatever of it there was is not to be trusted: loaded afresh (and pinned at the end, when it can be). */
	drop_dir(c->root_fd, c->key);
	if (rc < 0) {
		debug("backend bpf: program cache %s: %s: dropped, loading privately", c->key, why);
		close(lock_dir);
		bpf_cache_close(s, false);
		return -1;
	}
	prune(c, lock_dir);
	close(lock_dir);
	c->build = true;
	debug("backend bpf: program cache %s: %s: loading, pinned there at the end", c->key, why);
	return 0;
}

bool bpf_cache_loaded(const struct bpf_session *s)
{
	return s->cache && s->cache->loaded;
}

bool bpf_cache_held(const struct bpf_session *s)
{
	return s->cache != NULL;
}

int bpf_cache_attach(struct bpf_session *s)
{
	struct bpf_cache *c = s->cache;

	for (size_t i = 0; i < c->nprogs; i++) {
		c->prog[i].link = bpf_raw_tracepoint_open(c->prog[i].tp, c->prog[i].fd);
		if (c->prog[i].link < 0) {
			c->prog[i].link = -1;
			return -errno;
		}
	}
	return 0;
}

int bpf_cache_prog_fd(const struct bpf_session *s, const char *name, const struct bpf_prog_info **base)
{
	if (!bpf_cache_loaded(s))
		return -1;
	for (size_t i = 0; i < s->cache->nprogs; i++)
		if (!strcmp(s->cache->prog[i].name, name)) {
			if (base)
				*base = &s->cache->prog[i].base;
			return s->cache->prog[i].fd;
		}
	return -1;
}

void bpf_cache_detach(struct bpf_session *s, const char *prefix)
{
	struct bpf_cache *c = s->cache;

	if (!bpf_cache_held(s))
		return;
	for (size_t i = 0; i < c->nprogs; i++)
		if (c->prog[i].link >= 0 && (!prefix || !strncmp(c->prog[i].name, prefix, strlen(prefix)))) {
			close(c->prog[i].link);
			c->prog[i].link = -1;
		}
}

/* A fresh load's programs and maps pinned under the key; 0, or -1 with nothing left pinned. */
static int pin(struct bpf_session *s, struct bpf_cache *c)
{
	char why[PATH_MAX + 64], path[PATH_MAX];
	struct bpf_map *m;
	int dir = private_dir(c->root_fd, c->key, true, why, sizeof(why)), rc = 0;
	uint64_t t = fp__now_ns();

	if (dir < 0) {
		debug("backend bpf: program cache: %s", why);
		return -1;
	}
	for (size_t i = 0; i < c->nprogs && !rc; i++) {
		int fd = bpf_prog_fd(s, c->prog[i].name);

		rc = fd < 0 ? -1 : bpf_obj_pin(fd, in_dir(path, sizeof(path), dir, "p_", c->prog[i].name));
	}
	bpf_object__for_each_map(m, s->skel->obj)
	{
		if (!rc)
			rc = bpf_obj_pin(bpf_map__fd(m), in_dir(path, sizeof(path), dir, "m_", bpf_map__name(m)));
	}
	close(dir);
	if (rc) {
		debug("backend bpf: pinning the programs into the cache: %s", strerror(errno));
		drop_dir(c->root_fd, c->key);
	} else {
		debug("backend bpf: programs and maps pinned into the cache in %.2f ms",
		      (double)(fp__now_ns() - t) / 1e6);
	}
	return rc;
}

void bpf_cache_close(struct bpf_session *s, bool ok)
{
	struct bpf_cache *c = s->cache;

	if (!bpf_cache_held(s))
		return;
	bpf_cache_detach(s, NULL);
	if (ok && c->build && pin(s, c))
		ok = false;
	if (ok && (c->build || c->loaded)) {
		char mark[64];
		size_t len = clean_mark(c->root_fd, c->key, mark, sizeof(mark));

		if (!len || pwrite(c->lock_fd, mark, len, 0) != (ssize_t)len)
			debug("backend bpf: marking the program cache clean: %s", strerror(errno));
	}
	close_progs(c);
	if (c->root_fd >= 0)
		close(c->root_fd);
	close(c->lock_fd); /* and the lock with it */
	free(c);
	s->cache = NULL;
}
