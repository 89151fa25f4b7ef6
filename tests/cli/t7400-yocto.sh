#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# examples/meta-axfs: the layer is complete, the recipe's licence checksums
# match LICENSES/, every make variable it passes is one the Makefile uses,
# the image class follows image_types.bbclass, and its IMAGE_CMD:axfs shell
# body, with its variables expanded as BitBake expands them, builds and
# checks a correct image with the real axfs.
. "$(dirname "$0")/lib.sh"

layer=$AXFS_TOP/examples/meta-axfs
recipe=$layer/recipes-devtools/axfs-tools/axfs-tools.inc
class=$layer/classes/image_types_axfs.bbclass

test_expect_success 'the layer has its configuration, recipe, class and README' '
	test -f "$layer/conf/layer.conf" && test -f "$recipe" &&
	test -f "$class" && test -f "$layer/README.md" &&
	grep -q "^BBFILE_COLLECTIONS += \"axfs\"" "$layer/conf/layer.conf" &&
	grep -q "^BBFILE_PATTERN_axfs = " "$layer/conf/layer.conf" &&
	grep -q "^LAYERSERIES_COMPAT_axfs = " "$layer/conf/layer.conf" &&
	grep -q "^LAYERDEPENDS_axfs = \"core openembedded-layer\"" "$layer/conf/layer.conf" &&
	grep -q "recipes-\*/\*/\*.bb" "$layer/conf/layer.conf" &&
	grep -q "^LAYERSERIES_COMPAT_axfs = \"kirkstone scarthgap whinlatter wrynose blacksail\"" "$layer/conf/layer.conf"
'

test_expect_success 'the recipe extends to native and its licence checksums are right' '
	grep -q "^BBCLASSEXTEND = \"native nativesdk\"" "$recipe" &&
	grep -o "file://LICENSES/[^;]*;md5=[0-9a-f]*" "$recipe" >lic &&
	test "$(wc -l <lic)" -ge 2 &&
	while IFS= read -r l; do
		f=${l#file://}; f=${f%%;*}; sum=${l##*md5=} &&
		test "$(md5sum <"$AXFS_TOP/$f" | cut -d" " -f1)" = "$sum" ||
			{ echo "wrong checksum for $f"; return 1; }
	done <lic
'

test_expect_success 'the recipe depends on every library the build uses' '
	deps=$(sed -n "s/^DEPENDS = \"\(.*\)\"/\1/p" "$recipe") &&
	for d in zlib libdeflate libarchive libyaml libmd; do
		case " $deps " in *" $d "*) ;; *) echo "missing $d"; return 1 ;; esac
	done &&
	grep -q "^PKGS *:= zlib libdeflate libarchive yaml-0.1 libmd$" "$AXFS_TOP/Makefile"
'

test_expect_success 'every make variable the recipe sets is one the Makefile uses' '
	sed -n "/^EXTRA_OEMAKE = /,/^\"/p" "$recipe" |
		grep -oE "(^|[ \"])[A-Z_]+=" | tr -d " \"=" | sort -u >vars &&
	echo DESTDIR >>vars &&
	test "$(wc -l <vars)" -ge 10 &&
	while read -r v; do
		grep -q "\$($v)" "$AXFS_TOP/Makefile" || { echo "the Makefile ignores $v"; return 1; }
	done <vars
'

test_expect_success 'the class declares the type, its variables and its native dependency' '
	grep -q "^IMAGE_TYPES += \"axfs axfs-split\"" "$class" &&
	for v in BLOCK_SIZE XIP_BUDGET PAD PAD_BYTE MMAP_LIMIT; do
		grep -q "^AXFS_$v ?= " "$class" || { echo "no AXFS_$v"; return 1; }
	done &&
	grep -q "^do_image_axfs_split\[depends\] += \"axfs-tools-native:do_populate_sysroot\"" "$class" &&
	grep -q "^EXTRA_IMAGECMD:axfs ?= \"\"" "$class" &&
	grep -q "^AXFS_POLICY ?= \"\"" "$class" &&
	grep -q "^AXFS_PROFILE ?= \"\"" "$class" &&
	grep -q "^do_image_axfs\[depends\] += \"axfs-tools-native:do_populate_sysroot\"" "$class" &&
	grep -q "^IMAGE_CMD:axfs () {" "$class"
