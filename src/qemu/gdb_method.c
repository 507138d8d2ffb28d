// SPDX-License-Identifier: GPL-2.0
/* The gdb-stub method: QEMU's gdb stub driven by the built-in remote-protocol client (gdb_remote.c). */
#include "qemu/qemu_int.h"
#include "util/error.h"

int kfq_run_gdb(const struct kfq_opts *o, struct footprint *fp, enum kf_abi abi)
{
	return error("qemu: --method gdb: not built yet");
}
