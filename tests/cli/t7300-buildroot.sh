#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/buildroot: the br2-external tree is complete, its Kconfig loads
# (kconfiglib) and gives the defaults and selects Buildroot would, its
# external.mk evaluated by GNU make with stubs of Buildroot's package and
# rootfs macros declares the host packages and produces the expected
# ROOTFS_AXFS_TOOLS_CMD, and that command (and the fsck hook) builds a correct
# image with the real axfs on a small tree.  The kernel extension
# (linux/linux-ext-axfs.mk) adds fs/axfs to a kernel tree; with a Buildroot
# checkout in $AXFS_BUILDROOT (default /var/cache/axfs-tools/buildroot/src)
# its utils/check-package is clean on the tree.
. "$(dirname "$0")/lib.sh"

ext=$AXFS_TOP/examples/buildroot
export BR2_EXTERNAL_AXFS_PATH="$ext"

# kconfiglib parses Buildroot-style Kconfig (python3-kconfiglib, which
# make deps-tests installs).  Debian's package installs it for /usr/bin/python3, which may not be the
# first python3 in PATH.
kpy() {
	for py in python3 /usr/bin/python3; do
		"$py" -c 'import kconfiglib' 2>/dev/null && { echo "$py"; return 0; }
	done
	return 1
}
test_lazy_prereq KCONFIGLIB 'kpy'

test_expect_success 'the br2-external tree has every file Buildroot needs' '
	grep -qx "name: AXFS" "$ext/external.desc" &&
	grep -q "^desc: " "$ext/external.desc" &&
	for f in external.mk Config.in README.md \
		 package/axfs-tools/axfs-tools.mk package/axfs-tools/Config.in.host \
		 package/axfs-libmd/axfs-libmd.mk package/axfs-libmd/axfs-libmd.hash \
		 package/axfs-libdeflate/axfs-libdeflate.mk \
		 package/axfs-libdeflate/axfs-libdeflate.hash \
		 fs/axfs-tools/Config.in fs/axfs-tools/axfs-tools.mk \
		 package/axfs-tools/Config.in package/axfs-tools/axfs-tools.hash \
		 package/axfs/Config.in package/axfs/axfs.mk package/axfs/axfs.hash \
		 linux/Config.ext.in linux/linux-ext-axfs.mk; do
		test -f "$ext/$f" || { echo "missing $f"; return 1; }
	done
'

