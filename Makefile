# sonde: plain Makefile.  `make` builds ./sonde, `make test` runs every test.
CC      ?= cc
PREFIX  ?= /usr/local
MANDIR  ?= $(PREFIX)/share/man
CFLAGS  ?= -O2 -g
CFLAGS  += -Isrc -std=gnu11 -Wall -Wextra -Werror -Wno-missing-field-initializers -D_GNU_SOURCE
# libdw (with liblzma, libbz2) is loaded when a run first reads DWARF
# (src/sym/libdw_load.c), libprotobuf-c when it first writes a pprof profile
# (src/export/protobuf_load.c), not at start-up: fewer libraries to map.
LDLIBS  := -lbpf -lelf -lz
# sonde's relative relocations (about 7,100: its tables of pointers) packed
# as DT_RELR (binutils >= 2.38, glibc >= 2.36: the .deb depends on it): a
# 2 KiB table instead of 170 KiB
LDRELR  := -Wl,-z,pack-relative-relocs
# A static sonde (`make STATIC=1`, or build/sonde-static, which the VM lane
# runs): libbpf, libelf, libdw, their compressors and glibc from Debian's -dev
# packages (libbz2-dev too).  No dynamic loader at start-up: under QEMU TCG that
# is 45-50 ms of every run (exec, ld.so mapping and relocating 8 shared
# libraries; static: ~12 ms), on hardware about a millisecond.  getpwuid_r
# (`username`) still loads glibc's NSS modules of the build's glibc version.
STATIC_LDLIBS := -static -lbpf -ldw -lelf -lz -llzma -lbz2 -lprotobuf-c
ifeq ($(STATIC),1)
SONDE_LDLIBS := $(STATIC_LDLIBS)
SONDE_OBJ = $(STATIC_OBJ)
else
SONDE_LDLIBS := $(LDRELR) $(LDLIBS)
endif
VERSION := 0.1.0

