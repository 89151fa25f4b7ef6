# SPDX-License-Identifier: GPL-2.0-only
# Helpers for the guest test plans (sourced).  Results are printed as
#   AXFS-RESULT ok|fail NAME
# followed, for failures, by "  | " detail lines; the host numbers them.
[ -f /data/config ] && . /data/config

result() {	# result ok|fail NAME (the host also gets the uptime)
	echo "AXFS-RESULT $1 $(cut -d' ' -f1 /proc/uptime) $2"
}

detail() {	# indent a file (or stdin) as detail lines
	sed 's/^/  | /' "${1:--}" | head -n "${2:-25}"
}

check() {	# check NAME CMD...: ok when CMD succeeds
	local name=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		result ok "$name"
	else
		result fail "$name"
		detail /tmp/check.out
	fi
}

check_fails() {	# check_fails NAME CMD...: ok when CMD fails
	local name=$1
	shift
	if "$@" >/tmp/check.out 2>&1; then
		result fail "$name"
		echo "  | unexpectedly succeeded"
	else
		result ok "$name"
	fi
}

# The virtio disk whose serial is $1.
disk() {
	local d
	for d in /sys/block/vd*; do
		[ "$(cat "$d/serial" 2>/dev/null)" = "$1" ] &&
			{ echo "/dev/${d##*/}"; return 0; }
	done
	echo "/dev/missing-disk-$1"
	return 1
}

# The number of the MTD named $1 in /proc/mtd.
mtdnum() {
	sed -n "s/^mtd\([0-9]*\): .* \"$1\"\$/\1/p" /proc/mtd | head -n 1
}

# compare_listing MOUNTPOINT EXPECTED: the listing must match exactly.
compare_listing() {
	sh /tests/listing.sh "$1" >/tmp/listing.got 2>&1 || return 1
	if ! cmp -s "$2" /tmp/listing.got; then
		diff "$2" /tmp/listing.got | head -n 20
		return 1
	fi
	# One timestamp for every inode: the image's.
	find "$1" -exec stat -c %Y {} + | sort -u >/tmp/mtimes
	if [ "$(cat /tmp/mtimes)" != "$MTIME" ]; then
		echo "mtimes: $(head -n 3 /tmp/mtimes | tr '\n' ' ') expected $MTIME"
		return 1
	fi
}

# A new dmesg mark: later "dmesg_since" prints what came after it.
dmesg_mark() { dmesg | wc -l >/tmp/dmesg.mark; }
dmesg_since() { dmesg | tail -n +"$(($(cat /tmp/dmesg.mark) + 1))"; }

# mount_compare MOUNTPOINT MOUNT-ARGS...: mount, then compare with $LIST.
mount_compare() {
	local mnt=$1
	shift
	mount -t axfs "$@" "$mnt" || return 1
	compare_listing "$mnt" "$LIST"
}
