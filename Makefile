# kfootprint — one top-level Makefile, out-of-tree objects in build/.
# `make` builds, `make run` traces the default workload, `make check` runs every test,
# `make bench` prints the overhead tables. `make deps` installs the Debian packages below when missing.

# The one install list: everything a build, a test or a benchmark needs on a fresh Debian 12 machine.
APT_BUILD := gcc make pkg-config zlib1g-dev libbpf-dev bpftool clang llvm libelf-dev libdw-dev liblzma-dev \
             libbz2-dev
APT_TEST  := libcmocka-dev libjson-c-dev lcov iproute2 gcc-multilib clang-format cppcheck git strace coreutils findutils python3 python3-docutils libclang-rt-14-dev \
             stress-ng paxtest linux-perf util-linux procps tar chromium curl \
             runc busybox-static python3-jsonschema golang-github-opencontainers-specs-dev cloc \
             qemu-system-x86 trace-cmd kmod gdb systemd e2fsprogs curl
APT_MAP   := linux-source-6.1 linux-config-6.1 cscope xz-utils bc flex bison cpio
APT_ALL   := $(APT_BUILD) $(APT_TEST) $(APT_MAP)
# Only for make check-long and make bench-boot (deps-long): arm64 guests under TCG. The aarch64 /init is built by
# clang (APT_BUILD) and linked by binutils-aarch64-linux-gnu: gcc-aarch64-linux-gnu would remove gcc-multilib.
APT_LONG  := qemu-system-arm binutils-aarch64-linux-gnu gdb-multiarch

VERSION   := 0.1.0
# NO_BPF=1: a ptrace-only build for machines without clang, bpftool, libbpf or kernel BTF (no BPF programs, no
# skeleton, no -lbpf -lelf, and no libdw: no DWARF reading), into build/nobpf unless BUILD says otherwise.
# `make check` builds it once.
NO_BPF    ?=
BUILD     := $(if $(filter 1,$(NO_BPF)),build/nobpf,build)
NPROC     := $(shell nproc 2>/dev/null || echo 2)
CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= bpftool
SAN       ?=
CFLAGS    ?= -O2 -g
override CFLAGS += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wmissing-prototypes \
             -D_GNU_SOURCE -DKF_VERSION='"$(VERSION)"' -Isrc -I$(BUILD)/gen $(SAN)
# The libraries are linked statically (libc and libm are not): every run then maps 3 objects, not 10, and the
# dynamic loader resolves 100 symbols, not 540: `kfootprint --version` 1.1 -> 0.6 ms of CPU (perf stat -r 200),
# which every record pays (libdw, liblzma and libbz2 are only for inventory's DWARF, and cost nothing unused).
LDLIBS    := -Wl,-Bstatic -lbpf -ldw -lelf -lz -llzma -lbz2 -Wl,-Bdynamic -lm
ifeq ($(NO_BPF),1)
override CFLAGS += -DKF_NO_BPF -DKF_NO_DWARF
LDLIBS    := -Wl,-Bstatic -lz -llzma -lbz2 -Wl,-Bdynamic -lm
endif
ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.DELETE_ON_ERROR:
.PHONY: all btf-build run check check-long check-asan unit bench bench-boot bench-tailor bench-kfuncs bench-loss accuracy deps deps-long deps-check clean install-list format cppcheck fuzz fuzz-build man guest

all: $(BUILD)/kfootprint $(BUILD)/kfootprint-init

