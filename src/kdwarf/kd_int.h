/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KF_KDWARF_KD_INT_H
#define KF_KDWARF_KD_INT_H

/* Private to kdwarf/: the open file, for the readers beside kdwarf.c (klines.c). */
#include <elfutils/libdw.h>
#include <gelf.h>

struct kd_file {
	int fd;
	Elf *elf;
	Dwarf *dw;
	char err[256];
};

#endif
