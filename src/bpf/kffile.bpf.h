/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kind of the file behind an fd of the current task (included by kfreach.bpf.h): its mode, device,
 * filesystem type, and for sockets, anonymous inodes and memfds what tells them apart. It runs on every
 * fd-taking call of the workload, so it reads as little as it can, in one of two ways chosen at load time:
 *
 * - file_kind(): helper calls, bpf_probe_read_kernel() of the fd table's slot and of the heads of the file,
 *   inode and superblock (4 calls, ~25 ns each). Any kernel with BTF.
 * - file_kind_cast(): plain loads, which the verifier makes fault-safe (PROBE_MEM), through pointers that
 *   bpf_rdonly_cast() typed (Linux >= 6.2): ~10 ns for all of it. Only in the kf_sys_exit_cast program,
 *   which only the build kernel loads (see KF_RDONLY_CAST below).
 */
#include "kfids.h"

#define KF_S_IFMT	0170000
#define KF_S_IFSOCK	0140000
#define KF_S_IFCHR	0020000
#define KF_S_IFBLK	0060000
#define KF_S_IFREG	0100000
#define KF_SB_KERNMOUNT (1ul << 22) /* include/linux/fs.h: the superblock of a kern_mount() */

static __always_inline bool str8_eq(const char *s, __u64 want)
{
	__u64 v;

	__builtin_memcpy(&v, s, sizeof(v));
	return v == want;
}

/* The first 8 bytes of "anon_inodefs", "sockfs", "tmpfs", "hugetlbfs", "memfd:" (NUL-padded), little-endian */
#define W_ANON_INO 0x6f6e695f6e6f6e61ull
#define W_SOCKFS   0x000073666b636f73ull
#define W_TMPFS	   0x0000007366706d74ull
#define W_HUGETLBF 0x66626c7465677568ull
#define W_MEMFD	   0x00003a64666d656dull

/*
 * The file at fd in the current task, 0 when none. Loads through the task's BTF pointer, not helper calls; the
 * array element needs one. A global function: the verifier checks a pointer loaded from a trusted one (task->files)
 * by searching the kernel's BTF for the names of the types that could make it trusted, 4 linear searches of
 * ~1 ms together at each place the load is verified (`perf record` of the start-up: 12% of its CPU).
 */
__noinline __u64 fd_file(int fd)
{
	struct fdtable *fdt = bpf_get_current_task_btf()->files->fdt;
	__u64 file = 0;

	if (fd < 0 || (__u32)fd >= fdt->max_fds)
		return 0;
	bpf_probe_read_kernel(&file, sizeof(file), (struct file **)fdt->fd + fd);
	return file;
}

/*
 * The rest of the kind, once the mode (and rdev) are in f: what only some modes need, read with helpers, as
 * those calls are few (sockets, anonymous inodes, files on a mount attached nowhere such as a memfd).
 */
static __always_inline int kind_rest(struct kf_reach_file *f, __u64 fst, unsigned long sflags, __u64 priv, __u64 dentry)
{
	struct file_system_type *t = (void *)fst;
	char fs[8] = {};
	const char *name;
	__u64 w;

	f->fstype = fst;
	if (f->mode != KF_S_IFCHR && f->mode != KF_S_IFBLK)
		f->rdev = 0;
	if (f->mode == KF_S_IFREG) {
		/*
		 * memfd_create's files (and anonymous inodes made regular) live on the kernel's internal mounts, the
		 * only ones whose superblock kern_mount() made: what ptrace tells by the internal shmem mount's device.
		 */
		if (!(sflags & KF_SB_KERNMOUNT))
			return 1;
	} else if (f->mode != KF_S_IFSOCK && f->mode) {
		return 1;
	}
	/* 8 bytes of the type's name as they are: the NUL of a shorter name is compared, what follows masked off */
	bpf_probe_read_kernel(fs, sizeof(fs), BPF_CORE_READ(t, name));
	__builtin_memcpy(&w, fs, sizeof(w));
	if (f->mode == KF_S_IFSOCK) {
		/* a socket's file: private_data is its struct socket (an O_PATH fd of a socket file is not) */
		struct sock *sk;

		if ((w & 0x00ffffffffffffffull) != W_SOCKFS)
			return 1;
		sk = BPF_CORE_READ((struct socket *)priv, sk);
		f->family = BPF_CORE_READ(sk, __sk_common.skc_family);
		f->type = BPF_CORE_READ(sk, sk_type);
		f->protocol = BPF_CORE_READ(sk, sk_protocol);
		return 1;
	}
	name = (const char *)BPF_CORE_READ((struct dentry *)dentry, d_name.name);
	if (w == W_ANON_INO) {
		bpf_probe_read_kernel_str(f->name, sizeof(f->name), name);
	} else if (f->mode == KF_S_IFREG && ((w & 0xffffffffffffull) == W_TMPFS || w == W_HUGETLBF)) {
		char pre[8] = {};

		bpf_probe_read_kernel(pre, 6, name);
		if (str8_eq(pre, W_MEMFD))
			__builtin_memcpy(f->name, pre, sizeof(pre));
	}
	return 1;
}