'

# The body of IMAGE_CMD:axfs, as BitBake would run it: ${VAR} references
# to BitBake variables replaced by their values; $shell_vars left alone.
# (For this image type OVERRIDES holds "axfs", so ${EXTRA_IMAGECMD} is
# EXTRA_IMAGECMD:axfs.)
# The shell function the bodies call is put first, as BitBake does.
extract_body() {	# extract_body [TYPE]
	sed -n '/^axfs_mkfs_opts () {$/,/^}$/p' "$class"
	sed -n "/^IMAGE_CMD:${1:-axfs} () {\$/,/^}\$/p" "$class" | sed '1d;$d'
}
expand() {	# expand FILE: substitutes the variables of the environment
	sed -e "s|\${IMAGE_ROOTFS}|$IMAGE_ROOTFS|g" \
	    -e "s|\${IMGDEPLOYDIR}|$IMGDEPLOYDIR|g" \
	    -e "s|\${IMAGE_NAME}|$IMAGE_NAME|g" \
	    -e "s|\${AXFS_IMAGE_NAME_SUFFIX}|${AXFS_IMAGE_NAME_SUFFIX-}|g" \
	    -e "s|\${AXFS_POLICY}|$AXFS_POLICY|g" \
	    -e "s|\${AXFS_PROFILE}|$AXFS_PROFILE|g" \
	    -e "s|\${AXFS_BLOCK_SIZE}|${AXFS_BLOCK_SIZE-}|g" \
	    -e "s|\${AXFS_XIP_BUDGET}|${AXFS_XIP_BUDGET-}|g" \
	    -e "s|\${AXFS_PAD}|${AXFS_PAD-}|g" \
	    -e "s|\${AXFS_PAD_BYTE}|${AXFS_PAD_BYTE-0xff}|g" \
	    -e "s|\${AXFS_MMAP_LIMIT}|${AXFS_MMAP_LIMIT-8MiB}|g" \
	    -e "s|\${IMAGE_LINK_NAME}|${IMAGE_LINK_NAME-}|g" \
	    -e "s|\${EXTRA_IMAGECMD}|$EXTRA_IMAGECMD|g" "$1"
}

test_expect_success 'IMAGE_CMD:axfs uses only the variables BitBake provides' '
	extract_body >body.sh &&
	test "$(wc -l <body.sh)" -gt 5 &&
	grep -o "\${[A-Za-z_:]*}" body.sh | sort -u >refs &&
	cat refs &&
	extract_body axfs-split >body-split.sh &&
	grep -o "\${[A-Za-z_:]*}" body-split.sh | sort -u >>refs &&
	! grep -v -x -e "\${IMAGE_ROOTFS}" -e "\${IMGDEPLOYDIR}" -e "\${IMAGE_NAME}" \
		-e "\${AXFS_IMAGE_NAME_SUFFIX}" -e "\${AXFS_POLICY}" -e "\${AXFS_PROFILE}" -e "\${EXTRA_IMAGECMD}" \
		-e "\${AXFS_BLOCK_SIZE}" -e "\${AXFS_XIP_BUDGET}" -e "\${AXFS_PAD}" -e "\${AXFS_PAD_BYTE}" \
		-e "\${AXFS_MMAP_LIMIT}" -e "\${IMAGE_LINK_NAME}" refs
'

mkdir -p rootfs/bin rootfs/etc rootfs/usr/lib deploy bin
# A program whose size the build does not change: the sanitizer build's
# axfs (6 MiB) made the split's XIP part larger than its 4 MiB mmap limit.
cp /bin/sh rootfs/bin/prog
seq 1 4000 >rootfs/usr/lib/libdemo.so.1
printf 'yocto\n' >rootfs/etc/hostname
ln -s prog rootfs/bin/alias
touch -d @1600000000 rootfs
ln -s "$AXFS" bin/axfs
printf 'owners: { uid: 4321, gid: 765 }\n' >policy.yaml
printf './bin/prog,0,50\n' >boot.csv
printf './usr/lib/libdemo.so.1,4096,9\n' >app.csv

