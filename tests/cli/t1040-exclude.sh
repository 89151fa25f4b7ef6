#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs --exclude GLOB, --exclude-from FILE and the policy's top-level
# exclude: every match is left out with what is under it, from a directory,
# an archive and an image alike; -v names them; a glob that matches nothing
# is a warning; bad globs name their file and line (issue 31 item 4).  A
# glob without '/' matches a name at any depth, as tar and rsync take it
# ("*.pm"); one with '/' is anchored (issue 39 §4).
. "$(dirname "$0")/lib.sh"

test_expect_success 'setup: a real tree and its tarball' '
	mkdir -p tree/bin tree/etc tree/usr/share/doc/pkg tree/usr/share/man/man1 &&
	cp /bin/true tree/bin/true && cp /bin/false tree/bin/false &&
	echo "root:x:0:0" >tree/etc/passwd && echo keep >tree/etc/keep.conf &&
	cp /etc/os-release tree/usr/share/doc/pkg/copyright &&
	echo ".TH LS 1" >tree/usr/share/man/man1/ls.1 &&
	ln -s true tree/bin/alias &&
	tar cf tree.tar -C tree . &&
	(cd tree && find . | sort) >all
'

listing() {	# listing IMAGE: every path in the image, sorted, as find prints them
	rm -rf x && "$AXFS" extract "$1" x && (cd x && find . | sort)
}

test_expect_success '--exclude leaves every match out, with what is under it' '
	"$AXFS" mkfs -q tree -o a.axfs --exclude "/usr/share/doc" --exclude "/bin/fal*" \
		--exclude "/etc/*.conf" &&
	grep -v -e "^./usr/share/doc" -e "^./bin/false$" -e "^./etc/keep.conf$" all >want &&
	listing a.axfs >got && test_cmp want got &&
	rm -rf x && "$AXFS" extract a.axfs x && cmp x/bin/true tree/bin/true
'

test_expect_success 'a tarball and a directory give the same image' '
	"$AXFS" mkfs -q tree.tar -o t.axfs --exclude "/usr/share/doc" --exclude "/bin/fal*" \
		--exclude "/etc/*.conf" &&
	cmp a.axfs t.axfs
'

test_expect_success '** in a glob, and a rebuild from an image' '
	"$AXFS" mkfs -q tree -o s.axfs --exclude "/usr/share/**" &&
	listing s.axfs >got && grep "^./usr/share$" got && ! grep "^./usr/share/" got &&
	"$AXFS" mkfs -q a.axfs -o r.axfs --exclude "/bin/alias" &&
	listing r.axfs >got && ! grep alias got && grep "^./bin/true$" got
'

test_expect_success '-v names each match and the count; a glob that matches nothing warns' '
	"$AXFS" mkfs -v tree -o v.axfs --exclude "/usr/share/doc" --exclude "/nope/*" \
		>/dev/null 2>err &&
	grep "^axfs mkfs: ./usr/share/doc.: excluded (--exclude ./usr/share/doc.)$" err &&
	grep "^axfs mkfs: excluded 3 entries$" err &&
	! grep "copyright" err &&
	grep "^axfs mkfs: warning: --exclude: ./nope/\*. matches nothing in the source$" err &&
	"$AXFS" mkfs tree -o v.axfs --exclude "/nope/*" >/dev/null 2>err &&
	test "$(wc -l <err)" -eq 1 && grep "matches nothing" err &&
	"$AXFS" mkfs -q tree -o v.axfs --exclude "/nope/*" 2>err && ! test -s err
'

test_expect_success '--exclude-from: a glob a line, comments, FILE:LINE in errors' '
	printf "# docs\n\n/usr/share/doc\n/bin/fal*\n/etc/*.conf\n" >ex.list &&
	"$AXFS" mkfs -q tree -o f.axfs --exclude-from ex.list &&
	cmp a.axfs f.axfs &&
	printf "/usr/share/doc\nusr/../bin\n" >bad.list &&
	test_expect_code 8 "$AXFS" mkfs -q tree -o b.axfs --exclude-from bad.list 2>err &&
	grep "^axfs mkfs: bad.list:2: .usr/../bin.: .... components are not allowed" err &&
	printf "/ok\n/a[b\n" >bad2.list &&
	test_expect_code 8 "$AXFS" mkfs -q tree -o b.axfs --exclude-from bad2.list 2>err &&
	grep "^axfs mkfs: bad2.list:2: ./a\[b.: " err &&
	printf "/nope\n" >nomatch.list &&
	"$AXFS" mkfs tree -o b.axfs --exclude-from nomatch.list 2>err >/dev/null &&
	grep "warning: nomatch.list:1: ./nope. matches nothing" err &&
	test_expect_code 8 "$AXFS" mkfs -q tree -o b.axfs --exclude-from missing.list 2>err &&
	grep "cannot open .missing.list.: No such file or directory" err &&
	test_expect_code 16 "$AXFS" mkfs -q tree -o b.axfs --exclude-from ex.list \
		--report ex.list 2>err &&
	grep "the output .ex.list. (--report) is the input .ex.list. (--exclude-from)" err &&
	test_expect_code 16 "$AXFS" mkfs -q tree -o b.axfs --exclude "etc/" 2>err &&
	grep "^axfs mkfs: --exclude .etc/.: a trailing ./. is not allowed" err
