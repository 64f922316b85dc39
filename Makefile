# whydrop: see README.md. `make run` and `make test` are the two entry points.
VERSION    := 0.1.0
BUILD      ?= build
CC         ?= gcc
CLANG      ?= clang
BPFTOOL    ?= bpftool
SAN        ?=

OPT        ?= -O2 -g
LIB_INC    := -Isrc/lib $(patsubst %/,-I%,$(sort $(dir $(wildcard src/lib/*/*.h))))
# User CFLAGS/LDFLAGS are appended, never replace the project's own.
WD_CFLAGS  := $(OPT) -std=gnu11 -Wall -Wextra -Werror -D_GNU_SOURCE \
	      -DWHYDROP_VERSION='"$(VERSION)"' $(LIB_INC) -Isrc/core -Isrc/cli -Isrc/bpf \
	      -I$(BUILD)
WD_LDFLAGS :=
ifneq ($(SAN),)
WD_CFLAGS  += -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
WD_LDFLAGS += -fsanitize=address,undefined
endif
WD_CFLAGS  += $(CPPFLAGS) $(CFLAGS)
WD_LDFLAGS += $(LDFLAGS)
Q          := $(if $(V),,@)
LDLIBS     += -lbpf -lelf -lz -lm -lpcap -lmicrohttpd -lmnl -lnftables -lnftnl -ljson-c

# -ffile-prefix-map: the BPF object (inside the binary) names no build directory
BPF_CFLAGS := -g -O2 -target bpf -mcpu=v3 -D__TARGET_ARCH_x86 -Wall -Werror -Isrc/bpf \
	      -ffile-prefix-map=$(CURDIR)=.

# src/lib: libwhydrop.a, no BPF program (unit tests and fuzzers link it alone),
# in folders by concern (src/lib/README.md), each on the include path;
# src/core: libwhydrop-core.a, the session around the BPF program (skeletons
# generated into $(BUILD)); src/cli: the commands.
LIB_SRCS   := $(wildcard src/lib/*.c src/lib/*/*.c)
LIB_HDRS   := $(wildcard src/lib/*.h src/lib/*/*.h)
CORE_SRCS  := $(wildcard src/core/*.c)
CLI_SRCS   := $(wildcard src/cli/*.c)
LIB_OBJS   := $(LIB_SRCS:src/lib/%.c=$(BUILD)/lib/%.o)
CORE_OBJS  := $(CORE_SRCS:src/core/%.c=$(BUILD)/core/%.o)
CLI_OBJS   := $(CLI_SRCS:src/cli/%.c=$(BUILD)/cli/%.o)
UNIT_SRCS  := $(wildcard tests/unit/test_*.c)
UNIT_BINS  := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)

.SECONDARY:
.PHONY: all run test test-hostile unit lab bench bench-memory deps deps-test clean asan install fuzz fuzz-bins docs test-vm stress
all: $(BUILD)/whydrop

deps:
	@scripts/install-deps.sh build
deps-test:
	@scripts/install-deps.sh test

BPF_OBJS   := whydrop whydrop_nobtf cgroup_events tcp_events
SKELS      := $(BPF_OBJS:%=$(BUILD)/%.skel.h)

$(BUILD)/%.bpf.o: src/bpf/%.bpf.c $(wildcard src/bpf/*.h)
	@mkdir -p $(@D)
	@echo "  BPF     $@"
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/%.skel.h: $(BUILD)/%.bpf.o
	@echo "  SKEL    $@"
	$(Q)$(BPFTOOL) gen skeleton $< name $*_bpf > $@.tmp && mv $@.tmp $@

$(BUILD)/lib/%.o: src/lib/%.c $(LIB_HDRS) src/bpf/whydrop.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(WD_CFLAGS) -c $< -o $@

$(BUILD)/core/%.o: src/core/%.c $(LIB_HDRS) $(wildcard src/core/*.h) src/bpf/whydrop.h \
		src/bpf/tcp_shared.h $(SKELS)
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(WD_CFLAGS) -c $< -o $@

$(BUILD)/cli/%.o: src/cli/%.c $(LIB_HDRS) $(wildcard src/core/*.h src/cli/*.h) src/bpf/whydrop.h
	@mkdir -p $(@D)
	@echo "  CC      $@"
	$(Q)$(CC) $(WD_CFLAGS) -c $< -o $@

$(BUILD)/libwhydrop.a: $(LIB_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/libwhydrop-core.a: $(CORE_OBJS)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/whydrop: $(CLI_OBJS) $(BUILD)/libwhydrop-core.a $(BUILD)/libwhydrop.a
	@echo "  LINK    $@"
	$(Q)$(CC) $(WD_LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/tests/%: tests/unit/%.c $(wildcard tests/unit/*.h) $(BUILD)/libwhydrop.a
	@mkdir -p $(@D)
	@echo "  TEST    $@"
	$(Q)$(CC) $(WD_CFLAGS) -Itests/unit $(WD_LDFLAGS) -o $@ $< $(BUILD)/libwhydrop.a $(LDLIBS)

# ---- tests/system/filter_equal (tests/system/filter_equal.sh): the pcap filter
# translator, src/lib/filter/cbpf_ebpf.c, against libpcap in the kernel. Built with unit-bins.
FILTER_EQ  := $(BUILD)/system/filter_equal
unit-bins: $(FILTER_EQ)

$(BUILD)/system/filter_equal.bpf.o: tests/system/filter_equal.bpf.c tests/system/filter_equal.h \
		src/bpf/whydrop.h src/bpf/core_types.h src/bpf/filter_maps.h
	@mkdir -p $(@D)
	@echo "  BPF     $@"
	$(Q)$(CLANG) $(BPF_CFLAGS) -Itests/system -c $< -o $@

$(BUILD)/system/filter_equal.skel.h: $(BUILD)/system/filter_equal.bpf.o
	@echo "  SKEL    $@"
	$(Q)$(BPFTOOL) gen skeleton $< name filter_equal_bpf > $@.tmp && mv $@.tmp $@

FE_SRCS    := tests/system/filter_equal.c tests/system/filter_equal_packets.c \
	      tests/system/filter_equal_kernel.c tests/system/filter_equal_cases.c
$(FILTER_EQ): $(FE_SRCS) $(wildcard tests/system/filter_equal*.h) \
		$(BUILD)/system/filter_equal.skel.h $(BUILD)/libwhydrop.a
	@echo "  TEST    $@"
	$(Q)$(CC) $(WD_CFLAGS) -Itests/system -I$(BUILD)/system $(WD_LDFLAGS) -o $@ $(FE_SRCS) \
		$(BUILD)/libwhydrop.a $(LDLIBS)
# ---- end of tests/system/filter_equal

# ---- tests/system/nftrace_drive (tests/system/nftrace.sh): the library half of
# --rules (nftables traces, whydrop's table, rule text, conntrack) and a small
# tp_btf program splitting NETFILTER_DROP by the skb's nf_trace bit. Built with unit-bins.
NFTRACE_DRIVE := $(BUILD)/system/nftrace_drive
unit-bins: $(NFTRACE_DRIVE)

$(BUILD)/system/nftrace_bpf.bpf.o: tests/system/nftrace_bpf.bpf.c src/bpf/core_types.h
	@mkdir -p $(@D)
	@echo "  BPF     $@"
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(BUILD)/system/nftrace_bpf.skel.h: $(BUILD)/system/nftrace_bpf.bpf.o
	@echo "  SKEL    $@"
	$(Q)$(BPFTOOL) gen skeleton $< name nftrace_bpf > $@.tmp && mv $@.tmp $@

$(NFTRACE_DRIVE): tests/system/nftrace_drive.c $(BUILD)/system/nftrace_bpf.skel.h $(BUILD)/libwhydrop.a
	@echo "  TEST    $@"
	$(Q)$(CC) $(WD_CFLAGS) -I$(BUILD)/system $(WD_LDFLAGS) -o $@ $< $(BUILD)/libwhydrop.a $(LDLIBS)
# ---- end of tests/system/nftrace_drive

# ---- tests/system/tcp_events.sh's driver of src/core/tcp_events.c (the TCP
# events program, loaded by nothing else yet). Built with unit-bins.
TCP_DRIVER := $(BUILD)/system/tcp_events_driver
unit-bins: $(TCP_DRIVER)

$(TCP_DRIVER): tests/system/tcp_events_driver.c $(BUILD)/libwhydrop-core.a $(BUILD)/libwhydrop.a
	@mkdir -p $(@D)
	@echo "  TEST    $@"
	$(Q)$(CC) $(WD_CFLAGS) $(WD_LDFLAGS) -o $@ $< $(BUILD)/libwhydrop-core.a \
		$(BUILD)/libwhydrop.a $(LDLIBS)

run: deps
	@$(MAKE) --no-print-directory all
	@if [ "$$(id -u)" -ne 0 ]; then echo "make run: whydrop attaches BPF programs; run as root (sudo make run)" >&2; exit 1; fi
	./$(BUILD)/whydrop top

# Every test, normal and sanitized builds; the last line is "N passed, N failed".
test: deps-test
	@$(MAKE) --no-print-directory all unit-bins
	@$(MAKE) --no-print-directory asan
	@$(MAKE) --no-print-directory fuzz-bins
	@tests/run-all.sh

# The sanitized build (ASan + UBSan + LeakSanitizer) that make test also runs.
asan:
	@$(MAKE) --no-print-directory BUILD=build/asan SAN=1 OPT="-O1 -g" all unit-bins

unit-bins: $(UNIT_BINS)

unit: all unit-bins
	@tests/unit/run.sh $(BUILD)

lab: all
	@tests/lab/run.sh

# The lab on a host set up like a container/Kubernetes node: ip_forward=1, IPv6
# forwarding, br_netfilter with bridge-nf-call-*=1; every value put back after (also in
# make test).
test-hostile: all
	@tests/lab/hostile.sh

bench: all
	@bench/run.sh

# RSS and refresh/scrape time after 10^4, 10^5, 10^6 short-lived sockets (~10 min).
bench-memory: all
	@bench/memory.sh

# Drop storms: count/top/watch/serve 60 s each (`make test` runs 5 s each).
stress: all
	@tests/stress/run.sh $(or $(STRESS_SECONDS),60)

# Debian 12's 6.1 and 6.12 cloud kernels in QEMU (TCG), the same build/whydrop inside (~1 min)
test-vm: all
	@tests/vm/run.sh

# docs/reasons.md and the reasons part of docs/whydrop.8 come from the catalogue,
# and so does the runbook text of the Prometheus alerts (tests/fleet/run.sh
# fails when contrib/prometheus/whydrop-rules.yml is stale).
docs: all
	@scripts/gen-docs.sh $(BUILD)/whydrop
	@scripts/gen-prometheus-rules.py --whydrop $(BUILD)/whydrop >$(BUILD)/whydrop-rules.yml
	@mv $(BUILD)/whydrop-rules.yml contrib/prometheus/whydrop-rules.yml
	@echo "gen-prometheus-rules: contrib/prometheus/whydrop-rules.yml regenerated"

# libFuzzer targets (clang): `make fuzz FUZZ_SECONDS=300` for a long run.
FUZZ_SECONDS ?= 60
FUZZ_SRCS  := $(wildcard tests/fuzz/fuzz_*.c)
FUZZ_BINS  := $(FUZZ_SRCS:tests/fuzz/%.c=build/fuzz/%)
FUZZ_CLI   := build/fuzz/cli/options.o build/fuzz/cli/option_checks.o build/fuzz/cli/option_values.o build/fuzz/cli/option_table.o build/fuzz/cli/help.o build/fuzz/cli/http.o

fuzz-bins:
	@$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang SAN=1 \
		OPT="-O1 -g -fsanitize=fuzzer-no-link" build/fuzz/libwhydrop.a $(FUZZ_CLI)
	@$(MAKE) --no-print-directory $(FUZZ_BINS)

build/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(wildcard tests/fuzz/*.h) build/fuzz/libwhydrop.a $(FUZZ_CLI)
	@echo "  FUZZ    $@"
	$(Q)clang -O1 -g -fsanitize=fuzzer,address,undefined $(LIB_INC) -Isrc/core -Isrc/cli -Isrc/bpf \
		-D_GNU_SOURCE -o $@ $< $(FUZZ_CLI) build/fuzz/libwhydrop.a $(LDLIBS)

fuzz: fuzz-bins
	@tests/fuzz/run.sh $(FUZZ_SECONDS)

# make install [PREFIX=/usr/local] [DESTDIR=] [SYSTEMDUNITDIR=/etc/systemd/system]:
# binary, man page, bash completion, Prometheus rules and Grafana dashboard
# (PREFIX/share/whydrop), systemd unit (never enabled here). The unit's
# ExecStart follows PREFIX. debian/rules runs this with PREFIX=/usr
# SYSTEMDUNITDIR=/lib/systemd/system (tests/package/run.sh checks the result).
PREFIX     ?= /usr/local
SYSTEMDUNITDIR ?= /etc/systemd/system
install: all
	install -D -m 0755 $(BUILD)/whydrop $(DESTDIR)$(PREFIX)/bin/whydrop
	install -D -m 0644 docs/whydrop.8 $(DESTDIR)$(PREFIX)/share/man/man8/whydrop.8
	install -D -m 0644 contrib/whydrop.bash-completion \
		$(DESTDIR)$(PREFIX)/share/bash-completion/completions/whydrop
	install -D -m 0644 contrib/prometheus/whydrop-rules.yml \
		$(DESTDIR)$(PREFIX)/share/whydrop/prometheus/whydrop-rules.yml
	install -D -m 0644 contrib/grafana/whydrop.json \
		$(DESTDIR)$(PREFIX)/share/whydrop/grafana/whydrop.json
	install -d -m 0755 $(DESTDIR)$(SYSTEMDUNITDIR)
	sed 's|^ExecStart=/usr/local/bin/whydrop |ExecStart=$(PREFIX)/bin/whydrop |' \
		contrib/whydrop.service > $(DESTDIR)$(SYSTEMDUNITDIR)/whydrop.service
	chmod 0644 $(DESTDIR)$(SYSTEMDUNITDIR)/whydrop.service
	@grep -q '^ExecStart=$(PREFIX)/bin/whydrop ' $(DESTDIR)$(SYSTEMDUNITDIR)/whydrop.service || \
		{ echo "make install: contrib/whydrop.service has no 'ExecStart=/usr/local/bin/whydrop '" >&2; exit 1; }

clean:
	rm -rf build
