# The report of bench/run.sh, which sources it: what is computed from the
# measures (R[...]) once the storms are over -- medians over the rounds, the
# ratios, the exactness, the start-up timings -- and how it is printed: one
# table per storm, the summary, FAILED:, then the key=value lines. Functions
# only; run.sh calls them at the end, in this order:
#   compute_results  M[...] and the other results from R and the raw outputs
#   print_tables     the header, then one table per storm
#   print_summary    the summary table and the other measures
#   print_failures   FAILED: and the reasons, if any
#   print_kv         "# key=value" and the key=value lines
# See bench/README.md for every row and every key.
# shellcheck shell=bash

# --- numbers --------------------------------------------------------------------
num() { [[ ${1:-} =~ ^-?[0-9]+(\.[0-9]+)?$ ]]; }
# values of R[$1.1..ROUNDS] that are set, one a line
vals() { local r; for ((r = 1; r <= ROUNDS; r++)); do [ -n "${R[$1.$r]:-}" ] && echo "${R[$1.$r]}"; done; }
# median of R[key.1..ROUNDS] (empty values skipped)
median() {
	vals "$1" | sort -g | awk -v f="${2:-%.0f}" '{ a[NR] = $1 }
		END { if (NR) printf f "\n", NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'
}
# spread of a key over the rounds: (max - min) / median, in %
spread() {
	vals "$1" | sort -g | awk '{ a[NR] = $1 } END { if (NR > 1) { m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2; if (m > 0) printf "%.0f\n", (a[NR] - a[1]) * 100 / m } }'
}
sum() { vals "$1" | awk '{ s += $1; n++ } END { if (n) printf "%.0f\n", s }'; }
sub() { num "${1:-}" && num "${2:-}" || { echo; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f\n", a - b }'; }
div() { num "${1:-}" && num "${2:-}" || { echo; return; }
	awk -v a="$1" -v b="$2" -v f="${3:-%.1f}" 'BEGIN { if (b == 0) print ""; else printf f "\n", a / b }'; }
pct() { num "${1:-}" && num "${2:-}" || { echo; return; }
	awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print ""; else printf "%+.1f\n", (a - b) * 100 / b }'; }
na() { echo "${1:-n/a}"; }
# target state: met, not_met, n/a
judge() { # value op limit
	num "${1:-}" || { echo n/a; return; }
	awk -v x="$1" -v l="$3" -v op="$2" 'BEGIN { ok = op == "<=" ? x <= l : op == "<" ? x < l : x == l
		print ok ? "met" : "not_met" }'
}
shown() { case $1 in met) echo met ;; not_met) echo "NOT met" ;; *) echo n/a ;; esac; }

# --- results --------------------------------------------------------------------
declare -A M	# computed results: M[storm.tracer.measure], M[storm.measure]
# bpftrace's own counts (all namespaces) against the kernel's for our storms
declare -A BT_CNT BT_KERNEL

# M[storm.*]: the medians of one storm's measures, its ratios and exactness.
compute_storm() { # storm
	local s=$1 t r
	for t in "${TRACERS[@]}"; do
		M[$s.$t.dps]=$(median "$t.$s.dps")
		M[$s.$t.cns]=$(median "$t.$s.cns" %.1f)
		M[$s.$t.util]=$(median "$t.$s.util" %.2f)
		M[$s.$t.ns]=$(median "$t.$s.ns" %.1f)
		M[$s.$t.runs]=$(sum "$t.$s.cnt")
		M[$s.$t.drops]=$(sum "$t.$s.drops")
	done
	M[$s.floor]=${M[$s.empty.ns]}
	M[$s.whydrop.net]=$(sub "${M[$s.whydrop.ns]}" "${M[$s.floor]}")
	M[$s.bpftrace.net]=$(sub "${M[$s.bpftrace.ns]}" "${M[$s.floor]}")
	M[$s.ratio]=$(div "${M[$s.whydrop.net]}" "${M[$s.bpftrace.net]}" %.2f)
	M[$s.raw_ratio]=$(div "${M[$s.whydrop.ns]}" "${M[$s.bpftrace.ns]}" %.2f)
	M[$s.target]=$(judge "${M[$s.ratio]}" "<=" 0.5)
	M[$s.spread]=$(spread "empty.$s.dps")
	# exactness over the whydrop rounds: the kernel's count against whydrop's
	M[$s.kernel]=$(sum "whydrop.$s.drops")
	M[$s.counted]=$(sum "whydrop.$s.counted")
	M[$s.missing]=
	num "${M[$s.kernel]}" && num "${M[$s.counted]}" && M[$s.missing]=$((${M[$s.kernel]} - ${M[$s.counted]}))
	M[$s.exact]=$(judge "${M[$s.missing]}" "==" 0)
	M[$s.other]=$(for ((r = 1; r <= ROUNDS; r++)); do
		[ -n "${R[whydrop.$s.other.$r]:-}" ] && echo "round $r: ${R[whydrop.$s.other.$r]}"; done | paste -sd';' -)
	M[$s.cpu_ms]=$(sum "whydrop.$s.cpu_ms")
}