test_expect_success 'every option of ours the .mk files use is defined in a Config.in' '
	cat "$ext"/fs/axfs-tools/*.mk "$ext"/package/*/*.mk "$ext"/linux/*.mk | sed "s/#.*//" |
		grep -o "BR2_[A-Z0-9_]*" | grep -v -e "^BR2_EXTERNAL_" -e "^BR2_PACKAGE_REFPOLICY$" \
			-e "^BR2_TARGET_ROOTFS_AXFS$" |
		sort -u >used &&
	cat "$ext/Config.in" "$ext"/fs/axfs-tools/Config.in "$ext"/package/*/Config.in* \
		"$ext"/linux/Config.ext.in |
		sed -n "s/^\(menu\)\{0,1\}config \(BR2_[A-Z0-9_]*\)$/\2/p" | sort -u >defined &&
	grep -q BR2_TARGET_ROOTFS_AXFS_TOOLS_BS used &&
	comm -23 used defined >undefined &&
	cat undefined &&
	! test -s undefined
'

# Buildroot 2015.11-2025.08 has its own fs/axfs (host-axfsutils), and from
# 2025.11 BR2_TARGET_ROOTFS_AXFS selects BR2_LEGACY, which stops the build;
# libdeflate and libmd are target packages of Buildroot.  A br2-external
# symbol or package of one of those names would merge with Buildroot's.
test_expect_success 'no symbol or package name is one Buildroot has or had' '
	cat "$ext/Config.in" "$ext"/fs/*/Config.in "$ext"/package/*/Config.in* |
		sed -n "s/^\(menu\)\{0,1\}config \(BR2_[A-Z0-9_]*\)$/\2/p" >syms &&
	test -s syms &&
	! grep -x -e BR2_TARGET_ROOTFS_AXFS -e BR2_PACKAGE_HOST_AXFSUTILS \
		-e BR2_PACKAGE_AXFSUTILS -e BR2_PACKAGE_LIBDEFLATE -e BR2_PACKAGE_LIBMD syms &&
	(cd "$ext" && ls -d fs/* package/*) >dirs &&
	! grep -x -e fs/axfs -e package/axfsutils -e package/libdeflate -e package/libmd dirs
'

# ---- Buildroot's coding style (the rules of utils/check-package) ------------
cat >style.awk <<'AWK'
# awk -v kind=mk|config|any -v pkg=NAME -f style.awk FILE
function bad(msg) { printf "%s:%d: %s\n", FILENAME, FNR, msg; nbad++ }
FNR == 1 && kind == "mk" && $0 !~ /^include / { header = 1 }
header && (FNR == 1 || FNR == 5) {
	h = $0; gsub(/#/, "", h)
	if (length($0) != 80 || h != "") bad("should be 80 hashes")
}
header && (FNR == 2 || FNR == 4) && $0 != "#" { bad("should be 1 hash") }
header && FNR == 6 && $0 != "" { bad("should be a blank line") }
/[ \t]+$/ { bad("trailing whitespace") }
$0 == "" && prev_empty { bad("consecutive empty lines") }
{ prev_empty = ($0 == ""); last = $0 }
kind == "mk" {
	if ($0 ~ /^[ \t]*define[ \t]/) { indef = 1; cont = 0; next }
	if ($0 ~ /^[ \t]*endef/) { indef = 0; next }
	if ($0 ~ /(  |\t ?)\\$/) bad("use only one space before backslash")
	if ($0 ~ /^[^#].*[^$]\$\{[A-Za-z0-9_]+\}/) bad("use $() to delimit variables, not ${}")
	expect = indef || cont
	if ($0 ~ /^[ \t]*(ifeq|ifneq|ifdef|ifndef|else|endif)([ \t]|$)/ && !cont) expect = 0
	cont = ($0 ~ /^[^#].*\\$/)
	if ($0 != "" && !(indef && $0 ~ /^[ \t]*#/)) {
		if (expect && $0 !~ /^\t/) bad("expected indent with tabs")
		if (!expect && $0 ~ /^\t/) bad("unexpected indent with tabs")
	}
	if (pkg != "" && match($0, /^(define[ \t]+)?[A-Z0-9_]+_[A-Z0-9_]+/)) {
		v = substr($0, RSTART, RLENGTH); sub(/^define[ \t]+/, "", v)
		P = toupper(pkg); gsub(/-/, "_", P)
		if (v !~ ("^(HOST_|ROOTFS_)?" P "_")) bad("possible typo: " v " -> *" P "*")
	}
}
kind == "config" {
	t = $0
	if (t ~ /^[ \t]*(#|$)/) next
	if (t ~ /^\t  /) {
		if (inhelp) {
			if (first && t !~ /^\t  [^ \t]/) bad("help text: <tab><2 spaces><62 chars>")
			if (length(t) > 3 + 62) bad("help text: <tab><2 spaces><62 chars>")
			first = 0
		}
		next
	}
	split(t, w, /[ \t]+/); e = (t ~ /^[ \t]/) ? w[2] : w[1]
	inhelp = (e == "help"); first = inhelp
	if (e ~ /^(bool|string|default|depends|help|prompt|select)$/ && t !~ ("^\t" e)) bad("should be indented with one tab")
	if (e ~ /^(choice|comment|config|endchoice|endif|endmenu|if|menu|menuconfig|source)$/ && t ~ /^[ \t]/) bad("should not be indented")
	order["bool"] = 1; order["prompt"] = 1; order["string"] = 1; order["default"] = 2
	order["depends"] = 3; order["select"] = 4; order["help"] = 5
	if (e ~ /^(choice|comment|config|endchoice|endif|endmenu|if|menu|menuconfig|source)$/) state = 0
	else if (e in order) { if (state > order[e]) bad("attributes order: type, default, depends on, select, help"); state = order[e] }
	if (t ~ /^\tdefault n$/) bad("default n is redundant")
}
END {
	if (last == "") bad("empty last line")
	exit nbad != 0
}
AWK

test_expect_success 'the tree follows the coding style of Buildroot check-package' '
	bad=0 &&
	for f in "$ext"/package/*/*.mk "$ext"/fs/*/*.mk; do
		awk -v kind=mk -v pkg="$(basename "$f" .mk)" -f style.awk "$f" || bad=1
	done &&
	for f in "$ext/external.mk" "$ext"/linux/*.mk; do
		awk -v kind=mk -f style.awk "$f" || bad=1
	done &&
	for f in "$ext/Config.in" "$ext"/package/*/Config.in* "$ext"/fs/*/Config.in \
		 "$ext"/linux/Config.ext.in; do
		awk -v kind=config -f style.awk "$f" || bad=1
	done &&
	for f in "$ext"/package/*/*.hash "$ext/external.desc"; do
		awk -v kind=any -f style.awk "$f" || bad=1
	done &&
	test $bad = 0