test_expect_success 'IMAGE_CMD:axfs builds and checks the image, with every variable set' '
	IMAGE_ROOTFS=$TRASH/rootfs IMGDEPLOYDIR=$TRASH/deploy \
	IMAGE_NAME=core-image-test-qemux86-64.rootfs-20240101 \
	AXFS_POLICY=$TRASH/policy.yaml AXFS_PROFILE="$TRASH/boot.csv $TRASH/app.csv" \
	EXTRA_IMAGECMD="--block-size 16KiB --xip-budget 1MiB" \
		expand body.sh >run.sh &&
	! grep "\${" run.sh &&
	(unset SOURCE_DATE_EPOCH; PATH="$TRASH/bin:$PATH" sh -e -x run.sh) &&
	img=deploy/core-image-test-qemux86-64.rootfs-20240101.axfs &&
	test -s "$img" &&
	"$AXFS" fsck "$img" &&
	"$AXFS" extract "$img" out &&
	diff -r rootfs out &&
	"$AXFS" dump --json "$img" >dump.json &&
	"$AXFS" dump --inodes "$img" >inodes.txt &&
	# the rootfs directory time became the image time (SOURCE_DATE_EPOCH)
	grep -q "\"timestamp\": 1600000000" dump.json &&
	# --block-size 16KiB from EXTRA_IMAGECMD:axfs
	grep -q "\"cblock_size\": 16384" dump.json &&
	# AXFS_POLICY was applied to every inode
	test "$(grep -c " /" inodes.txt)" -ge 6 &&
	! grep " /" inodes.txt | grep -v "^[^ ]*  *4321  *765 "
'

test_expect_success 'the layer variables: block size, XIP budget, pad with 0xFF' '
	rm -rf deploy && mkdir deploy &&
	IMAGE_ROOTFS=$TRASH/rootfs IMGDEPLOYDIR=$TRASH/deploy IMAGE_NAME=vars \
	AXFS_POLICY= AXFS_PROFILE=$TRASH/boot.csv EXTRA_IMAGECMD= AXFS_BLOCK_SIZE=8KiB \
	AXFS_XIP_BUDGET=64KiB AXFS_PAD=4MiB expand body.sh >runv.sh &&
	PATH="$TRASH/bin:$PATH" sh -e runv.sh &&
	test $(wc -c <deploy/vars.axfs) = 4194304 &&
	"$AXFS" dump --json deploy/vars.axfs >v.json &&
	grep -q "\"cblock_size\": 8192" v.json &&
	n=$(python3 -c "import json; print(json.load(open(\"v.json\"))[\"superblock\"][\"size\"])") &&
	test "$n" -lt 4194304 &&
	tail -c $((4194304 - n)) deploy/vars.axfs | tr -d "\377" | wc -c >nonff &&
	test "$(cat nonff)" = 0
'

test_expect_success 'axfs-split: the image, .axfs-nor padded with 0xFF and .axfs-nand, linked' '
	rm -rf deploy && mkdir deploy &&
	extract_body axfs-split >body-split.sh &&
	IMAGE_ROOTFS=$TRASH/rootfs IMGDEPLOYDIR=$TRASH/deploy IMAGE_NAME=sp-20240101 \
	IMAGE_LINK_NAME=sp AXFS_POLICY= AXFS_PROFILE= EXTRA_IMAGECMD="--xip /bin/prog" \
	AXFS_MMAP_LIMIT=4MiB AXFS_PAD=8MiB expand body-split.sh >runs.sh &&
	! grep "\${" runs.sh &&
	PATH="$TRASH/bin:$PATH" sh -e runs.sh &&
	"$AXFS" split deploy/sp-20240101.axfs-split --mmap nor --store nand &&
	n=$(wc -c <nor) && test $(wc -c <deploy/sp-20240101.axfs-nor) = 8388608 &&
	head -c $n deploy/sp-20240101.axfs-nor | cmp - nor &&
	cmp nand deploy/sp-20240101.axfs-nand &&
	test "$(readlink deploy/sp.axfs-nor)" = sp-20240101.axfs-nor &&
	test "$(readlink deploy/sp.axfs-nand)" = sp-20240101.axfs-nand &&
	"$AXFS" extract --store deploy/sp.axfs-nand deploy/sp.axfs-nor outs &&
	diff -r rootfs outs
'

