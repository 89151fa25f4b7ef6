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

# refused NAME MESSAGE MOUNT-ARGS...: the mount on /mnt/c fails, and
# dmesg says MESSAGE (MESSAGE "": says anything or nothing).
refused() {
	local name=$1 msg=$2
	shift 2
	dmesg_mark
	if mount -t axfs "$@" /mnt/c >/tmp/refused.out 2>&1; then
		umount /mnt/c
		result fail "$name"
		echo "  | mounted"
	elif [ -z "$msg" ] || dmesg_since | grep -q "$msg"; then
		result ok "$name"
	else
		result fail "$name"
		dmesg_since | detail
	fi
}

# running_mixedmap PROGRAM: while PROGRAM (a busybox) runs, the text
# mapping of it in /proc/PID/smaps has VM_MIXEDMAP ("mm" in VmFlags).
running_mixedmap() {
	local pid rc
	"$1" sleep 5 &
	pid=$!
	sleep 1
	awk -v want="$1" '$NF == want && $2 ~ /x/ { inv = 1; next } /^[0-9a-f]+-/ { inv = 0 } inv && /^VmFlags:/ && / mm/ { found = 1 } END { exit !found }' /proc/$pid/smaps
	rc=$?
	kill $pid 2>/dev/null
	wait $pid 2>/dev/null
	return $rc
}

# mount_compare MOUNTPOINT MOUNT-ARGS...: mount, then compare with $LIST.
mount_compare() {
	local mnt=$1
	shift
	mount -t axfs "$@" "$mnt" || return 1
	compare_listing "$mnt" "$LIST"
}