'

test_expect_success 'the style check itself finds mistakes' '
	printf "# a\nFOO_BAR = 1 \nBAR_X = 2\n" >foo.mk &&
	! awk -v kind=mk -v pkg=foo -f style.awk foo.mk >style.out &&
	grep -q "should be 80 hashes" style.out &&
	grep -q "trailing whitespace" style.out &&
	grep -q "possible typo: BAR_X" style.out &&
	printf "config BR2_X\n\tbool \"x\"\n\thelp\n\t  %s\n" \
		"a help line that is much longer than sixty-two characters, far too long" >Config.wrong &&
	! awk -v kind=config -f style.awk Config.wrong >style.out &&
	grep -q "help text" style.out
'

# ---- Kconfig -----------------------------------------------------------------
cat >Kconfig <<'EOF'
mainmenu "t7300: the AXFS br2-external tree"
source "$BR2_EXTERNAL_AXFS_PATH/Config.in"
menu "Linux Kernel Extensions"
source "$BR2_EXTERNAL_AXFS_PATH/linux/Config.ext.in"
endmenu
EOF

cat >kconf.py <<'EOF'
import sys
import kconfiglib

# Buildroot writes its symbols without a CONFIG_ prefix (CONFIG_= in the
# environment, as Buildroot sets it).
k = kconfiglib.Kconfig("Kconfig", warn_to_stderr=False)
if k.warnings:
    sys.exit("kconfig warnings:\n" + "\n".join(k.warnings))
sym = k.syms
def val(name):
    return sym[name].str_value

# Nothing is on by default; enabling the filesystem selects the host tools
# and gives squashfs-like defaults.
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS") == "n", val("BR2_TARGET_ROOTFS_AXFS_TOOLS")
assert val("BR2_PACKAGE_HOST_AXFS_TOOLS") == "n"
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS"].set_value("y")
assert val("BR2_PACKAGE_HOST_AXFS_TOOLS") == "y", "host tools not selected"
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_BS") == "64KiB", val("BR2_TARGET_ROOTFS_AXFS_TOOLS_BS")
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_COMPRESSOR") == "libdeflate"
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_LEVEL") == "9"
# The kernel extension selects the driver's source package.
assert val("BR2_PACKAGE_AXFS") == "n"
sym["BR2_LINUX_KERNEL_EXT_AXFS"].set_value("y")
assert val("BR2_PACKAGE_AXFS") == "y", "the extension does not select package axfs"
sym["BR2_LINUX_KERNEL_EXT_AXFS"].set_value("n")
for s in ("POLICY", "PROFILE", "XIP_BUDGET", "XIP_FILES"):
    assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_" + s) == "", s
k.write_config("defaults.config")
for kib, want in ((4, "4KiB"), (16, "16KiB"), (1024, "1MiB")):
    sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_BS_%dK" % kib].set_value("y")
    assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_BS") == want, (kib, val("BR2_TARGET_ROOTFS_AXFS_TOOLS_BS"))

# The configuration the command-line test uses.
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_BS_128K"].set_value("y")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_ZLIB"].set_value("y")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_LEVEL"].set_value("6")
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_COMPRESSOR") == "zlib"
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_POLICY"].set_value(sys.argv[1])
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_PROFILE"].set_value(sys.argv[2])
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_BUDGET"].set_value("1MiB")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_FILES"].set_value("/bin/* /usr/lib/*.so*")
k.write_config("full.config")