compute_results() {
	local s reason code
	for s in "${STORMS[@]}"; do compute_storm "$s"; done
	LOST_EVENTS=$(sum whydrop.lost_events)
	WD_CPU=$(for s in "${STORMS[@]}"; do echo "${M[$s.cpu_ms]:-}"; done | awk 'NF { s += $1; n++ } END { if (n) print s }')
	WD_STORM_S=$(awk -v d="$DUR" -v n="${#STORMS[@]}" -v r="$ROUNDS" 'BEGIN { print d * n * r }')
	WD_CPU_PCT=$(div "$WD_CPU" "$(awk -v s="$WD_STORM_S" 'BEGIN { print s * 10 }')")
	WD_SESSION_CPU=$(median whydrop.session_cpu_ms)
	OTHER_NS=$(div "${R[other.rt]:-}" "${R[other.cnt]:-}")
	ST_MED=$(kv "$TMP/startup.out" median_ms) ST_MIN=$(kv "$TMP/startup.out" min_ms)
	ST_MAX=$(kv "$TMP/startup.out" max_ms)
	SF_MED=$(kv "$TMP/startup_filtered.out" median_ms) SF_MIN=$(kv "$TMP/startup_filtered.out" min_ms)
	SF_MAX=$(kv "$TMP/startup_filtered.out" max_ms)
	SC_WALL=$(kv "$TMP/startup_concurrent.out" wall_median_ms)
	SC_INST=$(kv "$TMP/startup_concurrent.out" instance_median_ms)
	SC_IMAX=$(kv "$TMP/startup_concurrent.out" instance_max_ms)
	T_ST=$(judge "$ST_MED" "<" 200)
	T_SF=$(judge "$SF_MED" "<" 200)
	for s in "${STORMS[@]}"; do
		reason=${S_REASON[$s]}
		BT_KERNEL[$reason]=$(( ${BT_KERNEL[$reason]:-0} + ${M[$s.bpftrace.drops]:-0} ))
	done
	for reason in "${!BT_KERNEL[@]}"; do
		code=$(reason_code "$reason")
		[ -n "$code" ] || continue
		BT_CNT[$reason]=$(cat "$TMP"/bpftrace.*.out 2>/dev/null | sed -n "s/^@\[$code\]: //p" |
			awk '{ s += $1 } END { print s + 0 }')
	done
}

# --- tables ---------------------------------------------------------------------
cols() { # label values...: one row of a storm table
	local label=$1 t v
	shift
	printf '%-36s' "$label"
	for v in "$@"; do printf ' %14s' "$v"; done
	echo
}

print_header() {
	echo
	echo "whydrop benchmark: kernel $KERNEL, $NCPU CPUs, ${WD_VERSION:-whydrop n/a}"
	echo "UDP drop storms over loopback, each in its own netns ($NSB-STORM), sendmmsg x64;"
	echo "${DUR}s per storm, $ROUNDS rounds; each round every tracer sees every storm, orders rotated."
	echo "BPF ns per drop = run_time_ns / run_cnt of the tracer's own programs (kernel.bpf_stats_enabled=1),"
	echo "median of the rounds; the empty program (bpftrace '$EMPTY_PROG', 2 instructions)"
	echo "is the floor: bpf_stats' own clock reads and the program's entry."
	echo "CPUs ${BUSY0}% busy (by others) before start; load average before $LOAD0, after $LOAD1"
	[ "${R[foreign]:-0}" -gt 0 ] &&
		echo "WARNING: up to ${R[foreign]} other kfree_skb BPF program(s) of other processes were loaded during" &&
		echo "         the run; they run on every drop too, so drops/s are lower than on a quiet machine."
	[ "$STATS_RESET" -gt 0 ] &&
		echo "WARNING: kernel.bpf_stats_enabled was turned off by another process $STATS_RESET time(s) during the run"
}