test_expect_success 'IMAGE_CMD:axfs with only the defaults (empty variables)' '
	rm -rf deploy && mkdir deploy &&
	IMAGE_ROOTFS=$TRASH/rootfs IMGDEPLOYDIR=$TRASH/deploy IMAGE_NAME=plain \
	AXFS_POLICY= AXFS_PROFILE= EXTRA_IMAGECMD= expand body.sh >run2.sh &&
	PATH="$TRASH/bin:$PATH" sh -e run2.sh &&
	"$AXFS" fsck deploy/plain.axfs
'

# The file name image.bbclass looks for: kirkstone (LAYERSERIES_CORENAMES)
# appends IMAGE_NAME_SUFFIX to IMAGE_NAME, later releases have it in
# IMAGE_NAME already.  The inline Python, run as BitBake would.
test_expect_success 'the image file name follows the release (kirkstone: IMAGE_NAME_SUFFIX)' '
	sed -n "s/^AXFS_IMAGE_NAME_SUFFIX = \"\\\${@\(.*\)}\"\$/\1/p" "$class" >suffix.py &&
	test -s suffix.py &&
	cat >bb.py <<-\PY &&
	import sys
	class utils:
	    @staticmethod
	    def contains(var, item, t, f, d):
	        return t if item in (d.getVar(var) or "").split() else f
	class bb: pass
	bb.utils = utils
	class D(dict):
	    def getVar(self, k): return self.get(k)
	expr = open("suffix.py").read()
	for series in ("kirkstone", "scarthgap", "styhead walnascar"):
	    d = D(LAYERSERIES_CORENAMES=series, IMAGE_NAME_SUFFIX=".rootfs")
	    print(series.split()[0], repr(eval(expr)))
	PY
	python3 bb.py >names &&
	cat names &&
	grep -qx "kirkstone '"'"'.rootfs'"'"'" names &&
	grep -qx "scarthgap '"'"''"'"'" names &&
	grep -qx "styhead '"'"''"'"'" names &&
	rm -rf deploy && mkdir deploy &&
	IMAGE_ROOTFS=$TRASH/rootfs IMGDEPLOYDIR=$TRASH/deploy IMAGE_NAME=k-20240101 \
	AXFS_IMAGE_NAME_SUFFIX=.rootfs AXFS_POLICY= AXFS_PROFILE= EXTRA_IMAGECMD= \
		expand body.sh >runk.sh &&
	PATH="$TRASH/bin:$PATH" sh -e runk.sh &&
	"$AXFS" fsck -q deploy/k-20240101.rootfs.axfs
'

test_expect_success 'a distro with the selinux feature: the axfs image task refuses to run' '
	grep -q "^do_image_axfs\[prefuncs\] += \"axfs_refuse_selinux\"" "$class" &&
	sed -n "/^python axfs_refuse_selinux () {\$/,/^}\$/p" "$class" | sed "1d;\$d" >refuse.py &&
	test -s refuse.py &&
	cat >run_refuse.py <<-\PY &&
	import sys, textwrap
	class Fatal(Exception): pass
	class utils:
	    @staticmethod
	    def contains(var, item, t, f, d):
	        return t if item in (d.getVar(var) or "").split() else f
	class bb:
	    @staticmethod
	    def fatal(msg): raise Fatal(msg)
	bb.utils = utils
	class D(dict):
	    def getVar(self, k): return self.get(k)
	body = textwrap.dedent(open("refuse.py").read())
	for features in ("systemd x11", "acl xattr selinux pam"):
	    try:
	        exec(body, {"bb": bb, "d": D(DISTRO_FEATURES=features)})
	        print(features.split()[-1], "ok")
	    except Fatal as e:
	        print(features.split()[-1], "refused:", e)
	PY
	python3 run_refuse.py >refuse.out &&
	cat refuse.out &&
	grep -qx "x11 ok" refuse.out &&
	grep -q "^pam refused: .*cannot store SELinux labels.*context=" refuse.out
'