# The dual-device split, padded with 0xFF (the default once a size is
# given), and extra options; the defaults of those.
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD_FF") == "n", "PAD_FF without a size"
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_SPLIT") == "n"
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_MKFS_OPTIONS") == ""
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_POLICY"].set_value("")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_PROFILE"].set_value("")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_BUDGET"].set_value("")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_FILES"].set_value("/bin/*")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD"].set_value("1MiB")
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD_FF") == "y", "0xFF is not the default"
k.write_config("pad.config")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_SPLIT"].set_value("y")
assert val("BR2_TARGET_ROOTFS_AXFS_TOOLS_MMAP_LIMIT") == "8MiB"
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_MMAP_LIMIT"].set_value("512KiB")
sym["BR2_TARGET_ROOTFS_AXFS_TOOLS_MKFS_OPTIONS"].set_value("--all-root --xip-suffix")
k.write_config("split.config")
print("ok")
EOF

cat >policy.yaml <<'EOF'
owners: { uid: 4321, gid: 765 }
EOF
printf './usr/bin/app,0,40\n./usr/bin/app,4096,7\n' >a.csv
printf './usr/bin/app,8192,3\n' >b.csv
P=$TRASH/policy.yaml
PROF="$TRASH/a.csv $TRASH/b.csv"

test_expect_success KCONFIGLIB 'Config.in loads without warnings, selects the host tools, gives the defaults' '
	KPY=$(kpy) &&
	CONFIG_= "$KPY" kconf.py "$P" "$PROF" &&
	grep -qx "BR2_TARGET_ROOTFS_AXFS_TOOLS=y" full.config &&
	grep -qx "BR2_PACKAGE_HOST_AXFS_TOOLS=y" full.config &&
	grep -qx "BR2_TARGET_ROOTFS_AXFS_TOOLS_BS=\"128KiB\"" full.config
