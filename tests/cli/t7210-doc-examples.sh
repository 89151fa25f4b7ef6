#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Every command README.md, kernel/README.md and the man pages show runs,
# as git's doc tests run theirs, so that an example cannot rot: the
# extractor (tests/tools/docexamples.py) takes each line of a ```sh block
# and of a man page's .EX or .nf block (a block of output or data is marked
# in the source, `doc-test: output NAME` or `doc-test: skip REASON`), and
# each command runs as printed, a block's commands in order in one shell
# as a reader pastes them, each to exit 0 (axfs diff: 0 or 1, a
# difference), in a fresh copy of a directory holding the names the
# examples use (rootfs/, rootfs.axfs, rootfs.nor + rootfs.nand, nor.bin +
# nand.bin, profiles, ...), in a private mount namespace whose /tmp, /mnt
# and /srv are empty (mountpoints /tmp/rootfs, /tmp/img, /mnt/rootfs made),
# with axfs, mkfs.axfs and fsck.axfs of this build first in PATH.
# What cannot run here (the kernel module, a board's flash, the Makefile's
# own targets, the network) is listed below with the reason and the test
# that runs it instead; a listed command the documents no longer show is a
# failure too.  Where a document shows output, the output is checked:
# axfs-diff(1)'s lines, axfs-mkfs(1)'s summary, axfs-fsck(8)'s notice and
# JSON keys, axfs-policy(5)'s and README's policies, axfs-profile(5)'s
# lines, kernel/README.md's GRUB line.
. "$(dirname "$0")/lib.sh"

test_require_prereq ROOT "a private mount namespace for the mounts and the /tmp, /mnt paths the examples use"
test_lazy_prereq UNSHARE 'command -v unshare'
test_require_prereq UNSHARE
test_require_prereq FUSE "axfs mount's examples"
test_lazy_prereq PIPED_TOOLS 'command -v jq && command -v less && command -v fakeroot && command -v xz'
test_require_prereq PIPED_TOOLS "what the examples pipe into: jq, less, fakeroot, xz (make deps-tests)"

top=$AXFS_TOP
docs="README.md kernel/README.md"
for m in "$top"/man/*.[158]; do
	[ -L "$m" ] || docs="$docs man/${m##*/}"
done