print_storm_table() { # storm
	local s=$1 t r hdr=() row=()
	echo
	echo "== storm $s: ${S_WHAT[$s]}"
	echo "   drop reason ${S_REASON[$s]}; $(storm_kv "$s" threads) sender thread(s)"
	[ -n "${M[$s.spread]}" ] && [ "${M[$s.spread]}" -gt 15 ] &&
		echo "   WARNING: drops/s under the empty program differ by ${M[$s.spread]}% between rounds: the machine is busy"
	hdr=() ; for t in "${TRACERS[@]}"; do hdr+=("${T_TITLE[$t]}"); done
	cols "" "${hdr[@]}"
	row=(); for t in "${TRACERS[@]}"; do row+=("$(na "${M[$s.$t.dps]}")"); done
	cols "drops/s, median" "${row[@]}"
	row=(); for t in "${TRACERS[@]}"; do
		[ "$t" = empty ] || [ "$t" = none ] && { row+=(""); continue; }
		row+=("$(pct "${M[$s.$t.dps]}" "${M[$s.empty.dps]}")"); done
	cols "  change vs empty program (%)" "${row[@]}"
	row=(); for t in "${TRACERS[@]}"; do row+=("$(na "${M[$s.$t.cns]}")"); done
	cols "sender CPU ns per datagram, median" "${row[@]}"
	for ((r = 1; r <= ROUNDS; r++)); do
		row=(); for t in "${TRACERS[@]}"; do row+=("${R[$t.$s.ns.$r]:-}"); done
		cols "BPF ns per drop, round $r" "${row[@]}"
	done
	row=(); for t in "${TRACERS[@]}"; do
		[ "$t" = none ] && { row+=(""); continue; }
		row+=("$(na "${M[$s.$t.ns]}")"); done
	cols "BPF ns per drop, median" "${row[@]}"
	row=(); for t in "${TRACERS[@]}"; do
		case $t in whydrop | bpftrace) row+=("$(na "${M[$s.$t.net]}")") ;; *) row+=("") ;; esac; done
	cols "  minus the empty program" "${row[@]}"
	row=(); for t in "${TRACERS[@]}"; do
		[ "$t" = none ] && { row+=(""); continue; }
		row+=("$(na "${M[$s.$t.runs]}")"); done
	cols "BPF program runs counted" "${row[@]}"
	printf '%-52s %10s   %s\n' "judged ratio (whydrop - empty) / (bpftrace - empty)" \
		"$(na "${M[$s.ratio]}")" "target <= 0.50: $(shown "${M[$s.target]}")"
	printf '%-52s %10s\n' "raw ratio whydrop / bpftrace" "$(na "${M[$s.raw_ratio]}")"
	echo "${S_REASON[$s]} drops, sum of the whydrop rounds:"
	printf '  %-50s %10s\n' "kernel: ${S_COUNTER[$s]}" "$(na "${M[$s.kernel]}")"
	printf '  %-50s %10s\n' "whydrop count: its count in the storm's netns" "$(na "${M[$s.counted]}")"
	printf '  %-50s %10s   %s\n' "lost counts (kernel - whydrop)" \
		"$(na "${M[$s.missing]}")" "0: $(shown "${M[$s.exact]}")"
	[ -n "${M[$s.other]}" ] && printf '  %-50s %s\n' "other reasons whydrop saw in the storm's netns" "${M[$s.other]}"
}

print_tables() {
	local s
	print_header
	for s in "${STORMS[@]}"; do print_storm_table "$s"; done
}

