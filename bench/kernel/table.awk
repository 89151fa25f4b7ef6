# SPDX-License-Identifier: GPL-2.0-or-later
# table.awk - bench/kernel/run.sh's table from "SIZE NAME MEDIUM BYTES"
# lines (the host's), then for each measured boot a "BOOT N" line followed
# by that guest's "BENCH NAME WHAT KEY=VALUE..." lines.
#
# Every figure is the median of the boots, with its spread, (max - min) /
# median, in brackets when there is more than one boot, and its ratio to
# the reference row, sqfs-128K: the median of the per-boot ratios.  A
# ratio is a result when there were at least 3 boots and every boot's
# ratio lies within +-10 % of that median; the others carry a "?".  Image
# sizes are the host's, the same in every boot: always results.
#   -v CLOCK="..."  how the guest's times were taken (the table's legend)
# Then the acceptance checks of issue 29 for the rows present: each on the
# median ratio, a result as above, or, when the boots' ratios do not
# agree within +-10 % (figures of a page or two, near 0) but every boot's
# own ratio gives the same verdict, that verdict "in each of the boots".
function kv(what,   i, p) {
	for (i = 4; i <= NF; i++) {
		p = index($i, "=")
		if (p) val[boot, $2, what, substr($i, 1, p - 1)] = substr($i, p + 1)
	}
}
# median of a[1..n], sorted in place
function median(a, n,   i, j, t) {
	for (i = 2; i <= n; i++)
		for (j = i; j > 1 && a[j - 1] > a[j]; j--) {
			t = a[j]; a[j] = a[j - 1]; a[j - 1] = t
		}
	return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
# Sets M (median), SPREAD ((max - min) / median, -1 if undefined) and N
# (boots with the figure) of figure k of row s.
function stat(s, k,   b, a) {
	N = 0
	for (b = 1; b <= boots; b++)
		if (f[b, s, k] != "") a[++N] = f[b, s, k] + 0
	if (!N) { M = ""; SPREAD = -1; return }
	M = median(a, N)
	SPREAD = M > 0 ? (a[N] - a[1]) / M : (a[N] == a[1] ? 0 : -1)
}
# Sets R (median of the per-boot ratios s/r of figure k, "" if none), OK
# (1 when it is a result), RN (the boots with a ratio), LO and HI (the
# lowest and highest ratio).
function ratio(s, r, k,   b, a, n, i) {
	n = 0
	for (b = 1; b <= boots; b++)
		if (f[b, s, k] != "" && f[b, r, k] > 0)
			a[++n] = f[b, s, k] / f[b, r, k]
	RN = n
	if (!n) { R = ""; OK = 0; return }
	R = median(a, n)	# sorts a
	LO = a[1]; HI = a[n]
	OK = (k == "size") || (n >= 3 && n == boots)
	# Within +-10 % of R; a median of 0 (a figure of 0 in a row) is a
	# result only if every boot's ratio is 0.
	if (k != "size")
		for (i = 1; i <= n; i++)
			if (R < 0 || a[i] < R * 0.9 || a[i] > R * 1.1) OK = 0
}
function cell(s, k, fmt,   out) {
	stat(s, k)
	if (M == "") return "n/a"
	out = sprintf(fmt, M)
	if (boots > 1 && k != "size")
		out = out (SPREAD < 0 ? " [n/a]" : sprintf(" [%.0f%%]", SPREAD * 100))
	ratio(s, REF, k)
	if (R != "") out = out sprintf(" (%.2f%s)", R, OK ? "" : "?")
	return out
}
# Whether every boot has a ratio (after ratio()) and each gives the
# verdict pass: the verdict is monotone in the ratio, so the lowest and
# the highest decide.
function every_boot(op, limit, pass) {
	if (RN != boots) return 0
	if (op == "<=") return pass ? HI <= limit : LO > limit
	return pass ? LO >= limit : HI < limit
}
# One acceptance check: figure k of row a over row b, against LIMIT.
function check(what, a, b, k, op, limit,   pass, why) {
	if (!((a, "present") in row) || !((b, "present") in row)) return
	ratio(a, b, k)
	if (R == "") { printf "- %s: n/a (no figure)\n", what; return }
	pass = op == "<=" ? R <= limit : R >= limit
	if (OK) why = ""
	else if (boots < 3) why = sprintf(" (not a result: %d boot%s)", boots, boots > 1 ? "s" : "")
	else if (every_boot(op, limit, pass))
		# Figures near 0 (a page more or less) cannot agree within
		# +-10 %, but a verdict every boot gives is still one.
		why = sprintf(" in each of the %d boots (ratios %.2f to %.2f: not within 10 %% of each other, the same verdict)", boots, LO, HI)
	else why = " (not a result: the boots disagree by more than 10 %)"
	printf "- %s: %.2f %s %.2f: %s%s\n", what, R, op, limit, pass ? "holds" : "FAILS", why
}
BEGIN { REF = "sqfs-128K"; boot = 0 }
$1 == "SIZE" { order[++n] = $2; medium[$2] = $3; size[$2] = $4 / 1024
	row[$2, "present"] = 1; next }
$1 == "BOOT" { boot = $2; boots = boot > boots ? boot : boots; next }
$1 != "BENCH" { next }
$3 == "seq" || $3 == "rand" || $3 == "mem0" || $3 == "mem1" { kv($3); next }
$3 == "prog" { kv("prog"); first[boot, $2] += val[boot, $2, "prog", "first_ms"]
	if (val[boot, $2, "prog", "status"] != 0) bad[boot, $2]++
	progs[boot, $2]++; next }
$3 == "error" { err[boot, $2] = 1 }
END {
	if (!boots) boots = 1
	for (b = 1; b <= boots; b++)
		for (i = 1; i <= n; i++) {
			s = order[i]
			f[b, s, "size"] = size[s]
			if (err[b, s] || !((b, s, "seq", "ms") in val)) {
				failed[s]++
				continue
			}
			if (val[b, s, "seq", "ms"] > 0)
				f[b, s, "mibs"] = val[b, s, "seq", "bytes"] / 1048576 / (val[b, s, "seq", "ms"] / 1000)
			f[b, s, "sys"] = val[b, s, "seq", "sys_ms"] / 1000
			f[b, s, "p50"] = val[b, s, "rand", "p50_us"]
			f[b, s, "p99"] = val[b, s, "rand", "p99_us"]
			f[b, s, "first"] = progs[b, s] ? first[b, s] : ""
			f[b, s, "cache"] = val[b, s, "mem1", "Cached"] - val[b, s, "mem0", "Cached"]
			f[b, s, "ram"] = (val[b, s, "mem0", "MemFree"] + val[b, s, "mem0", "PcpFree"]) - \
				(val[b, s, "mem1", "MemFree"] + val[b, s, "mem1", "PcpFree"])
			if (bad[b, s] > nbad[s]) nbad[s] = bad[b, s]
		}
	print "| file system | medium | image KiB | cold seq read MiB/s | seq read sys CPU s | 4K random read p50 µs | p99 µs | first output, programs summed, ms | page cache after programs KiB | RAM used after programs KiB |"
	print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	for (i = 1; i <= n; i++) {
		s = order[i]
		printf "| %s | %s | %s | %s | %s | %s | %s | %s%s | %s | %s |\n", s, medium[s],
			cell(s, "size", "%.0f"), cell(s, "mibs", "%.1f"), cell(s, "sys", "%.2f"),
			cell(s, "p50", "%.0f"), cell(s, "p99", "%.0f"), cell(s, "first", "%.0f"),
			nbad[s] ? sprintf(" [%d failed]", nbad[s]) : "",
			cell(s, "cache", "%.0f"), cell(s, "ram", "%.0f")
	}
	print ""
	printf "Times: %s. ", CLOCK
	if (boots > 1)
		printf "Each figure is the median of %d boots, its spread (max - min) / median in brackets. ", boots
	print "In parentheses: the ratio to " REF " (median of the per-boot ratios; lower is better except MiB/s); " \
		"a ratio is a result when at least 3 boots' ratios lie within ±10 % of it, the others end in \"?\"."
	for (i = 1; i <= n; i++)
		if (failed[order[i]])
			printf "%s: no figures in %d of %d boots (mount or measurement failed).\n",
				order[i], failed[order[i]], boots
	print ""
	print "Acceptance checks of issue 29 (ratios of medians of per-boot ratios):"
	check("axfs-xip-mem RAM after the programs / erofs-dax's", "axfs-xip-mem", "erofs-dax", "ram", "<=", 1.2)
	check("axfs-xip-mem image size / erofs-dax's", "axfs-xip-mem", "erofs-dax", "size", "<=", 0.5)
	check("axfs-xip-mem RAM after the programs / cramfs-xip's", "axfs-xip-mem", "cramfs-xip", "ram", "<=", 1.0)
	check("axfs-64K RAM after the programs / sqfs-128K's", "axfs-64K", "sqfs-128K", "ram", "<=", 1.0)
	check("axfs-64K cold sequential read MiB/s / sqfs-128K's", "axfs-64K", "sqfs-128K", "mibs", ">=", 1.0)
	check("axfs-64K random 4 KiB read p50 / sqfs-128K's (at its median: <= 1.10)", "axfs-64K", "sqfs-128K", "p50", "<=", 1.1)
}