test_expect_success 'IMAGE_CMD:axfs fails the task when mkfs fails' '
	rm -rf deploy && mkdir deploy &&
	IMAGE_ROOTFS=$TRASH/rootfs IMGDEPLOYDIR=$TRASH/deploy IMAGE_NAME=bad \
	AXFS_POLICY=$TRASH/no-such-policy.yaml AXFS_PROFILE= EXTRA_IMAGECMD= expand body.sh >run3.sh &&
	! PATH="$TRASH/bin:$PATH" sh -e run3.sh &&
	! test -e deploy/bad.axfs
'

test_expect_success 'the recipes pin their source and leave S to bitbake.conf' '
	rel=$layer/recipes-devtools/axfs-tools &&
	test -f "$rel/axfs-tools_$(cat "$AXFS_TOP/VERSION").bb" &&
	grep -q "^HOMEPAGE = " "$recipe" &&
	! grep -rn "^S = \|^S ?= " "$layer" &&
	! grep -rn "AUTOREV" "$layer" --include=*.bb --include=*.inc | grep -v "^[^:]*:[0-9]*:#" &&
	grep -q "^AXFS_TOOLS_SRCREV ?= \"\${@axfs_checkout_rev(d)}\"" "$rel/axfs-tools_git.bb" &&
	grep -q "destsuffix=\${BP}" "$rel/axfs-tools_git.bb" &&
	grep -q "^SRC_URI\[sha256sum\]" "$rel/axfs-tools-release.inc" &&
	grep -q "^inherit module" "$layer/recipes-kernel/axfs-module/axfs-module_0.1.0.bb" &&
	grep -q "^CONFIG_AXFS=y" "$layer/recipes-kernel/linux/files/axfs.cfg" &&
	grep -q "mkpatch.sh --tree" "$layer/classes/axfs-kernel.bbclass"
'

# The default recipe builds the code of the checkout the layer ships in:
# its SRCREV is the commit HEAD is at, its PV the checkout's VERSION+git;
# the release recipe (axfs-tools_VERSION.bb, the tarball) is chosen only
# by PREFERRED_VERSION until the release is published.  The recipe's
# Python, run as BitBake would, on this checkout and on a copy of the
# layer outside any git checkout.
test_expect_success GIT 'the default recipe is the checkout the layer ships in, at its HEAD' '
	rel=$layer/recipes-devtools/axfs-tools &&
	! grep -q "^DEFAULT_PREFERENCE" "$rel/axfs-tools_git.bb" &&
	grep -qx "DEFAULT_PREFERENCE = \"-1\"" "$rel/axfs-tools_$(cat "$AXFS_TOP/VERSION").bb" &&
	grep -q "^PV = \"\${@axfs_checkout_version(d)}+git\"" "$rel/axfs-tools_git.bb" &&
	sed -n "/^def /,\$p" "$rel/axfs-tools_git.bb" >defs.py &&
	test -s defs.py &&
	cat >run_defs.py <<-\PY &&
	import sys
	class D(dict):
	    def getVar(self, k): return self.get(k)
	exec(open("defs.py").read())
	d = D(AXFS_LAYERDIR=sys.argv[1])
	print(axfs_checkout_rev(d), axfs_checkout_version(d))
	PY
	python3 run_defs.py "$layer" >got &&
	echo "$(git -C "$AXFS_TOP" rev-parse HEAD) $(cat "$AXFS_TOP/VERSION")" >want &&
	test_cmp want got &&
	mkdir -p nogit/examples && cp -r "$layer" nogit/examples/ &&
	python3 run_defs.py "$TRASH/nogit/examples/meta-axfs" >got2 &&
	echo "INVALID 0.0.0" >want2 && test_cmp want2 got2
'

test_expect_success 'the module recipe licence checksum is right' '
	sed -n "s|.*file://LICENSES/GPL-2.0-only.txt;md5=\([0-9a-f]*\).*|\1|p" \
		"$layer/recipes-kernel/axfs-module/axfs-module_0.1.0.bb" >want &&
	test "$(md5sum <"$AXFS_TOP/LICENSES/GPL-2.0-only.txt" | cut -d" " -f1)" = "$(cat want)"
'

test_expect_success 'the README has what yocto-check-layer test_readme wants' '
	grep -qi maintainer "$layer/README.md" &&
	grep -qi patch "$layer/README.md" &&
	grep -q "[^@ ]@[^@ ]" "$layer/README.md" &&
	! grep -qi "readme" "$layer/README.md"
'

test_done
