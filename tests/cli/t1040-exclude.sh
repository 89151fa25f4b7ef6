#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# axfs mkfs --exclude GLOB, --exclude-from FILE and the policy's top-level
# exclude: every match is left out with what is under it, from a directory,
# an archive and an image alike; -v names them; a glob that matches nothing
# is a warning; bad globs name their file and line (issue 31 item 4).
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
	printf "/usr/share/doc\nusr/bin\n" >bad.list &&
	test_expect_code 8 "$AXFS" mkfs -q tree -o b.axfs --exclude-from bad.list 2>err &&
	grep "^axfs mkfs: bad.list:2: .usr/bin.: the pattern must be an image path starting with ./." err &&
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
	test_expect_code 16 "$AXFS" mkfs -q tree -o b.axfs --exclude "etc" 2>err &&
	grep "^axfs mkfs: --exclude .etc.: the pattern must be an image path" err
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

test_expect_success 'a hard link to an excluded file is refused, naming both' '
	mkdir -p hl && echo data >hl/a && ln hl/a hl/b && echo c >hl/c &&
	tar cf hl.tar -C hl ./a ./b ./c &&
	test_expect_code 8 "$AXFS" mkfs -q hl.tar -o h.axfs --exclude /a 2>err &&
	grep "./b. is a hard link to ./a., which is excluded: exclude both or neither" err &&
	"$AXFS" mkfs -q hl.tar -o h.axfs --exclude /a --exclude /b &&
	listing h.axfs >got && printf ".\n./c\n" >want && test_cmp want got
'

test_done
