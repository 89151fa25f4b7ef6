#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The commands the documentation shows, for t7210-doc-examples.sh.

  docexamples.py FILE...          one line a command:
                                  FILE:LINE<TAB>FILE:BLOCK-LINE<TAB>COMMAND
  docexamples.py --block NAME FILE...   the text of the block named NAME

What a command is:
- Markdown (README.md, kernel/README.md): each line of a ```sh block.
- man pages: each line of an .EX/.EE or .nf/.fi block, roff escapes
  undone, a prompt ("$ ", "host$ ", "target# ") taken off.
The commands of a block run in order, as a reader pastes the block.
In both, a line ending in a backslash or a pipe goes on on the next line;
comment lines and trailing "  # comments" are dropped.

A block that does not hold commands (output, JSON, YAML, a device tree, an
fstab line) is marked just before it, where a reader does not see it:
  man:      .\\" doc-test: output NAME      (--block NAME prints it)
            .\\" doc-test: skip REASON
  Markdown: <!-- doc-test: output NAME --> or <!-- doc-test: skip REASON -->
Markdown blocks of another language (```yaml, ```c, ```dts) are not run.
A man page block without a marker is commands: a block of output that
lost its marker fails the test, which runs it.
"""
import re
import sys

PROMPT = re.compile(r'^(?:\$|host\$|target#) ')
MARK_MAN = re.compile(r'^\.\\" doc-test: (output|skip)\b\s*(.*)$')
LAYOUT = ('.PP', '.RS', '.in ')     # may stand between a mark and its block
MARK_MD = re.compile(r'^<!-- doc-test: (output|skip)\b\s*(.*?)\s*-->$')


def unroff(line):
    """A line of a man page's source as the reader sees it."""
    for a, b in ((r'\(aq', "'"), (r'\(dq', '"'), (r'\(en', '-'),
                 (r'\(em', '--'), (r'\-', '-'), (r'\&', ''), (r'\~', ' '),
                 (r'\e', '\\')):
        line = line.replace(a, b)
    return re.sub(r'\\f(?:[BIRP]|\(..)', '', line)


def strip_comment(line):
    """The line without a trailing "# comment" outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in '\'"':
            quote = c
        elif c == '#' and (i == 0 or line[i - 1] in ' \t'):
            return line[:i].rstrip()
    return line.rstrip()


def commands(lines):
    """(index, command) of a block's lines: (index, text) pairs."""
    out = []
    cur = None
    for no, text in lines:
        text = PROMPT.sub('', text)
        text = strip_comment(text)
        if not text.strip():
            if cur:
                out.append(cur)
                cur = None
            continue
        if cur:
            cur = (cur[0], cur[1] + ' ' + text.strip())
        else:
            cur = (no, text.strip())
        if cur[1].endswith('\\'):
            cur = (cur[0], cur[1][:-1].rstrip())
        elif not cur[1].endswith('|') and not cur[1].endswith('&&'):
            out.append(cur)
            cur = None
    if cur:
        out.append(cur)
    return out


def blocks(path):
    """(kind, name, [(line number, text)], first line) of each block of a
    file: kind is "run", "output" or "skip"."""
    with open(path, encoding='utf-8') as f:
        src = f.read().split('\n')
    md = path.endswith('.md')
    mark = None
    cur = None
    for i, line in enumerate(src, 1):
        if md:
            if cur is None:
                m = MARK_MD.match(line.strip())
                if m:
                    mark = (m.group(1), m.group(2))
                    continue
                # A fence may be indented (a block inside a list item).
                m = re.match(r'^( *)```(\S*)$', line)
                if m:
                    indent = len(m.group(1))
                    if mark:
                        kind, name = mark
                    elif m.group(2) == 'sh':
                        kind, name = 'run', ''
                    else:
                        kind, name = 'skip', m.group(2) or 'text'
                    cur = (kind, name, [], i)
                    mark = None
                elif line.strip():
                    mark = None
            elif line.strip() == '```':
                yield cur
                cur = None
            else:
                if line[:indent].isspace():
                    line = line[indent:]
                cur[2].append((i, line))
        else:
            if cur is None:
                m = MARK_MAN.match(line)
                if m:
                    mark = (m.group(1), m.group(2))
                    continue
                if line in ('.EX', '.nf'):
                    kind, name = mark or ('run', '')
                    cur = (kind, name, [], i)
                    mark = None
                elif line.strip() and not line.startswith(LAYOUT):
                    mark = None
            elif line in ('.EE', '.fi'):
                yield cur
                cur = None
            elif not line.startswith('.\\"'):
                cur[2].append((i, unroff(line)))


def main(argv):
    if len(argv) >= 2 and argv[0] == '--block':
        name = argv[1]
        found = False
        for path in argv[2:]:
            for kind, bname, lines, _ in blocks(path):
                if kind == 'output' and bname == name:
                    found = True
                    for _, text in lines:
                        print(text)
        if not found:
            sys.exit('docexamples.py: no block named %s' % name)
        return
    for path in argv:
        for kind, _, lines, start in blocks(path):
            if kind != 'run':
                continue
            for no, cmd in commands(lines):
                if not path.endswith('.md') and cmd.startswith('.'):
                    sys.exit('%s:%d: a roff request in a block of commands: '
                             'mark the block (doc-test: output or skip)'
                             % (path, no))
                print('%s:%d\t%s:%d\t%s' % (path, no, path, start, cmd))


if __name__ == '__main__':
    main(sys.argv[1:])
