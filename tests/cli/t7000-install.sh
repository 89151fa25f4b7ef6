#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# `make install DESTDIR=... PREFIX=/usr` installs everything a distribution
# needs and only the API headers (include/axfs/), a program builds against
# the installed library with pkg-config, makes an image, checks and reads
# it, the library exports only its declared axfs_* API, mkfs.axfs and
# fsck.axfs reach our commands (also through `mkfs -t axfs`), the bash
# completion works, `mount -t fuse.axfs` and an fstab line mount an image
# after an install with PREFIX=/usr/local and with PREFIX=/usr, and `make
# uninstall` removes it all again.
. "$(dirname "$0")/lib.sh"

top=$AXFS_TOP
build=${AXFS_BUILD:-$top/build}
B=${build#"$top"/}
D=$TRASH/dest
CC=${CC:-cc}
# Run make as a user would, not as a child of the `make check` around us.
unset MAKEFLAGS MFLAGS MAKELEVEL MAKEOVERRIDES

export PKG_CONFIG_PATH="$D/usr/lib/pkgconfig" PKG_CONFIG_SYSROOT_DIR="$D"
# Programs built here find the installed libaxfsimg.so.0 as the dynamic
# linker is told (no runpath, as a distribution wants).
export LD_LIBRARY_PATH="$D/usr/lib"
# Only our .pc file, not one installed on this machine.
PKG_CONFIG_LIBDIR="$D/usr/lib/pkgconfig:$(pkg-config --variable pc_path pkg-config)"
export PKG_CONFIG_LIBDIR

mktree() {	# a small tree with every kind of file a user has
	mkdir -p tree/bin tree/etc/init.d tree/usr/share/doc &&
	printf 'hello\n' >tree/etc/hostname &&
	seq 1 3000 >tree/usr/share/doc/numbers &&
	cp "$AXFS" tree/bin/prog &&
	printf '#!/bin/sh\necho hi\n' >tree/etc/init.d/rcS &&
	chmod 755 tree/etc/init.d/rcS &&
	ln -s prog tree/bin/alias &&
	: >tree/etc/empty
}

test_expect_success 'make install DESTDIR=... PREFIX=/usr installs every part' '
	# The build itself finds the machine'"'"'s libraries (fuse3 has its own
	# include directory), not the DESTDIR view of pkg-config set above.
	env -u PKG_CONFIG_PATH -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_LIBDIR \
		make -s -C "$top" B="$B" install DESTDIR="$D" PREFIX=/usr >install.log 2>&1 ||
		{ cat install.log; false; } &&
	test -x "$D/usr/bin/axfs" &&
	test -f "$D/usr/lib/libaxfsimg.a" &&
	test -f "$D/usr/lib/libaxfsimg.so.0.1.0" &&
	test "$(readlink "$D/usr/lib/libaxfsimg.so.0")" = libaxfsimg.so.0.1.0 &&
	test "$(readlink "$D/usr/lib/libaxfsimg.so")" = libaxfsimg.so.0.1.0 &&
	test -f "$D/usr/lib/pkgconfig/axfsimg.pc" &&
	test -f "$D/usr/include/axfs/axfs_reader.h" &&
	test -f "$D/usr/include/axfs/axfs_format.h" && test -f "$D/usr/include/axfs/axfs_fs.h" &&
	test -f "$D/usr/share/bash-completion/completions/axfs" &&
	for m in "$top"/man/*.[158]; do
		s=${m##*.} &&
		test -f "$D/usr/share/man/man$s/$(basename "$m")" || { echo "not installed: $m"; return 1; }
	done
'

test_expect_success 'the installed pages include axfs(1) and axfs(5)' '
	test -f "$D/usr/share/man/man1/axfs.1" &&
	test -f "$D/usr/share/man/man5/axfs.5"
'

test_expect_success MAN 'man mkfs.axfs and man fsck.axfs show the pages of axfs mkfs and fsck' '
	MANWIDTH=80 man -M "$D/usr/share/man" 8 mkfs.axfs >m1 2>m1.err &&
	! test -s m1.err && grep -q "^AXFS-MKFS(1)" m1 && grep -q -- "--block-size" m1 &&
	MANWIDTH=80 man -M "$D/usr/share/man" 8 fsck.axfs >m8 2>m8.err &&
	! test -s m8.err && grep -q "^AXFS-FSCK(8)" m8 && grep -q -- "--max-per-check" m8
'

test_expect_success 'mkfs.axfs and fsck.axfs are relative links to the installed axfs' '
	for n in mkfs.axfs fsck.axfs; do
		test -L "$D/usr/sbin/$n" &&
		case $(readlink "$D/usr/sbin/$n") in /*) echo "absolute link: $n"; return 1 ;; esac &&
		test "$(readlink -f "$D/usr/sbin/$n")" = "$(readlink -f "$D/usr/bin/axfs")" || return 1
	done &&
	"$D/usr/sbin/mkfs.axfs" --help >mkfs.help &&
	grep -q "axfs mkfs" mkfs.help &&
	"$D/usr/sbin/fsck.axfs" --help >fsck.help &&
	grep -q "axfs fsck" fsck.help &&
	"$D/usr/bin/axfs" --version >version &&
	grep -q "0\.1\.0" version
'

# axfs uses the library's internal headers too, so it carries the library
# (libaxfsimg.a) instead of depending on what libaxfsimg.so promises.
test_expect_success 'the installed axfs carries the library and has no runpath' '
	readelf -d "$D/usr/bin/axfs" >axfs.dyn &&
	! grep -q "NEEDED.*libaxfsimg" axfs.dyn &&
	! grep -E "RPATH|RUNPATH" axfs.dyn
'

test_expect_success 'the shared library has a soname and a version' '
	readelf -d "$D/usr/lib/libaxfsimg.so.0.1.0" >dyn &&
	grep -q "SONAME.*\[libaxfsimg\.so\.0\]" dyn
'

test_expect_success 'libaxfsimg.so exports only axfs_* symbols' '
	nm -D --defined-only "$D/usr/lib/libaxfsimg.so.0.1.0" >nm.out &&
	awk "\$2 != \"A\" { sub(/@.*/, \"\", \$3); print \$3 }" nm.out | sort -u >exported &&
	test "$(wc -l <exported)" -gt 20 &&
	grep -q "^axfs_image_open\$" exported &&
	! grep -v "^axfs_" exported &&
	! grep "^axfs__" exported
'

test_expect_success 'the installed headers are include/axfs/, no private one' '
	(cd "$top/include/axfs" && ls) >api.want &&
	(cd "$D/usr/include/axfs" && ls) >api.got &&
	test_cmp api.want api.got &&
	for h in packer.h tree.h stages.h outfile.h json.h report.h; do
		test -f "$top/libaxfsimg/internal/$h" &&
		! test -e "$D/usr/include/axfs/$h" || { echo "installed: $h"; return 1; }
	done
'

test_expect_success 'the functions of the pipeline stages and the internal headers are not exported' '
	for s in pack_tree plan_tree write_image bytetable_build tree_add \
		 outfile_open report_build json_str; do
		grep -qx "$s" exported && { echo "exported: $s"; return 1; }
		nm "$D/usr/lib/libaxfsimg.a" | grep -q " T $s\$" || { echo "not in the library: $s"; return 1; }
	done &&
	grep -qx axfs_build exported && grep -qx axfs_build_summary exported &&
	grep -qx axfs_fsck_file exported
'

# axfs_ means exported: a private function takes its unit's prefix
# (libaxfsimg/README.md, Names).
test_expect_success 'every axfs_ function of the library is exported' '
	nm "$D/usr/lib/libaxfsimg.a" |
	awk "\$2 == \"T\" && \$3 ~ /^axfs_/ { print \$3 }" | sort -u >axfs_defined &&
	test "$(wc -l <axfs_defined)" -gt 20 &&
	comm -23 axfs_defined exported >axfs_private &&
	{ ! test -s axfs_private || { echo "not exported:"; cat axfs_private; false; }; }
'

# A phase never calls back into its orchestrator, nor two helper files
# into each other (libaxfsimg/README.md): no loop in the graph of which
# object of the archive calls which, or includes the header beside which
# file (x.h of x.c: that file's own types).
test_expect_success 'calls between the files of the library run one way' '
	nm -A "$D/usr/lib/libaxfsimg.a" >lib.nm &&
	python3 "$top/tests/tools/call_cycles.py" --sources "$top/libaxfsimg" \
		<lib.nm >cycles.out ||
		{ cat cycles.out; false; } &&
	grep -q "^[1-9][0-9]* files, [1-9][0-9]* calls\$" cycles.out &&
	printf "%s\n" "l.a:a.o:0000 T f" "l.a:a.o:     U g" "l.a:b.o:0000 T g" \
		"l.a:b.o:     U h" "l.a:c.o:0000 T h" "l.a:c.o:     U f" \
		"l.a:d.o:     U f" >loop.nm &&
	test_must_fail python3 "$top/tests/tools/call_cycles.py" <loop.nm >loop.out &&
	echo "files that call each other: a.o b.o c.o" >loop.want &&
	test_cmp loop.want loop.out
'

# The loop of issue 41: d.c calls e.c, which uses the types of d.h (the
# header beside d.c) but calls nothing in d.c.
test_expect_success 'a helper including its caller'"'"'s own header is a loop too' '
	mkdir -p inc/u &&
	printf "#include \"d.h\"\n" >inc/u/e.c &&
	: >inc/u/d.c && : >inc/u/d.h &&
	printf "%s\n" "l.a:d.o:0000 T run" "l.a:d.o:     U help" \
		"l.a:e.o:0000 T help" >inc.nm &&
	python3 "$top/tests/tools/call_cycles.py" <inc.nm >inc.out &&
	test_must_fail python3 "$top/tests/tools/call_cycles.py" \
		--sources inc <inc.nm >inc.out &&
	echo "files that call each other: d.o e.o" >inc.want &&
	test_cmp inc.want inc.out
'

# The same for names the compiler sees: a struct, union or enum tag, an
# enumerator, a typedef or a macro that a private file defines takes its
# unit's prefix, unless include/axfs/ declares it (an opaque public type is
# defined privately); kernel/ keeps the driver's names.
test_expect_success 'no private file defines a type, constant or macro with the axfs_ prefix' '
	python3 "$top/tests/tools/private_names.py" "$top" >names.out ||
		{ cat names.out; false; } &&
	grep -q "^[1-9][0-9]* private files, [1-9][0-9]* public names defined privately\$" names.out
'

test_expect_success 'a header is named axfs_ only where it is installed' '
	(cd "$top/include/axfs" && ls) | grep -v "^axfs_" >api-names.out;
	(cd "$top/libaxfsimg" && find . -name "axfs_*.h") >private-names.out;
	! test -s api-names.out && ! test -s private-names.out
'

test_expect_success 'the private-name check finds a tag, an enumerator, a typedef and a macro' '
	mkdir -p fake/include/axfs fake/libaxfsimg/unit &&
	printf "struct axfs_public;\n#define AXFS_FORMAT_MAGIC 1\n" >fake/include/axfs/axfs_x.h &&
	cat >fake/libaxfsimg/unit/internal.h <<-\EOF &&
	struct axfs_public { int a; };
	struct axfs_private { int a; };
	enum unit_kind { UNIT_A, AXFS_KIND_B = 2 };
	typedef int (*axfs_fn)(void);
	#define AXFS_LIMIT 4 /* "#define AXFS_IN_COMMENT" */
	static const char *s = "struct axfs_in_string {";
	EOF
	test_must_fail python3 "$top/tests/tools/private_names.py" fake >fake.out &&
	cat >fake.want <<-\EOF &&
	private name with the exported prefix: libaxfsimg/unit/internal.h:2: axfs_private
	private name with the exported prefix: libaxfsimg/unit/internal.h:3: AXFS_KIND_B
	private name with the exported prefix: libaxfsimg/unit/internal.h:4: axfs_fn
	private name with the exported prefix: libaxfsimg/unit/internal.h:5: AXFS_LIMIT
	EOF
	test_cmp fake.want fake.out
'

test_expect_success 'every exported symbol is declared in an installed header' '
	bad=0 &&
	while read -r s; do
		grep -qw "$s" "$D"/usr/include/axfs/*.h || { echo "undeclared export: $s"; bad=1; }
	done <exported &&
	test $bad = 0
'

test_expect_success 'pkg-config finds axfsimg inside DESTDIR' '
	pkg-config --exists axfsimg &&
	test "$(pkg-config --modversion axfsimg)" = 0.1.0 &&
	pkg-config --cflags --libs axfsimg >pc.out &&
	grep -q -- "-I$D/usr/include/axfs" pc.out &&
	grep -q -- "-L$D/usr/lib" pc.out &&
	grep -q -- "-laxfsimg" pc.out &&
	pkg-config --static --libs axfsimg >pc.static &&
	grep -q -- "-lz" pc.static && grep -q -- "-larchive" pc.static &&
	grep -q -- "-lyaml" pc.static && grep -q -- "-lmd" pc.static
'

test_expect_success 'every installed header compiles on its own' '
	# axfs_fs.h is the format in the kernel'"'"'s style, for user space only
	# through its shim axfs_format.h (which checks it here).
	for h in "$D"/usr/include/axfs/*.h; do
		[ "$(basename "$h")" != axfs_fs.h ] || continue
		printf "#include <%s>\nint axfs_test_dummy;\n" "$(basename "$h")" >h.c &&
		$CC -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags axfsimg) -c h.c -o h.o ||
			{ echo "does not compile alone: $h"; return 1; }
	done
'

# The API headers leave a program's namespace to it: the format (the
# kernel-style axfs_fs.h and its shim axfs_format.h, with the byte-order
# helpers under their kernel names and <linux/types.h>) comes only to a
# program that includes axfs_format.h itself.
test_expect_success 'the API headers together: a program defines its own be32_to_cpu and gets no <linux/types.h>' '
	: >ns.c &&
	for h in "$D"/usr/include/axfs/*.h; do
		case ${h##*/} in axfs_fs.h | axfs_format.h) continue ;; esac
		echo "#include <${h##*/}>" >>ns.c
	done &&
	grep -q "^#include <axfs_reader.h>" ns.c && grep -q "^#include <axfs_vfs.h>" ns.c &&
	cat >>ns.c <<-\EOF &&
	#ifdef _LINUX_TYPES_H
	#error "<linux/types.h> reached the program"
	#endif
	/* The names axfs_format.h gives, with other meanings. */
	struct word { unsigned char b[4]; };
	static int be32_to_cpu(struct word w) { return w.b[0]; }
	static int be64_to_cpu(struct word w) { return w.b[1]; }
	static int get_unaligned_be32(int x) { return x + 1; }
	static int get_unaligned_be64(int x) { return x + 2; }
	static int put_unaligned_be32(int x) { return x + 3; }
	static int put_unaligned_be64(int x) { return x + 4; }
	int main(void)
	{
		struct word w = { { 1, 2, 3, 4 } };
		struct axfs_super_info si;

		(void)si;
		return be32_to_cpu(w) + be64_to_cpu(w) + get_unaligned_be32(0) +
		       get_unaligned_be64(0) + put_unaligned_be32(0) +
		       put_unaligned_be64(0) - 13 + (int)sizeof(si.signature) - 16;
	}
	EOF
	$CC -std=c11 -Wall -Wextra -Werror $(pkg-config --cflags axfsimg) -o ns ns.c $(pkg-config --libs axfsimg) &&
	./ns