SRC_ALL  := $(sort $(filter-out src/bpf/% src/qemu/probe_init.c,$(wildcard src/*.c src/*/*.c)))
SRC_LIB  := $(filter-out src/main.c $(if $(filter 1,$(NO_BPF)),src/trace/bpf% src/trace/kstack%),$(SRC_ALL))
GEN_C    := $(BUILD)/gen/syscalltbl.c
GEN_H    := $(BUILD)/gen/syscalltbl.h
GEN_REACH := $(BUILD)/gen/reachtbl.c
BPF_SRC  := $(if $(filter 1,$(NO_BPF)),,$(wildcard src/bpf/*.bpf.c))
BPF_SKEL := $(patsubst src/bpf/%.bpf.c,$(BUILD)/gen/%.skel.h,$(BPF_SRC))
# Kept: make would delete them as intermediates and rebuild every object next time.
.SECONDARY: $(BPF_SKEL) $(BPF_SKEL:.skel.h=.bpf.o) $(BPF_SKEL:.skel.h=.btf.h)
.PHONY: FORCE

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ := $(call obj,$(SRC_LIB)) $(BUILD)/obj/gen/syscalltbl.o $(BUILD)/obj/gen/reachtbl.o
ASAN_DIR := $(BUILD)/asan

# Generated syscall tables: data/syscalls/*.tbl are extracted from the kernel's own tables (see data/README.md).
$(GEN_C) $(GEN_H) &: data/gen-syscalltbl.sh $(wildcard data/syscalls/*)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(BUILD)/gen && sh data/gen-syscalltbl.sh data/syscalls $(BUILD)/gen

# Generated name tables of what calls reach: data/reach/*.tsv are generated from a kernel tree (data/gen-reach.sh).
$(GEN_REACH): data/gen-reachtbl.sh $(wildcard data/reach/*.tsv)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(BUILD)/gen && sh data/gen-reachtbl.sh data/reach $(BUILD)/gen

# The kernel side reads registers through CO-RE, per architecture (libbpf's bpf_tracing.h names): this machine's.
BPF_ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/')
$(BUILD)/gen/%.bpf.o: src/bpf/%.bpf.c $(wildcard src/bpf/*.h) $(BUILD)/gen/vmlinux.h $(BUILD)/gen/kfids.h
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_$(BPF_ARCH) -I$(BUILD)/gen -Isrc/bpf -c $< -o $@
	$(Q)llvm-strip -g $@ 2>/dev/null || true

# %.btf.h: the BTF types the object's CO-RE relocations need, cut from this kernel's BTF, and this kernel's
# build-id notes. On the same kernel the loader relocates against these 1 KB instead of parsing 5 MB. No notes
# (the loader then takes the full BTF) when kfids.h is not this kernel's: the build kernel changed since.
# BTF_KERNELS="FILE ...": other kernels cut the same way, each FILE an uncompressed vmlinux (its .BTF section, and
# its .notes, which are that kernel's /sys/kernel/notes) or a raw BTF file with FILE.notes beside it (a copy of
# that kernel's /sys/kernel/notes): a boot of that kernel then relocates against its few KB too (docs/bpf.md).
# Empty by default: the default build reads nothing of the machine's but /sys/kernel.
BTF_KERNELS ?=
bytes = od -An -v -tx1 $(1) | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'
$(BUILD)/gen/%.skel.h: $(BUILD)/gen/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# The list as last built: the headers are cut again when it changes, not on every make.
$(BUILD)/gen/btf-kernels: FORCE
	$(Q)mkdir -p $(BUILD)/gen && echo '$(BTF_KERNELS)' | cmp -s - $@ || echo '$(BTF_KERNELS)' > $@
FORCE:

$(BUILD)/gen/%.btf.h: $(BUILD)/gen/%.bpf.o $(BUILD)/gen/kfids.h $(BUILD)/gen/btf-kernels $(wildcard $(BTF_KERNELS))
	$(call msg,BTF,$@)
	$(Q)$(BPFTOOL) gen min_core_btf /sys/kernel/btf/vmlinux $(BUILD)/gen/$*.min.btf $< 2>/dev/null || : > $(BUILD)/gen/$*.min.btf
	$(Q){ echo '/* generated by the Makefile: minimal BTF for $*.bpf.o and the build kernel'"'"'s notes */'; \
	  echo 'static const unsigned char $*_min_btf[] = {'; $(call bytes,$(BUILD)/gen/$*.min.btf); echo '0 };'; \
	  echo 'static const unsigned char $*_btf_notes[] = {'; \
	  $(kfids) | cmp -s - $(BUILD)/gen/kfids.h && $(call bytes,/sys/kernel/notes) 2>/dev/null; echo '0 };'; \
	} > $(BUILD)/gen/$*.btf.h.tmp
	$(Q)i=0; for k in $(BTF_KERNELS); do \
	  [ -f "$$k" ] || { echo "kfootprint: BTF_KERNELS: '$$k': no such file" >&2; exit 1; }; \
	  m=$(BUILD)/gen/$*.min.$$i; \
	  if [ "$$(head -c 4 "$$k" | od -An -tx1 | tr -d ' ')" = 7f454c46 ]; then \
	    readelf -S -W "$$k" 2>/dev/null | grep -q ' \.BTF  *PROGBITS' || \
	      { echo "kfootprint: BTF_KERNELS: '$$k': an ELF file without a .BTF section (a kernel built without CONFIG_DEBUG_INFO_BTF?)" >&2; exit 1; }; \
	    objcopy -O binary --only-section=.notes "$$k" $$m.notes 2>/dev/null && [ -s $$m.notes ] || \
	      { echo "kfootprint: BTF_KERNELS: '$$k': no .notes section (the kernel's /sys/kernel/notes)" >&2; exit 1; }; \
	  else \
	    [ -s "$$k.notes" ] || { echo "kfootprint: BTF_KERNELS: '$$k': not an ELF vmlinux, and no '$$k.notes' beside it" >&2; exit 1; }; \
	    cp "$$k.notes" $$m.notes; \
	  fi; \
	  $(BPFTOOL) gen min_core_btf "$$k" $$m.btf $< >/dev/null 2>$$m.err || \
	    { echo "kfootprint: BTF_KERNELS: '$$k': no BTF to cut ($$(grep -m1 . $$m.err || echo 'bpftool gen min_core_btf failed'))" >&2; exit 1; }; \
	  { echo "static const unsigned char $*_min_btf_$$i[] = {"; $(call bytes,$$m.btf); echo '0 };'; \
	    echo "static const unsigned char $*_btf_notes_$$i[] = {"; $(call bytes,$$m.notes); echo '0 };'; \
	  } >> $(BUILD)/gen/$*.btf.h.tmp; \
	  i=$$((i + 1)); \
	done; \
	{ echo '/* BTF_KERNELS: the other kernels'"'"' minimal BTF and notes, by notes; a null name ends the list */'; \
	  echo 'static const struct { const char *name; const unsigned char *btf, *notes; unsigned int btf_len, notes_len; } $*_btf_kernels[] = {'; \
	  i=0; for k in $(BTF_KERNELS); do \
	    echo "{ \"$$k\", $*_min_btf_$$i, $*_btf_notes_$$i, sizeof($*_min_btf_$$i) - 1, sizeof($*_btf_notes_$$i) - 1 },"; \
	    i=$$((i + 1)); \
	  done; echo '{ 0 } };'; } >> $(BUILD)/gen/$*.btf.h.tmp
	$(Q)mv $(BUILD)/gen/$*.btf.h.tmp $@

# btf-build: a second binary with BTF_KERNELS, in BTF_BUILD (default $(BUILD)/btf), its objects copied from
# $(BUILD)'s (which keeps no BTF_KERNELS): only the BTF headers, the loader and the link are made again, in seconds
# (tests/integration/guest.sh, bench/boot_time.sh).
BTF_BUILD ?= $(BUILD)/btf
btf-build:
	$(Q)$(MAKE) --no-print-directory BTF_KERNELS= all
	$(Q)rm -rf $(BTF_BUILD) && mkdir -p $(BTF_BUILD) && cp -a $(BUILD)/obj $(BUILD)/gen $(BUILD)/libkf.a $(BTF_BUILD)/
	$(Q)$(MAKE) --no-print-directory BUILD=$(BTF_BUILD) BTF_KERNELS='$(BTF_KERNELS)' $(BTF_BUILD)/kfootprint

# kfids.h: the build kernel's BTF ids of the kfunc bpf_rdonly_cast, struct kiocb, pt_regs and task_struct (0: not in it),
# written into the sys_exit variant that only the build kernel loads (src/bpf/kffile.bpf.h says why).
kfids = $(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux | awk -v q="'" ' \
	  $$2 == "FUNC" && $$3 == q "bpf_rdonly_cast" q { f = substr($$1, 2, length($$1) - 2) } \
	  $$2 == "STRUCT" && $$3 == q "kiocb" q { k = substr($$1, 2, length($$1) - 2) } \
	  $$2 == "STRUCT" && $$3 == q "pt_regs" q { r = substr($$1, 2, length($$1) - 2) } \
	  $$2 == "STRUCT" && $$3 == q "task_struct" q { t = substr($$1, 2, length($$1) - 2) } \
	  END { print "/* generated by the Makefile from the build kernel'"'"'s BTF */"; \
	        printf "%cdefine KF_ID_RDONLY_CAST %d\n%cdefine KF_ID_KIOCB %d\n%cdefine KF_ID_PT_REGS %d\n", \
	          35, (f && k && r && t) ? f : 0, 35, k + 0, 35, r + 0; \
	        printf "%cdefine KF_ID_TASK_STRUCT %d\n", 35, t + 0 }'
$(BUILD)/gen/kfids.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(BUILD)/gen && $(kfids) > $@

# vmlinux.h is produced from the build machine's BTF; CO-RE relocates it to the running kernel's at load.
$(BUILD)/gen/vmlinux.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(BUILD)/gen && $(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(BUILD)/obj/%.o: %.c $(GEN_H) $(BPF_SKEL)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -MMD -MP -c $< -o $@

# Only the loader reads the minimal BTFs: a new BTF_KERNELS rebuilds it and the link, not every object.
$(BUILD)/obj/src/trace/bpf.o: $(BPF_SKEL:.skel.h=.btf.h)

$(BUILD)/obj/gen/syscalltbl.o: $(GEN_C)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/obj/gen/reachtbl.o: $(GEN_REACH) src/abi/reach.h
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libkf.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/kfootprint: $(BUILD)/obj/src/main.o $(BUILD)/libkf.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# The built-in map databases are .incbin'd (src/kmap/mapdb_data.c); `make mapdb` regenerates them from Debian's
# linux-source-6.1 (KSRC=DIR: from that tree instead).
# The gdb method's probe boot /init (src/qemu/probe.c): static, no libc, x86_64, embedded as a C array.
$(BUILD)/gen/probe_init: src/qemu/probe_init.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && gcc -static -nostdlib -O1 -fno-stack-protector -fno-pie -no-pie -Wall -Werror -o $@ $<
$(BUILD)/gen/probe_init.h: $(BUILD)/gen/probe_init
	$(call msg,GEN,$@)
	$(Q){ echo '/* generated by the Makefile from src/qemu/probe_init.c */'; \
	  echo 'static const unsigned char probe_init[] = {'; \
	  od -An -v -tx1 $< | sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'; echo '};'; } >$@.tmp && mv $@.tmp $@
$(BUILD)/obj/src/qemu/probe.o: $(BUILD)/gen/probe_init.h
$(BUILD)/obj/src/kmap/mapdb_data.o: $(wildcard data/mapdb-*.json)
$(BUILD)/obj/src/ktree/kt_reach_data.o: data/reach-map.tsv
$(BUILD)/obj/src/kmap/kfuncdb.o: $(wildcard data/kfuncdb-*.tsv.gz)
$(BUILD)/obj/src/inventory/sloc_data.o: data/sloc-6.1.tsv.gz
.PHONY: mapdb
mapdb: all
	sh data/gen-mapdb.sh $(BUILD)/kfootprint $(KSRC)

# --- tests -------------------------------------------------------------------------------------------
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
WL_SRC    := $(wildcard tests/workloads/*.c)
WL_BIN    := $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WL_SRC))

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libkf.a
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -o $@ $< $(BUILD)/libkf.a $(LDLIBS) -lcmocka
# json-c is the oracle test_json compares the writer's layouts against; kfootprint itself does not link it.
$(BUILD)/tests/test_json: LDLIBS += -Wl,-Bstatic -ljson-c -Wl,-Bdynamic

# Workloads are built plainly (no sanitizer): their syscall footprint must be exactly what the source says.
# A workload named *_m32.c is built for i386.
# tailor's /init in the re-test guest: static, so that the initramfs needs nothing else for it
$(BUILD)/kfootprint-init: src/tailor/init/kf-init.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) -static -Os -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE -o $@ $<

$(BUILD)/workloads/%: tests/workloads/%.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && gcc -O1 -g -Wall -Werror -D_GNU_SOURCE $(if $(findstring _m32,$*),-m32 -static,) -o $@ $< -lpthread

workloads: $(WL_BIN)
unit: $(UNIT_BIN)

# The man page's option lists, from the commands' option tables (test_options checks them).
man: $(BUILD)/tests/test_options
	$(Q)$(BUILD)/tests/test_options --update-man man/kfootprint.1

# libFuzzer harness for the footprint JSON reader (clang; libclang-rt-14-dev gives the fuzzer runtime).
# `make fuzz` runs it for FUZZ_TIME seconds on a copy of tests/fuzz/corpus; tests/integration/report_fuzz.sh
# runs a short bounded pass in `make check`.
FUZZ_TIME ?= 60
# The harnesses' own sources are compiled once each, instrumented (fuzzer-no-link: coverage without libFuzzer's
# main), into $(BUILD)/fuzz/obj, and shared by the harnesses that link them (src/util/ by all four, src/ktree/ by
# three): a fresh clone's make check compiles each once, not once a harness.
FUZZ_CFLAGS := -g -O1 -std=gnu11 -D_GNU_SOURCE -DKF_VERSION='"$(VERSION)"' -Isrc -I$(BUILD)/gen \
               -fsanitize=address,undefined -fno-sanitize-recover=undefined
fuzz_obj = $(patsubst %.c,$(BUILD)/fuzz/obj/%.o,$(1))
$(BUILD)/fuzz/obj/%.o: %.c $(GEN_H)
	$(call msg,FUZZCC,$<)
	$(Q)mkdir -p $(dir $@) && $(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<
-include $(shell find $(BUILD)/fuzz/obj -name '*.d' 2>/dev/null)
fuzz_link = $(CLANG) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $(1) $(BUILD)/libkf.a $(LDLIBS)
# The reader, the model and the renderers are instrumented; whatever else they reach comes from libkf.a.
FUZZ_SRC  := tests/fuzz/fuzz_load.c $(wildcard src/footprint/*.c src/util/*.c src/abi/*.c) $(GEN_C) $(GEN_REACH) \
             $(filter-out src/report/map_%,$(wildcard src/report/*.c))
$(BUILD)/fuzz/fuzz_load: $(call fuzz_obj,$(FUZZ_SRC)) $(BUILD)/libkf.a
	$(call msg,FUZZ,$@)
	$(Q)$(call fuzz_link,$(call fuzz_obj,$(FUZZ_SRC)))
# libFuzzer harnesses for the kernel tree index readers (Makefile/Kbuild, Kconfig, MAINTAINERS);
# tests/integration/ktree_fuzz.sh runs them briefly, each on its tests/fuzz/ktree-seeds/NAME seeds.
KT_FUZZ   := $(BUILD)/fuzz/fuzz_kbuild $(BUILD)/fuzz/fuzz_kconfig $(BUILD)/fuzz/fuzz_maintainers $(BUILD)/fuzz/fuzz_ifblk
KT_FUZZ_SRC := $(filter-out src/ktree/kt_index.c src/ktree/kt_resolve.c,$(wildcard src/ktree/kt_*.c src/util/*.c))
$(KT_FUZZ): $(BUILD)/fuzz/%: $(BUILD)/fuzz/obj/tests/fuzz/%.o $(call fuzz_obj,$(KT_FUZZ_SRC)) $(BUILD)/libkf.a
	$(call msg,FUZZ,$@)
	$(Q)$(call fuzz_link,$< $(call fuzz_obj,$(KT_FUZZ_SRC)))
# The bzImage extractor (tests/integration/qemu_bzimage.sh runs it briefly).
BZ_FUZZ_SRC := tests/fuzz/fuzz_bzimage.c src/qemu/bzimage.c $(wildcard src/util/*.c)
$(BUILD)/fuzz/fuzz_bzimage: $(call fuzz_obj,$(BZ_FUZZ_SRC)) $(BUILD)/libkf.a
	$(call msg,FUZZ,$@)
	$(Q)$(call fuzz_link,$(call fuzz_obj,$(BZ_FUZZ_SRC)))
# The map database loader (tests/integration/mapdb_fuzz.sh runs it briefly on tests/fuzz/mapdb-seeds).
MAPDB_FUZZ_SRC := tests/fuzz/fuzz_mapdb.c src/kmap/mapdb.c src/kmap/mapdb_load.c src/kmap/mapdb_want.c src/kmap/mapdb_save.c $(wildcard src/util/*.c)
$(BUILD)/fuzz/fuzz_mapdb: $(call fuzz_obj,$(MAPDB_FUZZ_SRC)) $(BUILD)/libkf.a
	$(call msg,FUZZ,$@)
	$(Q)$(call fuzz_link,$(call fuzz_obj,$(MAPDB_FUZZ_SRC)))
# The reader of gcov's JSON, record --kernel-lines=gcov (tests/long/fuzz_long.sh runs it on tests/fuzz/gcov-seeds).
GCOV_FUZZ_SRC := tests/fuzz/fuzz_gcov.c src/trace/gcov_json.c $(wildcard src/util/*.c)
$(BUILD)/fuzz/fuzz_gcov: $(call fuzz_obj,$(GCOV_FUZZ_SRC)) $(BUILD)/libkf.a
	$(call msg,FUZZ,$@)
	$(Q)$(call fuzz_link,$(call fuzz_obj,$(GCOV_FUZZ_SRC)))
fuzz-build: $(BUILD)/fuzz/fuzz_load $(KT_FUZZ) $(BUILD)/fuzz/fuzz_bzimage $(BUILD)/fuzz/fuzz_mapdb $(BUILD)/fuzz/fuzz_gcov
fuzz: fuzz-build
	$(Q)rm -rf $(BUILD)/fuzz/corpus && mkdir -p $(BUILD)/fuzz/corpus && cp tests/fuzz/corpus/* $(BUILD)/fuzz/corpus/
	$(Q)$(BUILD)/fuzz/fuzz_load -max_total_time=$(FUZZ_TIME) -max_len=8192 -timeout=10 -close_fd_mask=2 \
		-artifact_prefix=$(BUILD)/fuzz/ $(BUILD)/fuzz/corpus

# make check's three builds (this one, ASan/UBSan, NO_BPF) at once, sharing make's $(NPROC) job slots: one's serial
# steps (the BPF object and its skeleton, the links) overlap the others' compiles. Then the tests, $(NPROC) at a
# time (tests/run.sh).
.PHONY: check-builds check-build-main check-build-asan check-build-nobpf
check-builds: check-build-main check-build-asan check-build-nobpf
check-build-main:
	$(Q)$(MAKE) --no-print-directory all unit workloads
check-build-asan:
	$(Q)$(MAKE) --no-print-directory BUILD=$(ASAN_DIR) SAN='-fsanitize=address,undefined -fno-omit-frame-pointer' CFLAGS='-O1 -g' all unit
# -O0: the ptrace-only build is there for what it leaves out (tests/integration/nobpf.sh); unoptimized it costs
# 21 CPU s instead of 56, and the warnings only optimization finds are the main build's, on the same sources.
check-build-nobpf:
	$(Q)$(MAKE) --no-print-directory NO_BPF=1 BUILD=$(BUILD)/nobpf CFLAGS='-O0 -g' all
check: deps
	$(Q)$(MAKE) -j$(NPROC) --no-print-directory check-builds
	$(Q)KF_BUILD=$(BUILD) KF_ASAN=$(ASAN_DIR) sh tests/run.sh

# Tests too long for make check (~15 min on 2 vCPUs): bpf against ptrace on the seed's fork-heavy workloads, the
# long fuzzing runs (tests/long/fuzz_long.sh), and kfootprint qemu --arch aarch64 (tests/long/qemu_arm64.sh, ~1 min;
# the first run downloads the arm64 kernel).
check-long: deps-long
	$(Q)$(MAKE) -j$(NPROC) --no-print-directory all workloads
	$(Q)KF_BUILD=$(BUILD) KF_SUITE=tests/long sh tests/run.sh; rc=$$?; cat $(BUILD)/check-long.txt 2>/dev/null; exit $$rc

# The guest-side suite alone (make check runs it too, from tests/integration/guest.sh): Debian's 6.1 kernel under
# QEMU on this machine's root (tests/guest/README.md). GUEST_ONLY=pattern: only those scripts of tests/guest/t.
guest: deps all workloads
	$(Q)KF_BUILD=$(BUILD) KF_GUEST_ONLY='$(GUEST_ONLY)' tests/guest/run -- sh tests/guest/suite.sh

run: deps all
	$(Q)sh scripts/run-default.sh $(BUILD)/kfootprint $(BUILD)/run.json

bench: deps all workloads
	$(Q)sh bench/run.sh $(BUILD)
	$(Q)sh bench/bpffs_fresh.sh $(BUILD)
	$(Q)sh bench/map_index.sh $(BUILD)
	$(Q)sh bench/report_large.sh $(BUILD)
	$(Q)sh bench/mapdb_load.sh $(BUILD)
	$(Q)sh bench/map_builtin.sh $(BUILD)
	$(Q)sh bench/html_large.sh $(BUILD)

# record --kernel-functions against trace-cmd, in the QEMU guest (its 6.1 kernel traces functions): 10 min on a
# quiet machine, up to an hour on a loaded one (KF_BENCH_TIMEOUT, bench/kfuncs.sh).
bench-kfuncs: deps all workloads
	$(Q)tests/guest/run --timeout $${KF_BENCH_TIMEOUT:-7200} -- sh bench/kfuncs.sh $(BUILD)

# Boots guests (~10 min): kfootprint boot's cost (root over 9p, on a disk, in the initramfs), and the gdb-stub
# method against plain gdb (x86_64 and aarch64).
# Each kfootprint boot twice: this build (CO-RE against the guest kernel's full BTF) and $(BUILD)/btf-guest, made
# with BTF_KERNELS=the guest's vmlinux (its minimal BTF), which a boot cut short caches first.
bench-boot: deps-long all
	$(Q)tests/guest/run --timeout 300 -- true >/dev/null 2>&1; \
	v=$$(ls $${KF_GUEST_CACHE:-/var/cache/kfootprint/guest}/kernel-6.1.*/vmlinux 2>/dev/null | sort -V | tail -n1); \
	if [ -n "$$v" ] && $(MAKE) --no-print-directory BTF_BUILD=$(BUILD)/btf-guest BTF_KERNELS="$$v" btf-build; then \
		KF_BENCH_MIN=$(BUILD)/btf-guest sh bench/boot_time.sh $(BUILD); \
	else echo "bench: no guest vmlinux to cut a minimal BTF from: full BTF only" >&2; sh bench/boot_time.sh $(BUILD); fi
	$(Q)sh bench/qemu_gdb.sh $(BUILD)

# tailor with an empty cache (~15 min): each workload's cold build, its kernel's sizes, boot and SLOC beside
# Debian's and tinyconfig's, and the anchors' figures. The guest's run first: the reference runs boot its kernel.
bench-tailor: deps-long all workloads
	$(Q)tests/guest/run --timeout 300 -- true >/dev/null 2>&1; sh bench/tailor.sh $(BUILD)

# Whether bpf keeps up with the seed's fork-heavy workloads, CPUs free and busy (~6 min).
bench-loss: deps all
	$(Q)sh bench/bpf_loss.sh $(BUILD)/kfootprint

# How exactly inventory predicts the compiled files: Debian's 6.1 config against the DWARF of Debian's own build
# (an 850 MB -dbg download, once), tinyconfig against a real build of it (minutes, once); both cached under
# /var/cache/kfootprint. Not in make check: the first run downloads and builds (docs/inventory.md).
accuracy: deps all
	$(Q)sh bench/accuracy.sh $(BUILD)

# --- install list ------------------------------------------------------------------------------------
install-list:
	@echo $(APT_ALL)

deps-long: APT_ALL += $(APT_LONG)
deps-long: deps

deps:
	$(Q)missing=$$(for p in $(APT_ALL); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "kfootprint: installing missing packages:" $$missing; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; } || \
		{ echo "kfootprint: apt-get install failed for:" $$missing >&2; exit 1; }; \
	fi

format:
	clang-format -i $(SRC_ALL) $(wildcard src/*/*.h src/*.h) $(UNIT_SRC) $(WL_SRC)

# The skeletons as cppcheck reads them ($(BUILD)/cppcheck, first on the path): the same code with the BPF object's
# bytes (a 750 KB string literal) left out, whose parsing was 10 s of CPU for each file including one, 60 of 70;
# and probe_init.h's 68 KB of bytes (4 s of probe.c's 4.3).
cppcheck:
	$(Q)rm -rf $(BUILD)/cppcheck && mkdir -p $(BUILD)/cppcheck && for f in $(wildcard $(BUILD)/gen/*.skel.h); do \
	  sed -e '/^\treturn (const void \*)"\\$$/,/";$$/{/";$$/!d;s/.*/\treturn (const void *)"";/;}' "$$f" \
	    >$(BUILD)/cppcheck/$${f##*/} || exit 1; done; \
	  printf 'static const unsigned char probe_init[] = {0};\n' >$(BUILD)/cppcheck/probe_init.h
	cppcheck -j$(NPROC) --quiet --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
		--suppress=missingIncludeSystem -Isrc -I$(BUILD)/cppcheck -I$(BUILD)/gen $(SRC_ALL)

clean:
	rm -rf $(BUILD)