'
# Without kconfiglib, the .config files kconf.py writes are written by
# hand, as Buildroot would for the same choices: the tests below use them.
if ! test_have_prereq KCONFIGLIB; then
	# The .config Buildroot would write for the same choices.
	# br_config BS_K BS COMPRESSOR_SYMBOL COMPRESSOR LEVEL POLICY PROFILE
	#   XIP_BUDGET XIP_FILES: the options of the package.
	br_config() {
		cat <<-EOF
		BR2_PACKAGE_HOST_AXFS_TOOLS=y
		BR2_TARGET_ROOTFS_AXFS_TOOLS=y
		BR2_TARGET_ROOTFS_AXFS_TOOLS_BS_$1=y
		BR2_TARGET_ROOTFS_AXFS_TOOLS_BS="$2"
		BR2_TARGET_ROOTFS_AXFS_TOOLS_$3=y
		BR2_TARGET_ROOTFS_AXFS_TOOLS_COMPRESSOR="$4"
		BR2_TARGET_ROOTFS_AXFS_TOOLS_LEVEL=$5
		BR2_TARGET_ROOTFS_AXFS_TOOLS_POLICY="$6"
		BR2_TARGET_ROOTFS_AXFS_TOOLS_PROFILE="$7"
		BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_BUDGET="$8"
		BR2_TARGET_ROOTFS_AXFS_TOOLS_XIP_FILES="$9"
		EOF
	}
	br_config 64K 64KiB LIBDEFLATE libdeflate 9 "" "" "" "" >defaults.config
	br_config 128K 128KiB ZLIB zlib 6 "$P" "$PROF" 1MiB \
		"/bin/* /usr/lib/*.so*" >full.config
	{ br_config 128K 128KiB ZLIB zlib 6 "" "" "" "/bin/*" &&
	  echo BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD=\"1MiB\" &&
	  echo BR2_TARGET_ROOTFS_AXFS_TOOLS_PAD_FF=y; } >pad.config
	{ cat pad.config &&
	  echo BR2_TARGET_ROOTFS_AXFS_TOOLS_SPLIT=y &&
	  echo BR2_TARGET_ROOTFS_AXFS_TOOLS_MMAP_LIMIT=\"512KiB\" &&
	  echo BR2_TARGET_ROOTFS_AXFS_TOOLS_MKFS_OPTIONS=\"--all-root --xip-suffix\"; } >split.config
fi

# ---- make ----------------------------------------------------------------------
# Stubs of what Buildroot defines before it includes external.mk: the
# package and rootfs macros record what the tree declares, and the image
# rule writes the command Buildroot would put in its fakeroot script.
cat >stub.mk <<'EOF'
include $(CONFIG)
HOST_DIR := $(T)/host
TARGET_DIR := $(T)/target
BINARIES_DIR := $(T)/images
PARALLEL_JOBS := 3
empty :=
define sep


endef
qstrip = $(strip $(subst ",,$(1)))
UPPERCASE = $(shell echo '$(1)' | tr 'a-z-' 'A-Z_')
pkgdir = $(dir $(lastword $(MAKEFILE_LIST)))
pkgname = $(lastword $(subst /, ,$(pkgdir)))
host-generic-package = T7300_HOST_PACKAGES += host-$(pkgname)
generic-package = T7300_PACKAGES += $(pkgname)
host-autotools-package = T7300_HOST_PACKAGES += host-$(pkgname)
host-cmake-package = T7300_HOST_PACKAGES += host-$(pkgname)
define inner-rootfs
ROOTFS_$(2)_NAME = rootfs-$(1)
ROOTFS_$(2)_IMAGE_NAME ?= rootfs.$(1)
ROOTFS_$(2)_FINAL_IMAGE_NAME = $$(strip $$(ROOTFS_$(2)_IMAGE_NAME))
T7300_ROOTFS += $(1):$(2)
endef
rootfs = $(call inner-rootfs,$(pkgname),$(call UPPERCASE,$(pkgname)))

include $(BR2_EXTERNAL_AXFS_PATH)/external.mk

$(BINARIES_DIR)/rootfs.axfs:
	$(file >$(T)/cmd.sh,$(ROOTFS_AXFS_TOOLS_CMD))
	$(file >$(T)/hooks.sh,$(foreach h,$(ROOTFS_AXFS_TOOLS_POST_GEN_HOOKS),$(call $(h))$(sep)))
	$(file >$(T)/info,hosts=$(T7300_HOST_PACKAGES);rootfs=$(T7300_ROOTFS);deps=$(strip $(ROOTFS_AXFS_TOOLS_DEPENDENCIES));toolsdeps=$(strip $(HOST_AXFS_TOOLS_DEPENDENCIES));site=$(AXFS_TOOLS_SITE);method=$(AXFS_TOOLS_SITE_METHOD);packages=$(T7300_PACKAGES);axfssite=$(AXFS_SITE);targetdeps=$(strip $(AXFS_TOOLS_DEPENDENCIES)))
EOF

evaluate() {	# evaluate CONFIG OUTDIR: runs the stub make, fills OUTDIR
	mkdir -p "$2" &&
	make -s --no-print-directory -f stub.mk CONFIG="$1" T="$2" "$2/images/rootfs.axfs"
}
norm() { tr -s ' \t\n' '   ' <"$1" | sed 's/^ //; s/ $//'; }

test_expect_success 'external.mk declares host-axfs-tools, its libdeflate and libmd, and the axfs rootfs' '
	evaluate defaults.config "$TRASH/d" &&
	cat d/info &&
	grep -q "hosts=host-axfs-libdeflate host-axfs-libmd host-axfs-tools;" d/info &&
	grep -q "rootfs=axfs-tools:AXFS_TOOLS;" d/info &&
	grep -q "deps=host-axfs-tools;" d/info &&
	grep -q "toolsdeps=host-pkgconf host-zlib host-axfs-libdeflate host-libarchive host-libyaml host-axfs-libmd;" d/info &&
	grep -q "site=$ext/../..;method=local;" d/info &&
	grep -q "packages=axfs-tools axfs;axfssite=$ext/../..;" d/info &&
	grep -q "targetdeps=host-pkgconf zlib libdeflate libarchive libyaml libmd" d/info &&
	test -f "$ext/../../Makefile"
'

test_expect_success 'ROOTFS_AXFS_TOOLS_CMD with the defaults' '
	test "$(norm d/cmd.sh)" = "$TRASH/d/host/bin/axfs mkfs --no-progress -j 3 -b 64KiB --compressor libdeflate -l 9 $TRASH/d/target $TRASH/d/images/rootfs.axfs" ||
	{ norm d/cmd.sh; false; }
'

test_expect_success 'ROOTFS_AXFS_TOOLS_CMD with every option set' '
	evaluate full.config "$TRASH/f" &&
	want="$TRASH/f/host/bin/axfs mkfs --no-progress -j 3 -b 128KiB --compressor zlib -l 6 --policy $P --profile $TRASH/a.csv --profile $TRASH/b.csv --xip-budget 1MiB --xip '"'/bin/*'"' --xip '"'/usr/lib/*.so*'"' $TRASH/f/target $TRASH/f/images/rootfs.axfs" &&
	test "$(norm f/cmd.sh)" = "$want" ||
	{ echo "got:  $(norm f/cmd.sh)"; echo "want: $want"; false; }
'

test_expect_success 'SELinux labelling (BR2_PACKAGE_REFPOLICY) stops the build with a reason' '
	{ cat defaults.config && echo BR2_PACKAGE_REFPOLICY=y; } >selinux.config &&
	! evaluate selinux.config "$TRASH/s" 2>err &&
	cat err && grep -q "cannot store the SELinux labels" err && grep -q "context=" err &&
	! test -e s/cmd.sh
'

test_expect_success 'the post-gen hook runs axfs fsck on the image' '
	test "$(norm f/hooks.sh)" = "$TRASH/f/host/bin/axfs fsck -q $TRASH/f/images/rootfs.axfs"
'

test_expect_success 'the command builds a correct image with the real axfs' '
	mkdir -p f/host/bin f/images f/target/bin f/target/usr/bin f/target/usr/lib f/target/etc &&
	ln -s "$AXFS" f/host/bin/axfs &&
	# A program of 400 KB: --xip /bin/* takes it whole, within the
	# command line'"'"'s --xip-budget 1MiB (a limit).
	head -c 400000 "$AXFS" >f/target/bin/prog && chmod 755 f/target/bin/prog &&
	seq 1 5000 >f/target/usr/bin/app &&
	seq 1 3000 >f/target/usr/lib/libx.so.1 &&
	printf "demo\n" >f/target/etc/hostname &&
	(cd "$TRASH/f/images" && sh "$TRASH/f/cmd.sh") &&
	test -s f/images/rootfs.axfs &&
	sh f/hooks.sh &&
	"$AXFS" extract f/images/rootfs.axfs out &&
	diff -r f/target out &&
	"$AXFS" dump --inodes f/images/rootfs.axfs >inodes.txt &&
	"$AXFS" dump --pages f/images/rootfs.axfs >pages.txt &&
	"$AXFS" dump --json f/images/rootfs.axfs >dump.json &&
	# the policy (owners) was applied to every inode
	test "$(grep -c " /" inodes.txt)" -ge 8 &&
	! grep " /" inodes.txt | grep -v "^[^ ]*  *4321  *765 " &&
	# -b 128KiB
	grep -q "\"cblock_size\": 131072" dump.json &&
	# --xip /bin/*: every page of /bin/prog is XIP
	sed -n "\|^-.* /bin/prog\$|,\|^[-dlcbps]|p" pages.txt | grep "page " >prog.pages &&
	test -s prog.pages &&
	! grep -v " xip " prog.pages
'

# Buildroot's own BR2_TARGET_ROOTFS_AXFS (its 2008 mkfs.axfs, writing
# rootfs.axfs too) stops the build with what to set instead, with our
# type selected or not.
test_expect_success 'BR2_TARGET_ROOTFS_AXFS=y is refused with what to set instead' '
	{ cat defaults.config && echo BR2_TARGET_ROOTFS_AXFS=y; } >legacy.config &&
	! evaluate legacy.config "$TRASH/l" 2>err &&
	cat err && grep -q "BR2_TARGET_ROOTFS_AXFS=y builds rootfs.axfs with Buildroot.s own 2008 mkfs.axfs" err &&
	grep -q "set BR2_TARGET_ROOTFS_AXFS_TOOLS=y" err && ! test -e l/cmd.sh &&
	echo BR2_TARGET_ROOTFS_AXFS=y >legacy-only.config &&
	! evaluate legacy-only.config "$TRASH/l2" 2>err &&
	grep -q "set BR2_TARGET_ROOTFS_AXFS_TOOLS=y" err
'

test_expect_success 'a pad size pads rootfs.axfs with 0xFF through axfs mkfs' '
	evaluate pad.config "$TRASH/p" &&
	want="$TRASH/p/host/bin/axfs mkfs --no-progress -j 3 -b 128KiB --compressor zlib -l 6 --xip '"'/bin/*'"' --pad 1MiB --pad-byte 0xff $TRASH/p/target $TRASH/p/images/rootfs.axfs" &&
	test "$(norm p/cmd.sh)" = "$want" ||
	{ echo "got:  $(norm p/cmd.sh)"; echo "want: $want"; false; }
'

test_expect_success 'the dual-device split: rootfs.nor (padded with 0xFF) and rootfs.nand, checked' '
	evaluate split.config "$TRASH/s2" &&
	want="$TRASH/s2/host/bin/axfs mkfs --no-progress -j 3 -b 128KiB --compressor zlib -l 6 --xip '"'/bin/*'"' --mmap-limit 512KiB --all-root --xip-suffix $TRASH/s2/target $TRASH/s2/images/rootfs.axfs" &&
	{ test "$(norm s2/cmd.sh)" = "$want" ||
	  { echo "got:  $(norm s2/cmd.sh)"; echo "want: $want"; false; }; } &&
	mkdir -p s2/host/bin s2/images s2/target/bin s2/target/etc &&
	ln -s "$AXFS" s2/host/bin/axfs &&
	head -c 200000 "$AXFS" >s2/target/bin/prog && chmod 755 s2/target/bin/prog &&
	seq 1 30000 >s2/target/etc/data &&
	(cd "$TRASH/s2/images" && sh "$TRASH/s2/cmd.sh") &&
	sh -e s2/hooks.sh &&
	# the hooks: fsck, split, fsck of the pair, pad
	test $(grep -c "axfs fsck -q" s2/hooks.sh) = 2 && grep -q "axfs split -q" s2/hooks.sh &&
	test $(wc -c <s2/images/rootfs.nor) = 1048576 &&
	"$AXFS" split s2/images/rootfs.axfs --mmap nor.want --store nand.want &&
	n=$(wc -c <nor.want) && test $n -lt 1048576 &&
	head -c $n s2/images/rootfs.nor | cmp - nor.want &&
	cmp s2/images/rootfs.nand nand.want &&
	tail -c $((1048576 - n)) s2/images/rootfs.nor | tr -d "\377" | wc -c >nonff &&
	test "$(cat nonff)" = 0 &&
	"$AXFS" extract --store s2/images/rootfs.nand s2/images/rootfs.nor out2 &&
	diff -r s2/target out2 &&
	# a NOR segment bigger than its partition stops the build
	sed "s/1MiB/64KiB/g" s2/hooks.sh >small.sh &&
	! sh -e small.sh 2>err && grep -q "rootfs.nor: [0-9]* bytes, more than the partition (64KiB)" err
'

# ---- the kernel extension ------------------------------------------------------
# A kernel tree's fs/Kconfig and fs/Makefile lines around cramfs (as in
# Linux 6.1); the extension's command, run as Buildroot runs it, adds
# fs/axfs (sources, Kconfig, Makefile, the format header) and hooks it in.
cat >ext.mk <<'EOF'
LINUX_DIR := $(T)/linux
AXFS_DIR := $(AXFS_TOP)
include $(BR2_EXTERNAL_AXFS_PATH)/linux/linux-ext-axfs.mk
prepare:
	$(file >$(T)/info,extensions=$(LINUX_EXTENSIONS))
	$(AXFS_PREPARE_KERNEL)
EOF
test_expect_success 'linux-ext-axfs puts fs/axfs into a kernel tree and hooks it in once' '
	mkdir -p k/linux/fs &&
	printf "menu \"Misc\"\nsource \"fs/cramfs/Kconfig\"\nsource \"fs/squashfs/Kconfig\"\nendmenu\n" >k/linux/fs/Kconfig &&
	printf "obj-\$(CONFIG_CRAMFS)\t\t+= cramfs/\nobj-\$(CONFIG_SQUASHFS)\t\t+= squashfs/\n" >k/linux/fs/Makefile &&
	make -s -f ext.mk T="$TRASH/k" prepare &&
	make -s -f ext.mk T="$TRASH/k" prepare &&
	grep -qx "extensions=axfs" k/info &&
	test "$(grep -c "^source \"fs/axfs/Kconfig\"\$" k/linux/fs/Kconfig)" = 1 &&
	test "$(grep -c "^obj-\$(CONFIG_AXFS)" k/linux/fs/Makefile)" = 1 &&
	cmp "$AXFS_TOP/include/axfs/axfs_fs.h" k/linux/fs/axfs/axfs_fs.h &&
	cmp "$AXFS_TOP/kernel/Kbuild" k/linux/fs/axfs/Makefile &&
	cmp "$AXFS_TOP/kernel/compat.mk" k/linux/fs/axfs/compat.mk &&
	# A tree like 6.1 has no PAGE_SIZE_4KB (6.8): the Kconfig without it.
	grep -vx "	depends on PAGE_SIZE_4KB" "$AXFS_TOP/kernel/Kconfig" |
		cmp - k/linux/fs/axfs/Kconfig &&
	for c in "$AXFS_TOP"/kernel/*.c "$AXFS_TOP"/kernel/*.h; do
		case $c in *.mod.c | */axfs-probes.h) continue ;; esac
		cmp "$c" "k/linux/fs/axfs/$(basename "$c")" || return 1
	done &&
	diff -r "$AXFS_TOP/kernel/probes" k/linux/fs/axfs/probes
'

test_expect_success 'package axfs turns CONFIG_AXFS on (built in) for the kernel' '
	grep -q "KCONFIG_ENABLE_OPT,CONFIG_AXFS)" "$ext/package/axfs/axfs.mk" &&
	grep -q "KCONFIG_ENABLE_OPT,CONFIG_MISC_FILESYSTEMS)" "$ext/package/axfs/axfs.mk" &&
	grep -q "^AXFS_VERSION = \$(AXFS_TOOLS_VERSION)" "$ext/package/axfs/axfs.mk"
'

test_expect_success 'configs/axfs_root.fragment sets only symbols the tree defines' '
	sed -n "s/^#* *\(BR2_[A-Z0-9_]*\)=.*/\1/p" "$ext/configs/axfs_root.fragment" >frag.syms &&
	test "$(wc -l <frag.syms)" -ge 4 &&
	while read -r sym; do
		grep -rqx "config $sym" "$ext" --include=Config.in --include=Config.ext.in ||
			{ echo "$sym is defined nowhere"; return 1; }
	done <frag.syms
'

test_expect_success 'the .hash files have the sha256 of our licence files' '
	grep -h "^sha256 .* LICENSES/" "$ext"/package/*/*.hash >hashes &&
	test -s hashes &&
	while read -r _ sum file; do
		echo "$sum  $AXFS_TOP/$file" | sha256sum -c --quiet - || return 1
	done <hashes
'

test_expect_success 'the package version is the VERSION of the tree' '
	grep -qx "AXFS_TOOLS_VERSION = $(cat "$AXFS_TOP/VERSION")" "$ext/package/axfs-tools/axfs-tools.mk"
'

# ---- Buildroot's own utils/check-package -------------------------------------------
br=${AXFS_BUILDROOT:-/var/cache/axfs-tools/buildroot/src}
test_lazy_prereq BR_CHECK_PACKAGE '
	test -x "$br/utils/check-package" && /usr/bin/python3 -c "import magic" &&
	command -v flake8
'
test_expect_success BR_CHECK_PACKAGE 'utils/check-package -b of a Buildroot checkout is clean' '
	(cd "$ext" && /usr/bin/python3 "$br/utils/check-package" -b $(find . -type f | sort)) >cp.out 2>&1 ||
		{ cat cp.out; false; } &&
	cat cp.out &&
	grep -q "^0 warnings generated" cp.out
'

test_done