'

test_expect_success 'the policy key exclude: (apart from xip.exclude)' '
	cat >p.yaml <<-\EOF &&
	exclude: [/usr/share/doc, "/bin/fal*", "/etc/*.conf"]
	xip: {exclude: /bin/true}
	EOF
	"$AXFS" mkfs -q tree -c p.yaml -o p.axfs &&
	listing p.axfs >got && listing a.axfs >want && test_cmp want got &&
	printf "exclude: /nothing\n" >n.yaml &&
	"$AXFS" mkfs tree -c n.yaml -o n.axfs 2>err >/dev/null &&
	grep "warning: n.yaml:1:10: exclude\[0\]: ./nothing. matches nothing" err &&
	printf "exclude: {a: b}\n" >m.yaml &&
	test_expect_code 8 "$AXFS" mkfs tree -c m.yaml -o m.axfs 2>err &&
	grep "m.yaml:1:10: exclude: expected a glob or a list of globs" err
'

test_lazy_prereq PERL_BASE '
	command -v dpkg-query &&
	dpkg-query -W -f="\${db:Status-Status}" perl-base | grep -qx installed
'

# The files of perl-base, a real tree: .pm files in /usr/lib/ARCH/perl-base
# and one and two levels below it (at least three depths, checked).
test_expect_success PERL_BASE "--exclude '*.pm' leaves out every .pm file at every depth" '
	sh "$AXFS_TOP/tests/tools/pkgtree.sh" perl perl-base &&
	(cd perl && find . -name "*.pm" | awk -F/ "{ print NF }" | sort -u) >depths &&
	test "$(wc -l <depths)" -ge 3 &&
	"$AXFS" mkfs -q perl -o pm.axfs --exclude "*.pm" &&
	rm -rf x && "$AXFS" extract pm.axfs x &&
	test -z "$(cd x && find . -name "*.pm")" &&
	cp -a perl nopm && find nopm -name "*.pm" -exec rm {} + &&
	compare_trees nopm x --content &&
	test -n "$(cd x && find . -type f)"
'

test_expect_success PERL_BASE "'*.pm' from --exclude-from and the policy give the same image" '
	printf "# perl modules\n*.pm\n" >pm.list &&
	"$AXFS" mkfs -q perl -o pm2.axfs --exclude-from pm.list &&
	cmp pm.axfs pm2.axfs &&
	printf "exclude: \"*.pm\"\n" >pm.yaml &&
	"$AXFS" mkfs -q perl -o pm3.axfs -c pm.yaml &&
	cmp pm.axfs pm3.axfs
'

test_expect_success 'a name excludes every entry of that name, with what is under it; a path with / is anchored' '
	mkdir -p any/doc/a any/usr/share/doc/b any/x/usr/share any/docs &&
	echo 1 >any/doc/a/f && echo 2 >any/usr/share/doc/b/f &&
	echo 3 >any/x/usr/share/f && echo 4 >any/docs/f && echo 5 >any/doc.txt &&
	"$AXFS" mkfs -q any -o any.axfs --exclude doc &&
	listing any.axfs >got &&
	! grep "/doc$" got && ! grep "/doc/" got &&
	grep -x "./docs/f" got && grep -x "./doc.txt" got &&
	"$AXFS" mkfs -q any -o anch.axfs --exclude usr/share &&
	listing anch.axfs >got &&
	grep -x "./usr" got && ! grep "^./usr/share" got &&
	grep -x "./x/usr/share/f" got &&
	"$AXFS" mkfs -q any -o anch2.axfs --exclude /usr/share &&
	cmp anch.axfs anch2.axfs
'

test_expect_success 'a hard link to an excluded file is refused, naming both' '
	mkdir -p hl && echo data >hl/a && ln hl/a hl/b && echo c >hl/c &&
	tar cf hl.tar -C hl ./a ./b ./c &&
	test_expect_code 8 "$AXFS" mkfs -q hl.tar -o h.axfs --exclude /a 2>err &&
	grep "./b. is a hard link to ./a., which is excluded: exclude both or neither" err &&
	"$AXFS" mkfs -q hl.tar -o h.axfs --exclude /a --exclude /b &&
	listing h.axfs >got && printf ".\n./c\n" >want && test_cmp want got
'

test_done