/* A field at a CO-RE offset in a block read at once; the verifier sees the offset as the constant it is. */
#define HEAD(buf, type, off) (*(type *)((buf) + ((off) & (sizeof(buf) - sizeof(type)))))
#define FITS(buf, type, off) ((off) + sizeof(type) <= sizeof(buf) && !((off) & (sizeof(type) - 1)))

/*
 * The kind of the file at fd in the current task, into f; 0 when no file is there (f left zeroed). Helper
 * reads of blocks rather than fields: the struct file's head (its inode, private data, path), the inode's head
 * (mode, superblock, device), the superblock's head (type, flags).
 */
__noinline int file_kind(int fd, struct kf_reach_file *f)
{
	struct file *file = (struct file *)fd_file(fd);
	struct inode *ino;
	struct super_block *sb;
	struct file_system_type *fst;
	struct dentry *dentry;
	unsigned long sflags;
	void *priv;
	__u8 fh[128], ih[128];
	__u32 o_ino = bpf_core_field_offset(struct file, f_inode),
	      o_priv = bpf_core_field_offset(struct file, private_data),
	      o_dentry = bpf_core_field_offset(struct file, f_path.dentry),
	      o_mode = bpf_core_field_offset(struct inode, i_mode), o_sb = bpf_core_field_offset(struct inode, i_sb),
	      o_rdev = bpf_core_field_offset(struct inode, i_rdev),
	      o_type = bpf_core_field_offset(struct super_block, s_type),
	      o_flags = bpf_core_field_offset(struct super_block, s_flags);

	if (!f || !file)
		return 0;
	if (FITS(fh, void *, o_ino) && FITS(fh, void *, o_priv) && FITS(fh, void *, o_dentry)) {
		if (bpf_probe_read_kernel(fh, sizeof(fh), file))
			return 0;
		ino = HEAD(fh, struct inode *, o_ino);
		priv = HEAD(fh, void *, o_priv);
		dentry = HEAD(fh, struct dentry *, o_dentry);
	} else {
		ino = BPF_CORE_READ(file, f_inode);
		priv = BPF_CORE_READ(file, private_data);
		dentry = BPF_CORE_READ(file, f_path.dentry);
	}
	if (FITS(ih, __u16, o_mode) && FITS(ih, void *, o_sb) && FITS(ih, __u32, o_rdev)) {
		if (bpf_probe_read_kernel(ih, sizeof(ih), ino))
			return 0;
		f->mode = HEAD(ih, __u16, o_mode) & KF_S_IFMT;
		sb = HEAD(ih, struct super_block *, o_sb);
		f->rdev = HEAD(ih, __u32, o_rdev);
	} else {
		f->mode = BPF_CORE_READ(ino, i_mode) & KF_S_IFMT;
		sb = BPF_CORE_READ(ino, i_sb);
		f->rdev = BPF_CORE_READ(ino, i_rdev);
	}
	/* the superblock's head, into the inode's buffer (the stack has no room for a third) */
	if (FITS(ih, void *, o_type) && FITS(ih, unsigned long, o_flags)) {
		if (bpf_probe_read_kernel(ih, sizeof(ih), sb))
			return 0;
		fst = HEAD(ih, struct file_system_type *, o_type);
		sflags = HEAD(ih, unsigned long, o_flags);
	} else {
		fst = BPF_CORE_READ(sb, s_type);
		sflags = BPF_CORE_READ(sb, s_flags);
	}
	return kind_rest(f, (__u64)fst, sflags, (__u64)priv, (__u64)dentry);
}

