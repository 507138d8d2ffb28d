# kfootprint — one top-level Makefile, out-of-tree objects in build/.
# `make` builds, `make run` traces the default workload, `make check` runs every test,
# `make bench` prints the overhead tables. `make deps` installs the Debian packages below when missing.

# The one install list: everything a build, a test or a benchmark needs on a fresh Debian 12 machine.
APT_BUILD := gcc make pkg-config libjson-c-dev zlib1g-dev libbpf-dev bpftool clang llvm libelf-dev
APT_TEST  := libcmocka-dev gcc-multilib strace coreutils findutils python3 python3-docutils \
             stress-ng paxtest linux-perf util-linux procps tar
APT_MAP   := linux-source-6.1 cscope xz-utils
APT_ALL   := $(APT_BUILD) $(APT_TEST) $(APT_MAP)

VERSION   := 0.1.0
BUILD     := build
CC        ?= gcc
CLANG     ?= clang
BPFTOOL   ?= bpftool
SAN       ?=
CFLAGS    ?= -O2 -g
CFLAGS    += -std=gnu11 -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter -Wmissing-prototypes \
             -D_GNU_SOURCE -DKF_VERSION='"$(VERSION)"' -Isrc -I$(BUILD)/gen $(SAN)
LDLIBS    := -ljson-c -lz -lbpf -lelf -lm
ifeq ($(V),1)
Q :=
msg :=
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(2)";
endif

.DELETE_ON_ERROR:
.PHONY: all run check check-asan unit bench deps deps-check clean install-list format cppcheck

all: $(BUILD)/kfootprint

SRC_ALL  := $(sort $(wildcard src/*.c src/*/*.c))
SRC_LIB  := $(filter-out src/main.c,$(SRC_ALL))
GEN_C    := $(BUILD)/gen/syscalltbl.c
GEN_H    := $(BUILD)/gen/syscalltbl.h
BPF_SRC  := $(wildcard src/bpf/*.bpf.c)
BPF_SKEL := $(patsubst src/bpf/%.bpf.c,$(BUILD)/gen/%.skel.h,$(BPF_SRC))

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))
LIB_OBJ := $(call obj,$(SRC_LIB)) $(BUILD)/obj/gen/syscalltbl.o
ASAN_DIR := $(BUILD)/asan

# Generated syscall tables: data/syscalls/*.tbl are extracted from the kernel's own tables (see data/README.md).
$(GEN_C) $(GEN_H) &: data/gen-syscalltbl.sh $(wildcard data/syscalls/*)
	$(call msg,GEN,$@)
	$(Q)mkdir -p $(BUILD)/gen && sh data/gen-syscalltbl.sh data/syscalls $(BUILD)/gen

$(BUILD)/gen/%.bpf.o: src/bpf/%.bpf.c $(wildcard src/bpf/*.h) $(BUILD)/gen/vmlinux.h
	$(call msg,BPF,$@)
	$(Q)$(CLANG) -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -I$(BUILD)/gen -Isrc/bpf -c $< -o $@
	$(Q)llvm-strip -g $@ 2>/dev/null || true

$(BUILD)/gen/%.skel.h: $(BUILD)/gen/%.bpf.o
	$(call msg,SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< > $@

# vmlinux.h is produced from the build machine's BTF; CO-RE relocates it to the running kernel's at load.
$(BUILD)/gen/vmlinux.h:
	$(call msg,BTF,$@)
	$(Q)mkdir -p $(BUILD)/gen && $(BPFTOOL) btf dump file /sys/kernel/btf/vmlinux format c > $@

$(BUILD)/obj/%.o: %.c $(GEN_H) $(BPF_SKEL)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/obj/gen/syscalltbl.o: $(GEN_C)
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -c $< -o $@

$(BUILD)/libkf.a: $(LIB_OBJ)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/kfootprint: $(BUILD)/obj/src/main.o $(BUILD)/libkf.a
	$(call msg,LD,$@)
	$(Q)$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# --- tests -------------------------------------------------------------------------------------------
UNIT_SRC  := $(wildcard tests/unit/test_*.c)
UNIT_BIN  := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))
WL_SRC    := $(wildcard tests/workloads/*.c)
WL_BIN    := $(patsubst tests/workloads/%.c,$(BUILD)/workloads/%,$(WL_SRC))

$(BUILD)/tests/%: tests/unit/%.c $(BUILD)/libkf.a
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && $(CC) $(CFLAGS) -o $@ $< $(BUILD)/libkf.a $(LDLIBS) -lcmocka

# Workloads are built plainly (no sanitizer): their syscall footprint must be exactly what the source says.
# A workload named *_m32.c is built for i386.
$(BUILD)/workloads/%: tests/workloads/%.c
	$(call msg,CC,$<)
	$(Q)mkdir -p $(dir $@) && gcc -O1 -g -Wall -Werror -D_GNU_SOURCE $(if $(findstring _m32,$*),-m32 -static,) -o $@ $< -lpthread

workloads: $(WL_BIN)
unit: $(UNIT_BIN)

check: deps
	$(Q)$(MAKE) --no-print-directory all unit workloads
	$(Q)$(MAKE) --no-print-directory BUILD=$(ASAN_DIR) SAN='-fsanitize=address,undefined -fno-omit-frame-pointer' CFLAGS='-O1 -g' all unit
	$(Q)KF_BUILD=$(BUILD) KF_ASAN=$(ASAN_DIR) sh tests/run.sh

run: deps all
	$(Q)sh scripts/run-default.sh $(BUILD)/kfootprint $(BUILD)/run.json

bench: deps all workloads
	$(Q)sh bench/run.sh $(BUILD)

# --- install list ------------------------------------------------------------------------------------
install-list:
	@echo $(APT_ALL)

deps:
	$(Q)missing=$$(for p in $(APT_ALL); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "kfootprint: installing missing packages:" $$missing; \
		{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; } || \
		{ echo "kfootprint: apt-get install failed for:" $$missing >&2; exit 1; }; \
	fi

format:
	clang-format -i $(SRC_ALL) $(wildcard src/*/*.h src/*.h) $(UNIT_SRC) $(WL_SRC)

cppcheck:
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability --std=c11 \
		--suppress=missingIncludeSystem -Isrc -I$(BUILD)/gen $(SRC_ALL)

clean:
	rm -rf $(BUILD)