print_summary() {
	local s ex reason
	echo
	echo "== summary: medians of the rounds; judged ratio = (whydrop - empty) / (bpftrace - empty), BPF ns"
	printf '%-12s %27s   %26s   %-15s %s\n' "" "drops/s" "BPF ns per drop" "judged ratio" "whydrop's count"
	printf '%-12s %8s %9s %9s   %8s %8s %8s   %-15s %s\n' storm empty whydrop bpftrace empty whydrop bpftrace "(<= 0.50)" "= the kernel's"
	for s in "${STORMS[@]}"; do
		ex="$(na "${M[$s.counted]}") = $(na "${M[$s.kernel]}")"
		[ "${M[$s.exact]}" = not_met ] && ex="$(na "${M[$s.counted]}") != $(na "${M[$s.kernel]}") NOT exact"
		printf '%-12s %8s %9s %9s   %8s %8s %8s   %-15s %s\n' "$s" "$(na "${M[$s.empty.dps]}")" \
			"$(na "${M[$s.whydrop.dps]}")" "$(na "${M[$s.bpftrace.dps]}")" \
			"$(na "${M[$s.empty.ns]}")" "$(na "${M[$s.whydrop.ns]}")" "$(na "${M[$s.bpftrace.ns]}")" \
			"$(na "${M[$s.ratio]}") $(shown "${M[$s.target]}")" "$ex"
	done
	echo
	printf '%-58s %-24s %s\n' "measure" "value" "target"
	printf '%-58s %-24s %s\n' "whydrop lost_events (all rounds)" "$(na "$LOST_EVENTS")" "0: $(shown "$(judge "$LOST_EVENTS" == 0)")"
	printf '%-58s %-24s\n' "whydrop --netns <other>: BPF ns per drop (${R[other.storm]:-n/a})" "$(na "$OTHER_NS")"
	printf '%-58s %-24s %s\n' "whydrop --netns <other>: drops counted" "$(na "${R[other.total]:-}")" "0 (the storm is not there)"
	printf '%-58s %-24s\n' "whydrop CPU during the storms (${WD_STORM_S}s)" "$(na "$WD_CPU") ms ($(na "$WD_CPU_PCT")% of a CPU)"
	printf '%-58s %-24s\n' "whydrop CPU, start to end of a session, median" "$(na "$WD_SESSION_CPU") ms"
	printf '%-58s %-24s %s\n' "start-to-attached, median of $STARTS (min..max), ms" \
		"$(na "$ST_MED") ($(na "$ST_MIN")..$(na "$ST_MAX"))" "< 200: $(shown "$T_ST")"
	printf '%-58s %-24s %s\n' "  with '$FILTER'" \
		"$(na "$SF_MED") ($(na "$SF_MIN")..$(na "$SF_MAX"))" "< 200: $(shown "$T_SF")"
	printf '%-58s %-24s\n' "  $CONC of them at once: wall time until all attached, ms" "$(na "$SC_WALL")"
	printf '%-58s %-24s\n' "    each instance, exec to attached: median (max), ms" "$(na "$SC_INST") ($(na "$SC_IMAX"))"
	for reason in $(printf '%s\n' "${!BT_CNT[@]}" | sort); do
		printf '%-58s %-24s %s\n' "bpftrace @[$reason] (all netns)" "${BT_CNT[$reason]}" \
			">= ${BT_KERNEL[$reason]} (kernel, our storms)"
	done
}