#if KF_ID_RDONLY_CAST
/*
 * bpf_rdonly_cast(p, id): p as a read-only, untrusted pointer to the kernel type id, whose fields are then plain
 * loads (the verifier turns the call itself into a move). Written as its instruction (BPF_CALL with src_reg
 * BPF_PSEUDO_KFUNC_CALL and the build kernel's BTF ids from kfids.h): named in C, the kfunc would make libbpf
 * parse the whole kernel BTF to find its id (27-30 ms here, more than all of start-up). The ids hold only on
 * the build kernel, so the loader loads the program that reaches this (kf_sys_exit_cast) only where the notes
 * of the kernel equal the build's (src/trace/bpf.c, min_btf_fd()), and the plain one everywhere else.
 */
#define KF_KFUNC_INSN(id) (0x2085ull | (__u64)(id) << 32)

static __always_inline void *rdonly_cast(__u64 p, __u32 id)
{
	void *r;

	asm volatile("r1 = %[p]\n\t"
		     "r2 = %[id]\n\t"
		     ".quad %[insn]\n\t"
		     "%[r] = r0"
		     : [r] "=r"(r)
		     : [p] "r"(p), [id] "i"(id), [insn] "i"(KF_KFUNC_INSN(KF_ID_RDONLY_CAST))
		     : "r0", "r1", "r2", "r3", "r4", "r5");
	return r;
}

/*
 * file_kind() in plain loads. The fd table's slot is a pointer to a pointer, which the verifier only knows as
 * a number: it is read as the first field of a struct whose first field is a struct file * (struct kiocb's
 * ki_filp; checked below on the build kernel's types), which gives a typed file pointer in one load.
 */
_Static_assert(__builtin_offsetof(struct kiocb, ki_filp) == 0, "struct kiocb starts with its file");

/*
 * The current task's fd table through an untrusted pointer: a load from the trusted bpf_get_current_task_btf()
 * makes the verifier search the kernel's BTF for the names that could keep it trusted (fd_file() above), ~1 ms at
 * each place; loads from an untrusted one are checked without a search.
 */
static __always_inline struct fdtable *cur_fdt_cast(void)
{
	return ((struct task_struct *)rdonly_cast(bpf_get_current_task(), KF_ID_TASK_STRUCT))->files->fdt;
}

/* fd_file() for the program that has plain loads; inline, as a global function cannot return a pointer. */
static __always_inline __u64 fd_file_cast(int fd)
{
	struct fdtable *fdt = cur_fdt_cast();
	struct kiocb *slot;

	if (fd < 0 || (__u32)fd >= fdt->max_fds)
		return 0;
	slot = rdonly_cast((__u64)fdt->fd + (__u64)(__u32)fd * sizeof(void *), KF_ID_KIOCB);
	return (__u64)slot->ki_filp;
}

__noinline int file_kind_cast(int fd, struct kf_reach_file *f)
{
	struct fdtable *fdt = cur_fdt_cast();
	struct kiocb *slot;
	struct file *file;
	struct inode *ino;
	struct super_block *sb;

	if (!f || fd < 0 || (__u32)fd >= fdt->max_fds)
		return 0;
	slot = rdonly_cast((__u64)fdt->fd + (__u64)(__u32)fd * sizeof(void *), KF_ID_KIOCB);
	file = slot->ki_filp;
	if (!file)
		return 0;
	ino = file->f_inode;
	sb = ino->i_sb;
	f->mode = ino->i_mode & KF_S_IFMT;
	f->rdev = ino->i_rdev;
	return kind_rest(f, (__u64)sb->s_type, sb->s_flags, (__u64)file->private_data, (__u64)file->f_path.dentry);
}

#define FILE_KIND(cast, fd, f) ((cast) ? file_kind_cast(fd, f) : file_kind(fd, f))
#define FD_FILE(cast, fd)      ((cast) ? fd_file_cast(fd) : fd_file(fd))
#else
#define FILE_KIND(cast, fd, f) file_kind(fd, f)
#define FD_FILE(cast, fd)      fd_file(fd)
#endif