'

cat >prog.c <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A user of the installed library: lists an image, and checks an error. */
#include <stdio.h>
#include <string.h>
#include <axfs_reader.h>

static int show(void *ctx, const char *path, const struct axfs_inode_info *ino)
{
	unsigned long *n = ctx;

	(*n)++;
	printf("%s %06o %llu\n", path, (unsigned)ino->mode,
	       (unsigned long long)ino->size);
	return 0;
}

int main(int argc, char **argv)
{
	struct axfs_open_opts o;
	struct axfs_error err;
	struct axfs_image *img;
	unsigned long n = 0;
	static const unsigned char junk[4096];

	if (argc != 2)
		return 2;
	memset(&o, 0, sizeof(o));
	o.struct_size = sizeof(o);
	axfs_error_clear(&err);
	/* A hostile buffer is refused with a message, not a crash. */
	if (axfs_image_open_buffer(&img, junk, sizeof(junk), "junk", &o, &err) == 0) {
		fprintf(stderr, "junk accepted\n");
		return 1;
	}
	printf("junk: %s\n", err.msg);
	if (axfs_image_open(&img, argv[1], &o, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 1;
	}
	if (axfs_image_walk(img, show, &n, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		axfs_image_close(img);
		return 1;
	}
	printf("%lu inodes\n", n);
	axfs_image_close(img);
	return 0;
}
EOF

test_expect_success 'a private header cannot be included from the install' '
	printf "#include <packer.h>\nint axfs_test_dummy;\n" >private.c &&
	test_must_fail $CC -std=c11 $(pkg-config --cflags axfsimg) -c private.c -o private.o 2>private.err &&
	grep -q "packer.h" private.err
'

test_expect_success 'a program builds with pkg-config --cflags --libs axfsimg' '
	$CC -std=c11 -Wall -Wextra -Werror -o prog prog.c $(pkg-config --cflags --libs axfsimg) &&
	LD_LIBRARY_PATH="$D/usr/lib" ldd ./prog >ldd.out &&
	grep -q "libaxfsimg\.so\.0 => $D/usr/lib/libaxfsimg\.so\.0" ldd.out
'

test_expect_success 'the program runs against the installed library and reads an image' '
	mktree &&
	"$D/usr/bin/axfs" mkfs -q tree -o tree.axfs &&
	LD_LIBRARY_PATH="$D/usr/lib" ./prog tree.axfs >prog.out &&
	grep -q "^junk: " prog.out &&
	(cd tree && find . | wc -l) >want &&
	sed -n "s/^\([0-9]*\) inodes\$/\1/p" prog.out >got &&
	test "$(cat got)" -eq "$(cat want)" &&
	grep -q "^/usr/share/doc/numbers 100644 $(wc -c <tree/usr/share/doc/numbers)\$" prog.out
'

cat >mkimg.c <<'EOF'
/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Builds an image, checks it and reads a file back: the whole API. */
#include <stdio.h>
#include <string.h>
#include <axfs_build.h>
#include <axfs_fsck.h>
#include <axfs_reader.h>

static int fail(const char *what, const struct axfs_error *err)
{
	fprintf(stderr, "%s: %s\n", what, err->msg);
	return 1;
}

int main(int argc, char **argv)
{
	struct axfs_build_opts bo;
	struct axfs_build_result *res;
	const struct axfs_build_summary *sum;
	struct axfs_fsck_opts fo;
	struct axfs_fsck_result fr;
	struct axfs_open_opts oo;
	struct axfs_error err;
	struct axfs_image *img;
	static char buf[1 << 20];
	uint64_t ino;
	size_t got;

	if (argc != 4)	/* SOURCE IMAGE PATH-IN-IMAGE */
		return 2;
	axfs_error_clear(&err);
	axfs_build_opts_init(&bo);
	bo.source = argv[1];
	bo.output = argv[2];
	if (axfs_build(&bo, &res, &err) < 0)
		return fail("build", &err);
	sum = axfs_build_summary(res);
	printf("%llu bytes, %llu inodes\n",
	       (unsigned long long)sum->image_size,
	       (unsigned long long)sum->inodes);
	axfs_build_result_free(res);

	axfs_fsck_opts_init(&fo);
	fo.deep = 1;
	if (axfs_fsck_file(argv[2], NULL, &fo, &fr, &err) < 0)
		return fail("fsck", &err);
	if (fr.errors || fr.warnings) {
		fprintf(stderr, "fsck: %llu errors\n",
			(unsigned long long)fr.errors);
		return 1;
	}

	memset(&oo, 0, sizeof(oo));
	oo.struct_size = sizeof(oo);
	if (axfs_image_open(&img, argv[2], &oo, &err) < 0)
		return fail("open", &err);
	if (axfs_image_lookup(img, argv[3], &ino, &err) < 0 ||
	    axfs_image_read(img, ino, 0, buf, sizeof(buf), &got, &err) < 0) {
		axfs_image_close(img);
		return fail(argv[3], &err);
	}
	axfs_image_close(img);
	return fwrite(buf, 1, got, stdout) == got ? 0 : 1;
}
EOF

# The same bytes as `axfs mkfs` of the same tree: the command adds nothing
# to the library call but its options.
test_expect_success 'a program builds an image, checks it and reads it back through the installed API' '
	$CC -std=c11 -Wall -Wextra -Werror -o mkimg mkimg.c $(pkg-config --cflags --libs axfsimg) &&
	SOURCE_DATE_EPOCH=1700000000 ./mkimg tree api.axfs /usr/share/doc/numbers >mkimg.out &&
	(cd tree && find . | wc -l) >want &&
	head -n 1 mkimg.out >mkimg.head &&
	echo "$(wc -c <api.axfs) bytes, $(cat want) inodes" >mkimg.want &&
	test_cmp mkimg.want mkimg.head &&
	sed 1d mkimg.out >numbers.got &&
	test_cmp tree/usr/share/doc/numbers numbers.got &&
	SOURCE_DATE_EPOCH=1700000000 "$D/usr/bin/axfs" mkfs -q tree -o cmd.axfs &&
	cmp api.axfs cmd.axfs
'

test_expect_success 'a program links with the installed libaxfsimg.a and its Requires.private' '
	deps=$(pkg-config --print-requires-private axfsimg | tr "\n" " ") &&
	test -n "$deps" &&
	$CC -std=c11 -o prog-static prog.c $(pkg-config --cflags axfsimg) \
		"$D/usr/lib/libaxfsimg.a" $(pkg-config --libs $deps) -pthread &&
	! ldd ./prog-static | grep -q libaxfsimg &&
	./prog-static tree.axfs >static.out &&
	cmp prog.out static.out
'

test_expect_success 'the static link flags name the thread library' '
	pkg-config --static --libs axfsimg | grep -q -- "-pthread"
'

# The default PREFIX, and no sysroot: pkg-config --define-prefix derives
# the prefix from where axfsimg.pc lies, as a user of an unpacked DESTDIR
# tree (or a relocated SDK) does.
D2=$TRASH/dest-local
test_expect_success 'a /usr/local install in a DESTDIR builds a program with pkg-config --define-prefix' '
	env -u PKG_CONFIG_PATH -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_LIBDIR \
		make -s -C "$top" B="$B" install DESTDIR="$D2" >install2.log 2>&1 ||
		{ cat install2.log; false; } &&
	pc="$D2/usr/local/lib/pkgconfig/axfsimg.pc" &&
	grep -qx "prefix=/usr/local" "$pc" &&
	grep -qx "libdir=\${prefix}/lib" "$pc" &&
	flags=$(env -u PKG_CONFIG_SYSROOT_DIR PKG_CONFIG_PATH="$D2/usr/local/lib/pkgconfig" \
		pkg-config --define-prefix --cflags --libs axfsimg) &&
	echo "$flags" | grep -q -- "-I$D2/usr/local/include/axfs" &&
	$CC -std=c11 -Wall -Wextra -Werror -o prog-local prog.c $flags &&
	LD_LIBRARY_PATH="$D2/usr/local/lib" ./prog-local tree.axfs >local.out &&
	cmp prog.out local.out &&
	make -s -C "$top" B="$B" uninstall DESTDIR="$D2" >uninstall2.log 2>&1 &&
	! find "$D2" ! -type d | grep .
'

test_lazy_prereq MKFS_FSCK 'command -v mkfs && command -v fsck'
test_expect_success MKFS_FSCK 'mkfs -t axfs and fsck -t axfs reach our commands' '
	PATH="$D/usr/sbin:$D/usr/bin:$PATH" mkfs -t axfs tree viamkfs.axfs >mkfs.out &&
	grep "^wrote .viamkfs.axfs.: [0-9]* bytes" mkfs.out &&
	cmp tree.axfs viamkfs.axfs &&
	PATH="$D/usr/sbin:$D/usr/bin:$PATH" fsck -t axfs "$PWD/viamkfs.axfs" >fsck.out 2>&1 ||
		{ cat fsck.out; false; } &&
	grep "viamkfs.axfs: clean, " fsck.out
'

# As the README shows it: util-linux fsck(8) passes an absolute file name
# on (a relative one that is no device it skips, exit 0, checking nothing),
# and a truncated image must fail through it and through fsck.axfs alone.
test_expect_success MKFS_FSCK 'fsck -t axfs /abs/path and fsck.axfs fail on a truncated image' '
	head -c 3000 viamkfs.axfs >trunc.axfs &&
	PATH="$D/usr/sbin:$D/usr/bin:$PATH" fsck -t axfs "$PWD/trunc.axfs" >fsck.out 2>&1;
	test $? -eq 4 && grep "trunc.axfs: byte 72: size is .* (truncated?) \[sb.size\]" fsck.out &&
	PATH="$D/usr/sbin:$D/usr/bin:$PATH" fsck.axfs trunc.axfs >fsck.out 2>&1;
	test $? -eq 4 && grep "\[sb.size\]" fsck.out
'

test_lazy_prereq BASH 'command -v bash'
test_expect_success BASH 'the installed bash completion completes commands and options' '
	PATH="$D/usr/bin:$D/usr/sbin:$PATH" bash -c "
		. \"$D/usr/share/bash-completion/completions/axfs\"
		c() { COMP_WORDS=(\"\$@\"); COMP_CWORD=\$((\$# - 1)); _axfs; echo \"\${COMPREPLY[*]}\"; }
		c axfs \"\"
		c axfs mkfs --bl
		c mkfs.axfs --pol
		c axfs fsck --
		c axfs fsck -p --fa
		c axfs merge-profile -m \"\"
		c axfs split -s --in
		c mount.fuse.axfs img dir -
		c axfs mount -o \"\"
	" >compl.out &&
	sed -n 1p compl.out | grep -q "mkfs dump extract fsck merge-profile split" &&
	sed -n 2p compl.out | grep -qx -- "--block-size" &&
	sed -n 3p compl.out | grep -qx -- "--policy" &&
	sed -n 4p compl.out | grep -q -- "--help" &&
	sed -n 5p compl.out | grep -qx -- "--fast" &&
	sed -n 6p compl.out | grep -qx -- "sum max" &&
	sed -n 7p compl.out | grep -qx -- "" &&
	sed -n 8p compl.out | grep -q -- "-N" &&
	! sed -n 8p compl.out | grep -q -- "--store" &&
	# mount -o completes every word of the sub-option table in
	# cmd/mount.c (but rw, which it refuses), written by hand there.
	sed -n "/^static struct cmd_step parse_options(/,/CMD_KIND_END/p" \
		"$top/cmd/mount.c" | sed -n "s/.*(0, \"\([a-z_]*\)\".*/\1/p" >subopts &&
	test "$(wc -l <subopts)" -ge 5 &&
	for w in $(grep -vx rw subopts); do
		sed -n 9p compl.out | tr " " "\n" | grep -qx "$w=\{0,1\}" ||
			{ echo "mount -o $w is not completed"; return 1; }
	done
'

# mount(8) after `make install`, in a private mount namespace whose /usr
# views are overlays with the install on top (nothing outside changes).
# mount(8) runs /sbin/mount.fuse.axfs, else fuse3's /sbin/mount.fuse, which
# runs `axfs SOURCE DIR -o OPTIONS` from the shell's default PATH
# (/usr/local/bin first): PREFIX=/usr takes the first route, the default
# PREFIX=/usr/local the second.  Both the command line and an fstab line.
test_lazy_prereq UNSHARE 'command -v unshare && unshare -m true'
test_lazy_prereq MOUNT_FUSE 'test -x /sbin/mount.fuse'
# mount_as_user_would PREFIX_DIR(S): overlays each DIR of the install over
# the machine's, mounts the split image with -t fuse.axfs, then through a
# line of an fstab (mount -T), and checks and unmounts each time.
mount_as_user_would() {
	_ov=""
	for _d; do
		_ov="$_ov mount -t overlay ov -o lowerdir=$D3$_d:$_d $_d &&"
	done
	unshare -m --propagation private sh -c "$_ov
		mount -t fuse.axfs -o store=$TRASH/split.nand split.nor mnt &&
		grep \" $TRASH/mnt fuse.axfs ro,\" /proc/mounts &&
		cmp mnt/etc/conf st/etc/conf && cmp mnt/bin/prog st/bin/prog &&
		umount mnt &&
		printf \"%s\\n\" \"$TRASH/split.nor $TRASH/mnt fuse.axfs store=$TRASH/split.nand,nofail,x-systemd.automount 0 0\" >fstab &&
		mount -T fstab $TRASH/mnt &&
		grep \" $TRASH/mnt fuse.axfs ro,\" /proc/mounts &&
		cmp mnt/etc/conf st/etc/conf &&
		umount mnt"
}
D3=$TRASH/dest-mount
test_expect_success ROOT,FUSE,UNSHARE,MOUNT_FUSE 'make install (PREFIX=/usr/local), then mount -t fuse.axfs and an fstab line' '
	mkdir -p st/bin st/etc mnt &&
	head -c 300000 /dev/urandom >st/bin/prog &&
	yes "some text that compresses" | head -c 200000 >st/etc/conf &&
	"$D/usr/bin/axfs" mkfs -q --xip /bin/prog --mmap-limit 1MiB st -o split.axfs &&
	"$D/usr/bin/axfs" split split.axfs --mmap split.nor --store split.nand &&
	env -u PKG_CONFIG_PATH -u PKG_CONFIG_SYSROOT_DIR -u PKG_CONFIG_LIBDIR \
		make -s -C "$top" B="$B" install DESTDIR="$D3" >install3.log 2>&1 ||
		{ cat install3.log; false; } &&
	test -L "$D3/usr/local/sbin/mount.fuse.axfs" &&
	mount_as_user_would /usr/local/bin /usr/local/sbin
'

test_expect_success ROOT,FUSE,UNSHARE 'make install PREFIX=/usr: mount(8) runs the installed mount.fuse.axfs' '
	# Only the helper: with fuse3'"'"'s mount.fuse hidden, no other route.
	: >nofuse &&
	unshare -m --propagation private sh -c "
		mount -t overlay ov -o lowerdir=$D/usr/bin:/usr/bin /usr/bin &&
		mount -t overlay ov -o lowerdir=$D/usr/sbin:/usr/sbin /usr/sbin &&
		if test -e /usr/sbin/mount.fuse; then
			mount --bind $TRASH/nofuse /usr/sbin/mount.fuse; fi &&
		test ! -x /sbin/mount.fuse &&
		mount -t fuse.axfs -o store=$TRASH/split.nand split.nor mnt &&
		grep \" $TRASH/mnt fuse.axfs ro,\" /proc/mounts &&
		cmp mnt/etc/conf st/etc/conf &&
		umount mnt"
'

test_expect_success 'make uninstall removes everything it installed' '
	make -s -C "$top" B="$B" uninstall DESTDIR="$D" PREFIX=/usr >uninstall.log 2>&1 ||
		{ cat uninstall.log; false; } &&
	find "$D" ! -type d >left &&
	cat left &&
	! test -s left
'

test_done