LIB_SRC  := $(sort $(shell find src -name '*.c' ! -name main.c ! -name '*_static.c'))
# a static build binds what the others load on first use (src/*/*_static.c)
STATIC_OBJ := $(patsubst %.c,build/%.o,$(sort $(shell find src -name '*_static.c')))
# pprof's profile.proto, compiled by protobuf-c's protoc-c (export/pprof.c)
GEN_DIR  := build/gen
LIB_OBJ  := $(LIB_SRC:%.c=build/%.o)
CFLAGS   += -I$(GEN_DIR)
UNIT_SRC := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BIN := $(UNIT_SRC:tests/unit/%.c=build/tests/%)
PROGS_SRC := $(sort $(filter-out %_lib.c %_twin.c,$(wildcard tests/progs/*.c)))
PROGS_BIN := $(PROGS_SRC:tests/progs/%.c=build/progs/%) build/progs/uprobe_target_nopie \
	build/progs/probe_target_O0 build/progs/probe_target_O2 build/progs/probe_target_dw4z \
	build/progs/wild_a build/progs/wild_b \
	build/progs/locals_target_O0 build/progs/locals_target_O2

all: sonde

sonde: build/src/main.o $(LIB_OBJ) $(SONDE_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(SONDE_LDLIBS)

build/sonde-static: build/src/main.o $(LIB_OBJ) $(STATIC_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(STATIC_LDLIBS)

$(GEN_DIR)/profile.pb-c.c $(GEN_DIR)/profile.pb-c.h: src/export/profile.proto
	@mkdir -p $(GEN_DIR)
	protoc-c --c_out=$(GEN_DIR) --proto_path=src/export profile.proto

# compiled inside export/profile_pb.c (libprotobuf-c loaded on first use)
build/src/export/profile_pb.o: $(GEN_DIR)/profile.pb-c.c $(GEN_DIR)/profile.pb-c.h
build/src/export/pprof.o: $(GEN_DIR)/profile.pb-c.h

build/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -DSONDE_VERSION='"$(VERSION)"' -DSONDE_TOOLS_DIR='"$(PREFIX)/share/sonde/tools"' -MMD -MP -c -o $@ $<

build/tests/%: tests/unit/%.c $(LIB_OBJ) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Isrc -o $@ $< $(LIB_OBJ) $(LDLIBS)

build/progs/%: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -o $@ $<

# a BTF file writer for the BPFTRACE_BTF test (libbpf's BTF API)
build/progs/mkbtf: tests/progs/mkbtf.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -o $@ $< -lbpf

# user-space probe targets: a non-PIE twin, and USDT in a shared library
build/progs/uprobe_target_nopie: tests/progs/uprobe_target.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -no-pie -fno-pie -o $@ $<

# frame pointers in every function (a flame graph's known profile)
build/progs/flame_target: tests/progs/flame_target.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -fno-omit-frame-pointer -o $@ $<

# sonde probe: the same program at -O0 and -O2, and in DWARF 4 with
# compressed debug sections
build/progs/probe_target_O0: tests/progs/probe_target.c
	@mkdir -p $(dir $@)
	$(CC) -O0 -g -o $@ $<

build/progs/probe_target_O2: tests/progs/probe_target.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -o $@ $<

build/progs/probe_target_dw4z: tests/progs/probe_target.c
	@mkdir -p $(dir $@)
	$(CC) -O2 -gdwarf-4 -gz -o $@ $<

# locals.NAME: unoptimized (the stack) and optimized (registers, location lists)
build/progs/locals_target_O%: tests/progs/locals_target.c
	@mkdir -p $(dir $@)
	$(CC) -O$* -g -o $@ $<

build/progs/lib%.so: tests/progs/%.c
	@mkdir -p $(dir $@)
	$(CC) -O1 -g -shared -fPIC -o $@ $<

build/progs/sdt_target: tests/progs/sdt_target.c build/progs/libsdt_lib.so
	$(CC) -O1 -g -o $@ $< -Lbuild/progs -lsdt_lib -Wl,-rpath,'$$ORIGIN'

# loads libspin_lib.so with dlopen while it runs (given its path)
build/progs/dlopen_target: tests/progs/dlopen_target.c build/progs/libspin_lib.so
	$(CC) -O1 -g -o $@ $< -ldl

# one program under two names (a wildcarded file matches both), with USDT
# probes of its own and in the library it links
build/progs/wild_a build/progs/wild_b: tests/progs/wild_twin.c build/progs/libwild_lib.so
	$(CC) -O1 -g -o $@ $< -Lbuild/progs -lwild_lib -Wl,-rpath,'$$ORIGIN'

unit: $(UNIT_BIN)

# the test programs runtime tests and dev/bpf-dumps.sh use
progs: $(PROGS_BIN)

test: sonde $(UNIT_BIN) $(PROGS_BIN)
	bash tests/run.sh

# the VM lane: kernel probes on Debian 12's stock kernel under QEMU (tests/kernel/vm.sh)
test-kernel: build/sonde-static
	SONDE=$(CURDIR)/build/sonde-static bash tests/kernel/vm.sh

run: sonde
	@echo 'sonde -e '\''tracepoint:raw_syscalls:sys_enter { @[comm] = count(); } interval:s:5 { exit(); }'\'
	./sonde -e 'tracepoint:raw_syscalls:sys_enter { @[comm] = count(); } interval:s:5 { exit(); }'

# where `import sonde_probes` finds the runtime-probe module (Debian's python3
# looks in $(PREFIX)/lib/python3.X/dist-packages)
PYTHON_SITE ?= $(PREFIX)/lib/python$(shell /usr/bin/python3 -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null || echo 3)/dist-packages

# The binary, the ready tools (sonde --tool finds them in ../share/sonde/tools
# from the binary) and the man pages.
install: sonde
	install -D -m 0755 sonde $(DESTDIR)$(PREFIX)/bin/sonde
	install -d $(DESTDIR)$(PREFIX)/share/sonde/tools $(DESTDIR)$(MANDIR)/man8
	install -m 0755 tools/*.bt $(DESTDIR)$(PREFIX)/share/sonde/tools/
	install -m 0644 man/*.8 $(DESTDIR)$(MANDIR)/man8/
	install -D -m 0644 python/sonde_probes.py $(DESTDIR)$(PYTHON_SITE)/sonde_probes.py

# sonde run as `dtrace` is `sonde dtrace`, so `#!/usr/sbin/dtrace -s` scripts run.
# Not part of install: Debian's systemtap-sdt-dev has a dtrace command of its
# own (the USDT header generator), which a link must not shadow unasked.
install-dtrace-link: install
	install -d $(DESTDIR)$(PREFIX)/sbin
	ln -sf ../bin/sonde $(DESTDIR)$(PREFIX)/sbin/dtrace

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/sonde $(patsubst man/%,$(DESTDIR)$(MANDIR)/man8/%,$(wildcard man/*.8))
	[ "$$(readlink $(DESTDIR)$(PREFIX)/sbin/dtrace 2>/dev/null)" != ../bin/sonde ] || rm -f $(DESTDIR)$(PREFIX)/sbin/dtrace
	rm -rf $(DESTDIR)$(PREFIX)/share/sonde
	rm -f $(DESTDIR)$(PYTHON_SITE)/sonde_probes.py

# A Debian package built with dpkg-deb from a `make install` into a staging
# tree (PREFIX=/usr, man pages gzipped as Debian installs them).
DEB_ARCH = $(shell dpkg --print-architecture)
DEB      = build/sonde_$(VERSION)_$(DEB_ARCH).deb
deb: sonde
	rm -rf build/deb
	$(MAKE) --no-print-directory install PREFIX=/usr DESTDIR=$(CURDIR)/build/deb
	gzip -9n build/deb/usr/share/man/man8/*.8
	install -d build/deb/DEBIAN
	printf '%s\n' 'Package: sonde' 'Version: $(VERSION)' 'Architecture: $(DEB_ARCH)' \
		'Maintainer: sonde developers <sonde@localhost>' \
		'Depends: libbpf1, libelf1, libdw1, zlib1g, libprotobuf-c1, libc6 (>= 2.36)' \
		'Section: devel' 'Priority: optional' \
		'Description: dynamic tracer for Linux: bpftrace scripts compiled straight to eBPF' \
		' sonde runs bpftrace-language scripts with its own compiler (no LLVM), traces' \
		' system calls as strace does (sonde trace), draws flame graphs (sonde' \
		' flamegraph) and ships ready tools (sonde --tools).' > build/deb/DEBIAN/control
	dpkg-deb --root-owner-group --build build/deb $(DEB)

# libFuzzer over text -> parser -> sema -> codegen, with ASan and UBSan.
FUZZ_SECONDS ?= 60
fuzz: build/fuzz/fuzz_compile
	@mkdir -p build/fuzz/corpus
	cp -n tests/runtime/cases/*.bt tests/unit/corpus/*.bt build/fuzz/corpus/ 2>/dev/null || true
	for f in tests/dtrace/*.d; do cp -n "$$f" "build/fuzz/corpus/$$(basename "$$f").seed"; done
	build/fuzz/fuzz_compile -max_total_time=$(FUZZ_SECONDS) -max_len=4096 -timeout=10 build/fuzz/corpus

build/fuzz/fuzz_compile: fuzz/fuzz_compile.c $(LIB_SRC) $(GEN_DIR)/profile.pb-c.c $(GEN_DIR)/profile.pb-c.h
	@mkdir -p $(dir $@)
	clang -std=gnu11 -g -O1 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
		-Isrc -I$(GEN_DIR) -o $@ fuzz/fuzz_compile.c $(LIB_SRC) $(LDLIBS)

clean:
	rm -rf build sonde

.PHONY: all check-layers progs unit test test-kernel run install install-dtrace-link uninstall deb fuzz clean
-include $(shell find build -name '*.d' 2>/dev/null)

# layers call down only (src/LAYERS); upward edges not in dev/layers-known.txt fail
check-layers: sonde
	python3 dev/check-layers.py