print_failures() {
	[ ${#FAILURES[@]} -gt 0 ] && { echo; echo "FAILED:"; printf '  %s\n' "${FAILURES[@]}"; }
}

# --- key=value ------------------------------------------------------------------
print_kv() {
	local s t o reason
	echo
	echo "# key=value"
	{
		echo "bench.kernel=$KERNEL"
		echo "bench.cpus=$NCPU"
		echo "bench.whydrop_version=$WD_VERSION"
		echo "bench.storm_duration_s=$DUR"
		echo "bench.rounds=$ROUNDS"
		echo "bench.storms=${STORMS[*]}"
		echo "bench.tracers=${TRACERS[*]}"
		echo "bench.cpu_busy_before_pct=$BUSY0"
		echo "bench.foreign_kfree_skb_progs=${R[foreign]:-0}"
		echo "bench.bpf_stats_resets=$STATS_RESET"
		for s in "${STORMS[@]}"; do
			echo "bench.$s.reason=${S_REASON[$s]}"
			echo "bench.$s.threads=$(storm_kv "$s" threads)"
			for t in "${TRACERS[@]}"; do
				echo "bench.$s.$t.drops_per_s=${M[$s.$t.dps]}"
				echo "bench.$s.$t.cpu_ns_per_datagram=${M[$s.$t.cns]}"
				[ "$t" = none ] && continue
				echo "bench.$s.$t.ns_per_drop=${M[$s.$t.ns]}"
				echo "bench.$s.$t.ns_per_drop_rounds=$(vals "$t.$s.ns" | paste -sd, -)"
				echo "bench.$s.$t.bpf_runs=${M[$s.$t.runs]}"
			done
			echo "bench.$s.whydrop.ns_per_drop_net=${M[$s.whydrop.net]}"
			echo "bench.$s.bpftrace.ns_per_drop_net=${M[$s.bpftrace.net]}"
			echo "bench.$s.ratio=${M[$s.ratio]}"
			echo "bench.$s.ratio_raw=${M[$s.raw_ratio]}"
			echo "bench.$s.target_ratio_half=${M[$s.target]}"
			echo "bench.$s.kernel_drops=${M[$s.kernel]}"
			echo "bench.$s.whydrop.counted=${M[$s.counted]}"
			echo "bench.$s.whydrop.lost_counts=${M[$s.missing]}"
			echo "bench.$s.target_exact=${M[$s.exact]}"
			echo "bench.$s.whydrop.cpu_ms=${M[$s.cpu_ms]}"
		done
		echo "bench.whydrop.lost_events=$LOST_EVENTS"
		echo "bench.whydrop.cpu_ms=$WD_CPU"
		echo "bench.whydrop.cpu_pct=$WD_CPU_PCT"
		echo "bench.whydrop.session_cpu_ms=$WD_SESSION_CPU"
		echo "bench.whydrop.other_netns.storm=${R[other.storm]:-}"
		echo "bench.whydrop.other_netns.ns_per_drop=$OTHER_NS"
		echo "bench.whydrop.other_netns.counted=${R[other.total]:-}"
		echo "bench.startup.unfiltered.median_ms=$ST_MED"
		echo "bench.startup.unfiltered.min_ms=$ST_MIN"
		echo "bench.startup.unfiltered.max_ms=$ST_MAX"
		echo "bench.startup.unfiltered.target_200ms=$T_ST"
		echo "bench.startup.filtered.expression=$FILTER"
		echo "bench.startup.filtered.median_ms=$SF_MED"
		echo "bench.startup.filtered.min_ms=$SF_MIN"
		echo "bench.startup.filtered.max_ms=$SF_MAX"
		echo "bench.startup.filtered.target_200ms=$T_SF"
		echo "bench.startup.concurrent.instances=$CONC"
		echo "bench.startup.concurrent.wall_ms=$SC_WALL"
		echo "bench.startup.concurrent.instance_median_ms=$SC_INST"
		echo "bench.startup.concurrent.instance_max_ms=$SC_IMAX"
		for reason in $(printf '%s\n' "${!BT_CNT[@]}" | sort); do
			echo "bench.bpftrace.count.$reason=${BT_CNT[$reason]}"
			echo "bench.bpftrace.kernel.$reason=${BT_KERNEL[$reason]}"
		done
		for o in stacks group_by_cgroup filter; do
			[ -n "${OPT[$o.with]:-}" ] || continue
			echo "bench.option.$o.count_ns_per_drop=${OPT[$o.plain]}"
			echo "bench.option.$o.with_ns_per_drop=${OPT[$o.with]}"
			echo "bench.option.$o.extra_ns_per_drop=${OPT[$o.extra]}"
		done
		for o in "${FO_MODES[@]}"; do
			[ -n "${FO[$o.ns]:-}" ] || continue
			echo "bench.filtered_out.$o.ns_per_drop=${FO[$o.ns]}"
			echo "bench.filtered_out.$o.counted=${FO[$o.counted]}"
		done
		echo "bench.failures=${#FAILURES[@]}"
		echo "bench.wall_s=$((T_END - T_START))"
	}
}
