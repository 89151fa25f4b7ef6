# SPDX-License-Identifier: GPL-2.0-or-later
# table.awk - bench/kernel/run.sh's table from "SIZE NAME MEDIUM BYTES"
# lines (the host's) followed by the guest's "BENCH NAME WHAT KEY=VALUE..."
# lines.  Every figure also as a ratio to the reference row, sqfs-128K.
function kv(what,   i, p) {
	for (i = 4; i <= NF; i++) {
		p = index($i, "=")
		if (p) val[$2, what, substr($i, 1, p - 1)] = substr($i, p + 1)
	}
}
function ratio(x, r) {
	return (r > 0 && x != "") ? sprintf(" (%.2f)", x / r) : ""
}
function cell(name, k, fmt) {
	return f[name, k] == "" ? "n/a" : sprintf(fmt, f[name, k]) ratio(f[name, k], f[REF, k])
}
BEGIN { REF = "sqfs-128K" }
$1 == "SIZE" { order[++n] = $2; medium[$2] = $3; f[$2, "size"] = $4 / 1024; next }
$1 != "BENCH" { next }
$3 == "seq" || $3 == "rand" || $3 == "mem0" || $3 == "mem1" { kv($3); next }
$3 == "prog" { kv("prog"); first[$2] += val[$2, "prog", "first_ms"]
	if (val[$2, "prog", "status"] != 0) bad[$2]++; progs[$2]++; next }
$3 == "error" { err[$2] = 1 }
END {
	for (i = 1; i <= n; i++) {
		s = order[i]
		if (val[s, "seq", "ms"] > 0)
			f[s, "mibs"] = val[s, "seq", "bytes"] / 1048576 / (val[s, "seq", "ms"] / 1000)
		f[s, "sys"] = val[s, "seq", "sys_ms"] / 1000
		f[s, "p50"] = val[s, "rand", "p50_us"]
		f[s, "p99"] = val[s, "rand", "p99_us"]
		f[s, "first"] = progs[s] ? first[s] : ""
		f[s, "cache"] = val[s, "mem1", "Cached"] - val[s, "mem0", "Cached"]
		f[s, "ram"] = (val[s, "mem0", "MemFree"] + val[s, "mem0", "PcpFree"]) - \
			(val[s, "mem1", "MemFree"] + val[s, "mem1", "PcpFree"])
		if (err[s] || !(s SUBSEP "seq" SUBSEP "ms" in val))
			for (k in f) { split(k, kk, SUBSEP); if (kk[1] == s && kk[2] != "size") f[k] = "" }
	}
	print "| file system | medium | image KiB | cold seq read MiB/s | seq read sys CPU s | 4K random read p50 µs | p99 µs | first output, programs summed, ms | page cache after programs KiB | RAM used after programs KiB |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= n; i++) {
		s = order[i]
		printf "| %s | %s | %s | %s | %s | %s | %s | %s%s | %s | %s |\n", s, medium[s],
			cell(s, "size", "%.0f"), cell(s, "mibs", "%.1f"), cell(s, "sys", "%.2f"),
			cell(s, "p50", "%.0f"), cell(s, "p99", "%.0f"), cell(s, "first", "%.0f"),
			bad[s] ? sprintf(" [%d failed]", bad[s]) : "",
			cell(s, "cache", "%.0f"), cell(s, "ram", "%.0f")
	}
	print ""
	print "In parentheses: the ratio to " REF " (lower is better except MiB/s)."
}