# What cannot run in make check: a case pattern on the command, then why
# and which test runs it instead.
cat >cannot-run <<'EOF'
make demo	the Makefile's targets run the suites that hold this test (examples/demo.sh is make check's demo job)
make check	runs this test
make check-all	runs this test
make	the build this test uses
make install	t7000-install (make install DESTDIR=... PREFIX=/usr, then PREFIX=/usr/local)
make install PREFIX=/usr DESTDIR=/tmp/pkg	t7000-install
make uninstall	t7000-install
make B=build-clang CC=clang check	the Makefile's targets run the suites that hold this test
make check-*	the Makefile's targets run the suites that hold this test
make bench*	bench/, not make check
make *check*	the Makefile's targets run the suites that hold this test
make fuzz *	tests/fuzz: make fuzz (clang, libFuzzer)
make SANITIZE=1 check	make check's san suite
AXFS_TESTS=* make check-cli	the Makefile's targets run the suites that hold this test
cc -o lsaxfs lsaxfs.c *	a program of the user's: t7000-install builds one against the installed library with pkg-config
axfs mkfs \[options\] SOURCE -o IMAGE	a synopsis, not a command
axfs fsck /dev/mtd3	a board's MTD partition
fsck -t axfs /dev/mtdblock3	a board's MTD partition: t7000-install runs fsck -t axfs on an image file
fsck -t axfs -n /dev/mtdblock3	a board's MTD partition: t7000-install runs fsck -t axfs on an image file
mount -t fuse.axfs *	mount(8) finds the helper once installed: t7000-install (after make install) and t2500-mount (private namespace)
axfs mount -f *	stays in the foreground until unmounted: t2500-mount runs mount -f
mount -t axfs *	the kernel module: kernel/tests/guest/boot1.sh mounts every backend (make check's kernel-smoke)
modprobe axfs	the kernel module: kernel/tests/guest/boot1.sh loads it (kernel-smoke)
insmod kernel/axfs.ko	the kernel module: kernel/tests/guest/boot1.sh loads it with modprobe (kernel-smoke)
echo *volume0	the profiler of the kernel module: kernel/tests/guest/boot1.sh (kernel-smoke)
cat /proc/axfs/volume0 *	the profiler of the kernel module: kernel/tests/guest/boot1.sh (kernel-smoke)
cat /proc/axfs/volume0.order *	the profiler's order view: kernel/tests/guest/boot1.sh (kernel-smoke)
./run-the-workload	a placeholder for the user's workload
./run-the-boot-workload	a placeholder for the user's workload
(run the workload)	a placeholder for the user's workload
ssh target *	a target on the network: merge-profile reads - in t5000-merge-profile
curl *	the network: extract - reads a pipe in t2090-stdin-store
make -C kernel*	builds axfs.ko: kernel/tests/build-module.sh (kernel-smoke) and kernel/tests/patch-build.sh (check-all's packages)
sh kernel/tests/fetch-kernel.sh	kernel/tests/build-module.sh (kernel-smoke) fetches the kernel this way
eval "$(sh kernel/tests/*	kernel/tests/cross.sh and rootfs.sh (check-all) run these steps
sh kernel/tests/buildroot.sh *	kernel/tests/cross.sh (check-all's riscv64, arm64 newest) builds in it
(cd /path/to/linux *	kernel/tests/patch-build.sh (check-all's packages) applies the patch make -C kernel patch writes
qemu-system-*	kernel/tests/rootfs.sh (check-all's rootfs) boots these lines
sh kernel/tests/matrix.sh*	check-all's matrix suite
AXFS_KSUITE=* sh kernel/tests/run.sh	check-all's kernel and matrix suites
make -C buildroot*	Buildroot: t7300-buildroot checks the external tree
sh kernel/tools/mkinitramfs.sh *	needs a kernel's modules and an axfs.ko built for it: kernel/tests/rootfs.sh makes its initramfs with it (check-all's rootfs)
bitbake-layers *	Yocto: t7400-yocto (and check-all's bitbake test)
EOF

test_expect_success 'the documents show commands; every listed one is shown' '
	(cd "$top" && python3 tests/tools/docexamples.py $docs) >examples &&
	test "$(wc -l <examples)" -ge 100 &&
	while IFS="	" read -r pat why; do
		found=0
		while IFS="	" read -r where block cmd; do
			case $cmd in $pat) found=1; break ;; esac
		done <examples
		[ $found = 1 ] || { echo "listed, but no document shows it: $pat"; return 1; }
	done <cannot-run
'

# The names the examples use.  rootfs/ is examples/rootfs with what the
# examples name in it (/bin/busybox, /lib, /usr/lib/modules,
# /usr/share/doc, /etc/shadow); rootfs.axfs has a store segment (split
# splits it) and XIP pages (fsck of a profiled image).
test_expect_success 'the names the examples use' '
	mkdir fix && cd fix &&
	cp -R "$AXFS_TOP/examples/rootfs" rootfs &&
	{ cp /bin/busybox rootfs/bin/busybox 2>/dev/null || cp "$AXFS" rootfs/bin/busybox; } &&
	mkdir -p rootfs/usr/lib/modules/6.1 rootfs/usr/share/doc/axfs rootfs/dev \
		rootfs/usr/bin &&
	echo "kernel/fs/axfs/axfs.ko:" >rootfs/usr/lib/modules/6.1/modules.dep &&
	cp rootfs/etc/os-release rootfs/usr/lib/os-release &&
	echo "AXFS example" >rootfs/usr/share/doc/axfs/README &&
	echo "root:*:19000:0:99999:7:::" >rootfs/etc/shadow && chmod 640 rootfs/etc/shadow &&
	ln -s usr/lib rootfs/lib &&
	ln -s ../../bin/busybox rootfs/usr/bin/env &&
	cp -R rootfs tree &&
	ln -s "$AXFS_TOP/examples" examples &&
	cp "$AXFS_TOP/examples/policy.yaml" policy.yaml &&
	for n in 0 4096 8192 12288; do echo "./bin/busybox,$n,3"; done >profile.csv &&
	for p in boot boot-1 boot-2 boot1 boot2 boot3 app field old; do
		cp profile.csv $p.csv || return 1
	done &&
	# Buildroot: its output tree and its default device table
	mkdir -p system output && cp -R rootfs output/target &&
	printf "%s\n" "/dev d 755 0 0 - - - - -" "/dev/console c 600 0 0 5 1 - - -" >system/device_table.txt &&
	# two boots recorded with their order (/proc/axfs/volume0.order)
	{ echo "# axfs-profile order" &&
	  echo "./bin/busybox,0,3,1" && echo "./etc/os-release,0,0,2" &&
	  echo "./bin/busybox,8192,1,3"; } >boot-1.order &&
	{ echo "# axfs-profile order" &&
	  echo "./etc/os-release,0,0,1" && echo "./bin/busybox,0,2,2"; } >boot-2.order &&
	cp boot-1.order boot.order && cp boot-2.order boot2.order &&
	mkdir fleet && cp profile.csv fleet/a.csv && cp profile.csv fleet/b.csv &&
	tar -C rootfs -cJf rootfs.tar.xz . &&
	cp rootfs.tar.xz old.tar.xz &&
	"$AXFS" mkfs -q -p profile.csv --mmap-limit 64KiB rootfs -o rootfs.axfs &&
	"$AXFS" split rootfs.axfs --mmap rootfs.nor --store rootfs.nand &&
	cp rootfs.nor nor.bin && cp rootfs.nand nand.bin &&
	for n in rootfs-1.0 rootfs-1.1 new a firmware untrusted image; do
		cp rootfs.axfs $n.axfs || return 1
	done &&
	cp -R rootfs v11 && echo changed >v11/etc/motd &&
	"$AXFS" mkfs -q v11 -o rootfs-1.1.axfs && rm -rf v11 &&
	mkdir bin && for n in axfs mkfs.axfs fsck.axfs; do ln -s "$AXFS" bin/$n || return 1; done &&
	# the generator of the user, who feeds an archive to mkfs -
	printf "#!/bin/sh\nexec tar -C rootfs -cf - .\n" >bin/some-generator &&
	chmod +x bin/some-generator
'

# run_block DIR CMDS RES: the lines of CMDS in DIR, in order, in one shell
# (as a reader pastes a block: variables and cd carry over), in a private
# mount namespace whose /tmp (but for $TRASH), /mnt and /srv are empty;
# RES.N gets the output of line N, RES.N.rc its exit status.  FUSE mounts
# left at the end are unmounted.
run_block() {
	i=0
	while IFS= read -r cmd; do
		i=$((i + 1))
		case $cmd in
		# No sudo here, and root needs none: the command it runs.
		"sudo "*) cmd=${cmd#sudo } ;;
		esac
		printf '{ %s\n} >"%s.%d" 2>&1 </dev/null; echo $? >"%s.%d.rc"\n' \
			"$cmd" "$3" $i "$3" $i
	done <"$2" >"$2.sh"
	unshare -m --propagation private sh -s "$1" "$2.sh" "$TRASH" \
		"$AXFS_TOP" "$(dirname "$AXFS")" <<-\EOF
	dir=$1 script=$2 trash=$3
	ns=$dir.ns
	mkdir -p "$ns/tmp/rootfs" "$ns/tmp/img" "$ns/mnt/rootfs" "$ns/srv" || exit 1
	# What must stay visible under the empty /tmp: the trash directory,
	# and the clone and build the commands run from (a user may clone
	# into /tmp).
	shift 2
	for keep in "$@"; do
		case $keep in
		/tmp/*) mkdir -p "$ns/tmp/${keep#/tmp/}" &&
			mount --bind "$keep" "$ns/tmp/${keep#/tmp/}" || exit 1 ;;
		esac
	done
	mount --rbind "$ns/tmp" /tmp && mount --bind "$ns/mnt" /mnt &&
		mount --bind "$ns/srv" /srv && cd "$dir" || exit 1
	PATH=$trash/fix/bin:$PATH timeout 300 sh "$script"
	for m in $(awk '$3 ~ /^fuse/ { print $2 }' /proc/self/mounts); do
		fusermount3 -u -z "$m"
	done
	EOF
}

# Block by block: the commands that can run, in a fresh copy of fix/.
mkdir res
: >not-run
for block in $(cut -f2 examples | uniq); do
	: >cmds
	: >where
	while IFS="	" read -r where b cmd; do
		[ "$b" = "$block" ] || continue
		skip=""
		while IFS="	" read -r pat why; do
			case $cmd in $pat) skip=$why; break ;; esac
		done <cannot-run
		if [ -n "$skip" ]; then
			echo "$where: $cmd: not run: $skip" >>not-run
		else
			printf '%s\n' "$cmd" >>cmds
			printf '%s\n' "$where" >>where
		fi
	done <examples
	[ -s cmds ] || continue
	id=$(echo "$block" | tr /: __)
	rm -rf run run.ns && cp -R fix run && run_block "$TRASH/run" "$TRASH/cmds" "$TRASH/res/$id"
	i=0
	while IFS= read -r cmd <&3 && IFS= read -r where <&4; do
		i=$((i + 1))
		case $cmd in
		"axfs diff "*) ok="0 1" ;;	# 1: the images differ, as diff(1)
		*) ok=0 ;;
		esac
		test_expect_success "$where: $cmd" '
			cat "res/$id.$i" && rc=$(cat "res/$id.$i.rc") ||
				{ echo "did not run: the block stopped before it"; return 1; }
			case " $ok " in
			*" $rc "*) ;;
			*) echo "exit $rc, wanted $ok"; false ;;
			esac
		'
	done 3<cmds 4<where
done

test_expect_success 'the commands that cannot run here are these (each with what runs it instead)' '
	cat not-run && test -s not-run
'

# The output the documents show.
block() {	# block NAME: the text of the block marked "doc-test: output NAME"
	(cd "$top" && python3 tests/tools/docexamples.py --block "$1" $docs)
}

test_expect_success 'axfs-diff(1): the lines it shows are what axfs diff prints for those changes' '
	mkdir -p d1/etc d1/usr/lib d1/bin d1/www &&
	printf "%068d" 0 >d1/etc/motd && : >d1/usr/lib/old.so &&
	ln -s busybox d1/bin/sh &&
	echo "root:*:1::::::" >d1/etc/shadow && chmod 640 d1/etc/shadow &&
	chown 0:42 d1/etc/shadow &&
	cp -a d1 d2 && rm d2/usr/lib/old.so && : >d2/etc/new.conf &&
	printf "%070d" 0 >d2/etc/motd && ln -sfn dash d2/bin/sh &&
	chmod 600 d2/etc/shadow && chown 0:0 d2/etc/shadow &&
	rmdir d2/www && : >d2/www && chmod 644 d2/www && chmod 755 d1/www &&
	"$AXFS" mkfs -q d1 -o d1.axfs && "$AXFS" mkfs -q d2 -o d2.axfs &&
	test_expect_code 1 "$AXFS" diff d1.axfs d2.axfs >got &&
	block diff-lines >want && test_cmp want got
'

# A line of a document as a pattern: each number any number (and unit),
# "..." any text.
shape() {
	sed -E -e 's/[0-9]+(\.[0-9]+)?/@N@/g' -e 's/[][\.^$*/]/\\&/g' \
		-e 's/\\\.\\\.\\\./.*/g' -e 's/@N@ (bytes|[KMG]iB)/@N@ [A-Za-z]*/g' -e 's/@N@/[0-9.]*/g' -e 's/^/^/' -e 's/$/$/'
}

test_expect_success 'axfs-mkfs(1): the summary it shows has the shape of what axfs mkfs prints' '
	cp -R fix/rootfs t && for n in 0 4096 8192; do echo "./bin/busybox,$n,3"; done >p.csv &&
	"$AXFS" mkfs -b 64KiB -p p.csv t -o rootfs.axfs >got 2>&1 &&
	block mkfs-summary | shape >want &&
	test "$(wc -l <want)" = "$(wc -l <got)" &&
	i=0 && while IFS= read -r re; do
		i=$((i + 1)) &&
		sed -n "${i}p" got | grep -q -- "$re" ||
			{ echo "line $i is not $re:"; cat got; return 1; }
	done <want
'

test_expect_success 'axfs-fsck(8): the notice line it shows has the shape of what fsck prints' '
	cp -R fix/rootfs t2 && : >p2.csv &&
	for f in ls cp mv; do
		cp "$AXFS" t2/bin/$f && printf "x%s" $f >>t2/bin/$f &&
		echo "./bin/$f,0,3" >>p2.csv && echo "./bin/$f,8192,3" >>p2.csv || return 1
	done &&
	"$AXFS" mkfs -q -p p2.csv t2 -o rootfs.axfs &&
	"$AXFS" fsck rootfs.axfs >got &&
	block fsck-notice | shape >want && grep -q -f want got
'

test_expect_success 'axfs-fsck(8): its JSON example has the keys fsck --json prints, in that order' '
	"$AXFS" fsck --json fix/rootfs.axfs >got.json &&
	block fsck-json >want.json &&
	keys() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); print(list(d), list(d[\"findings\"][0]))" "$1"; } &&
	keys want.json >want && keys got.json >got && test_cmp want got
'

test_expect_success 'axfs-policy(5) and README: the policies they show build an image of a tree that has what they name' '
	mkdir files && echo "Welcome" >files/motd &&
	cp -R fix/rootfs t3 && mkdir -p t3/home/user t3/usr/share/doc/x &&
	cp "$AXFS" t3/bin/su && echo x | gzip >t3/usr/share/doc/x/changelog.gz &&
	mkdir -p t3/etc/init.d && echo "#!/bin/sh" >t3/etc/init.d/rcS &&
	block policy-example >p.yaml && "$AXFS" mkfs -q --policy p.yaml t3 -o p.axfs &&
	"$AXFS" ls -l p.axfs /bin/su /dev/console >ls.out &&
	grep -q "^-rwsr-xr-x .* /bin/su$" ls.out && grep -q "^crw------- .* 5, *1 .*/dev/console$" ls.out &&
	block readme-policy >r.yaml && "$AXFS" mkfs -q --policy r.yaml t3 -o r.axfs &&
	"$AXFS" cat r.axfs /etc/motd >motd && test_cmp files/motd motd
'

test_expect_success 'kernel/README.md: the GRUB line leaves memmap=64M\$0x10000000 in grub.cfg' '
	block grub-default >grub && . ./grub &&
	echo "$GRUB_CMDLINE_LINUX" >got &&
	printf "%s\n" "memmap=64M\\\$0x10000000 root=/dev/root rootfstype=axfs rootflags=physaddr=0x10000000" >want &&
	test_cmp want got
'

test_expect_success 'axfs-mkfs(1): the device table it shows builds the nodes it names' '
	block device-table >table.txt &&
	"$AXFS" mkfs -q --all-root --device-table table.txt fix/rootfs -o dt.axfs &&
	"$AXFS" ls -ln dt.axfs /dev/console /dev/ttyS0 /dev/ttyS3 /bin/busybox >ls.out &&
	grep -q "^crw------- 0/0 *5, *1 .*/dev/console$" ls.out &&
	grep -q "^crw-rw---- 0/5 *4, *64 .*/dev/ttyS0$" ls.out &&
	grep -q "^crw-rw---- 0/5 *4, *67 .*/dev/ttyS3$" ls.out &&
	grep -q "^-rwsr-xr-x 0/0 .*/bin/busybox$" ls.out
'

test_expect_success 'axfs-profile(5) and axfs-mkfs(1): the ordered profile shown is read, and mkfs prints the summary line shown' '
	block profile-order >order.csv && head -n 1 order.csv >want &&
	echo "# axfs-profile order" >hdr && test_cmp hdr want &&
	mkdir -p ot/bin ot/etc && head -c 20000 /dev/urandom >ot/bin/busybox &&
	echo x >ot/etc/inittab &&
	"$AXFS" mkfs -v -p order.csv ot -o ot.axfs 2>&1 | grep "^ *boot order:" >got &&
	block boot-order-summary >shown &&
	sed -e "s/[0-9][0-9]*/N/g" -e "s/^ *//" got >got.n && sed -e "s/[0-9][0-9]*/N/g" -e "s/^ *//" shown >shown.n &&
	test_cmp shown.n got.n
'

test_expect_success 'axfs-profile(5): the lines it shows are a profile merge-profile reads' '
	block profile-lines >lines.csv && test -s lines.csv &&
	"$AXFS" merge-profile lines.csv -o merged.csv && test -s merged.csv
'

test_done
